// The chain test/bench/ssh.ts measures, set up and torn down: the test sshd (and host B's, BATON_BENCH_HOST_B), this
// build's local core with a client, the hosts connected, and the bench directory on the host with the throughput
// file. The cores' A/B switches (coreTuning: BATON_MIRROR_*, BATON_OUTPUT_*) reach both cores, the host's through the
// test sshd's SetEnv (never a shell string); BATON_BENCH_TUNE=host or =local gives them to that core only.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import type { SshOptions } from '../../electron/core/remote/ssh.js';
import { connect } from '../../electron/cli/connect.js';
import { startSshd, type TestSshd } from '../helpers/sshd.js';
import { startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { coreTuning, load } from './renderer-kit.js';
import { hostBSwitches, shutdownRemoteCore, startHostB } from './ssh-host-b.js';
import { BIG_MB, WAIT_EVENT, profileEnv } from './ssh-measures.js';

export interface SshChain {
  sshd: TestSshd;
  hostB: { sshd: TestSshd; configFile: string } | null;
  /** The switches the host's core got (a base build's host gets the same). */
  hostTuning: Record<string, string>;
  dir: string;
  dataDir: string;
  server: ServerProcess;
  client: RpcClient;
  /** How this bench runs ssh itself (`ssh devbox cat`): the local core's shared connection. */
  ssh: SshOptions;
  /** The bench directory on the host, holding big.txt (`bigBytes` long). */
  work: string;
  bigBytes: number;
  stop(): Promise<void>;
}

/** The switches for each core, checked and printed. */
function tunings(): { host: Record<string, string>; local: Record<string, string> } {
  const tuning = coreTuning();
  const tune = process.env.BATON_BENCH_TUNE ?? 'both';
  if (!['both', 'host', 'local'].includes(tune)) throw new Error('BATON_BENCH_TUNE is both, host or local');
  const host = tune === 'local' ? {} : tuning;
  const local = tune === 'host' ? {} : tuning;
  console.log(
    `switches: host core ${JSON.stringify(host)}, local core ${JSON.stringify(local)}; the key loop waits ` +
      (WAIT_EVENT
        ? 'for events (BATON_BENCH_WAIT=spin: polling, as before stop 23)'
        : 'polling (BATON_BENCH_WAIT=spin)'),
  );
  return { host, local };
}

export async function startChain(): Promise<SshChain> {
  const tuning = tunings();
  console.log(`load at start: ${load()}`);
  const sshd = await startSshd({ env: { ...profileEnv('remote'), ...tuning.host } });
  const dir = tempDir('baton-bench-ssh-');
  const switchesB = hostBSwitches();
  const hostB = switchesB
    ? await startHostB(sshd, { ...profileEnv('remote-b'), ...tuning.host, ...switchesB }, dir)
    : null;
  if (switchesB) console.log(`host B (devbox2) core also gets ${JSON.stringify(switchesB)}`);
  const configFile = hostB?.configFile ?? sshd.configFile;
  const dataDir = join(dir, 'data');
  const env = testEnv(join(dir, 'home'), { BATON_SSH_CONFIG: configFile, ...profileEnv('local'), ...tuning.local });
  const server = await startServer(dataDir, env);
  const client = await server.connect();
  const stop = async () => {
    await client.call('run.stop', { run: 'bench-ssh' }).catch(() => undefined);
    await client.call('run.stop', { run: 'bench-ssh-local' }).catch(() => undefined);
    client.close();
    server.child.kill('SIGTERM');
    await server.exited;
    // The bench's own remote cores, ended through their own contract.
    await shutdownRemoteCore(sshd.remoteHome);
    if (hostB) await shutdownRemoteCore(hostB.sshd.remoteHome);
    sshd.stop();
    hostB?.sshd.stop();
    // Each host holds a copy of the package (~170 MB): a machine running benches in a loop fills its disk otherwise.
    for (const d of [dir, sshd.dir, hostB?.sshd.dir]) if (d) rmSync(d, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    for (const alias of hostB ? ['devbox', 'devbox2'] : ['devbox']) {
      const host = await client.call('hosts.connect', { host: alias });
      if (host.state !== 'connected') throw new Error(`${alias}: ${host.message ?? host.state}`);
    }
    const work = join(sshd.remoteHome, 'bench');
    mkdirSync(work, { mode: 0o700 });
    const line = `${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(2)}\n`;
    const lines = Math.ceil((BIG_MB * 1e6) / line.length);
    writeFileSync(join(work, 'big.txt'), line.repeat(lines));
    const ssh = { controlDir: join(dataDir, 'ssh'), configFile };
    return {
      sshd,
      hostB,
      hostTuning: tuning.host,
      dir,
      dataDir,
      server,
      client,
      ssh,
      work,
      bigBytes: lines * line.length,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The host's core spoken to on its own socket (no ssh, no local core): the diagnostics' baseline. */
export async function connectHostCore(chain: SshChain): Promise<{ client: RpcClient; token: string }> {
  const info = JSON.parse(readFileSync(join(chain.sshd.remoteHome, '.baton', 'server.json'), 'utf8')) as {
    socket: string;
    token: string;
  };
  return { client: await connect({ socket: info.socket, token: info.token }), token: info.token };
}
