// Another build's whole remote chain for test/bench/ssh.ts, typed in the same rotation (BATON_BENCH_BASE=<checkout
// with a build>): its own local core (that build's bin/baton.js, spoken to with that build's client), its own sshd
// (`basebox`, its own HOME) and so that build's core installed on the host. Both chains then share the load of the
// same moments: an A/B of two builds that runs minutes apart on a busy machine cannot give (docs/performance.md,
// "Remote echo (echo14)").
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { startSshd } from '../helpers/sshd.js';
import { startServer, testEnv, waitFor } from '../helpers/server.js';
import { ECHO, dataArrived, type EchoTarget } from './ssh-measures.js';
import { shutdownRemoteCore } from './ssh-host-b.js';

export interface BaseChain {
  target: EchoTarget;
  /** That build's client and its remote pane (an idle shell), for the throughput rounds (ssh-throughput.ts). */
  client: RpcClient;
  paneAgentId: string;
  /** Its host core's pid (the test sshd's host is this machine), to wait for its mirror as for this build's. */
  hostCorePid: () => number;
  stop(): Promise<void>;
}

export async function startBaseChain(base: string, dir: string, env: Record<string, string>): Promise<BaseChain> {
  const sshd = await startSshd({ env, known: 'basebox', unknown: 'stranger3' });
  const dataDir = join(dir, 'base-data');
  const server = await startServer(
    dataDir,
    testEnv(join(dir, 'base-home'), { BATON_SSH_CONFIG: sshd.configFile, ...env }),
    [],
    join(base, 'bin', 'baton.js'),
  );
  // That build's own client: the two builds' protocols may differ.
  const baseConnect = (await import(join(base, 'electron', 'cli', 'connect.ts'))) as {
    connect(address: { url: string; token: string }): Promise<RpcClient>;
  };
  const client = await baseConnect.connect({ url: server.url, token: server.token });
  const stop = async () => {
    await client.call('run.stop', { run: 'bench-ssh-base' }).catch(() => undefined);
    client.close();
    server.child.kill('SIGTERM');
    await server.exited;
    await shutdownRemoteCore(sshd.remoteHome);
    sshd.stop();
    rmSync(sshd.dir, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    const host = await client.call('hosts.connect', { host: 'basebox' });
    if (host.state !== 'connected') throw new Error(`basebox: ${host.message ?? host.state}`);
    const work = join(sshd.remoteHome, 'bench');
    mkdirSync(work, { mode: 0o700 });
    const run = await client.call('run.start', {
      name: 'bench-ssh-base',
      // The same agents as this build's chain (an idle shell beside the echo): both cores carry the same load.
      agents: [
        { vendor: 'shell', label: 'echo', cwd: work, host: 'basebox', command: ['node', '-e', ECHO] },
        { vendor: 'shell', label: 'pane', cwd: work, host: 'basebox', command: ['/bin/bash', '--noprofile', '--norc'] },
      ],
    });
    let text = '';
    let bytes = 0;
    const stream = await client.attach(
      run.agents[0]!.id,
      { fromOffset: 0, autoAck: true },
      {
        onData: (d) => {
          text = (text + Buffer.from(d).toString('latin1')).slice(-64);
          bytes += d.length;
          dataArrived();
        },
        onReset: () => undefined,
      },
    );
    await waitFor(() => text.includes('READY'), "the base build's remote echo agent", 60_000);
    return {
      target: { type: (k) => stream.input(k), received: () => bytes, text: () => text },
      client,
      paneAgentId: run.agents[1]!.id,
      hostCorePid: () =>
        (JSON.parse(readFileSync(join(sshd.remoteHome, '.baton', 'server.json'), 'utf8')) as { pid: number }).pid,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
