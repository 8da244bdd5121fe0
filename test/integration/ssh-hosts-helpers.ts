// Shared by the ssh-hosts tests: what runs on the "remote" host (the same machine, told apart by its HOME).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { connect } from '../../electron/cli/connect.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import type { TestSshd } from '../helpers/sshd.js';

/** The version of the Baton under test: the one a host gets installed. */
export const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version;
/** A shell agent's command with nothing of the user's profile. */
export const BASH = ['/bin/bash', '--noprofile', '--norc'];

/** The committer of the test repositories on the host (its sshd passes it on to the remote core's git). */
export const IDENTITY = {
  GIT_AUTHOR_NAME: 'Agent',
  GIT_AUTHOR_EMAIL: 'agent@example.com',
  GIT_COMMITTER_NAME: 'Agent',
  GIT_COMMITTER_EMAIL: 'agent@example.com',
};

/** git in `cwd` as IDENTITY, its output trimmed. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();
}

/** The `baton connect --stdio` bridges that run from the Baton installed under `remoteHome`. */
export function stdioBridgePids(remoteHome: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const script = argv.findIndex((a) => a.startsWith(`${remoteHome}/.baton/server/`) && a.endsWith('/bin/baton.js'));
    if (script >= 0 && argv[script + 1] === 'connect' && argv.includes('--stdio')) pids.push(Number(name));
  }
  return pids;
}

/** How many of them there are. */
export function stdioBridges(remoteHome: string): number {
  return stdioBridgePids(remoteHome).length;
}

/** The remote host's own core, reached directly on its socket (as a test may: it is the same machine). */
export function remoteCore(sshd: TestSshd): Promise<RpcClient> {
  const info = JSON.parse(readFileSync(join(sshd.remoteHome, '.baton', 'server.json'), 'utf8')) as {
    socket: string;
    token: string;
  };
  return connect({ socket: info.socket, token: info.token });
}

/**
 * Ends a test's machines: the local core, then the remote host's core (the test's own background process, ended
 * through its own contract, if one was started), then sshd.
 */
export async function endSshMachines(
  sshd: TestSshd | undefined,
  server: ServerProcess | undefined,
  client: RpcClient | undefined,
): Promise<void> {
  client?.close();
  server?.child.kill('SIGTERM');
  await server?.exited;
  if (sshd && existsSync(join(sshd.remoteHome, '.baton', 'server.json'))) {
    const remote = await remoteCore(sshd).catch(() => null);
    await remote?.call('core.shutdown', { resumeOnStart: false }).catch(() => undefined);
    remote?.close();
  }
  sshd?.stop();
}

/** The last `size` bytes of an agent's stream (its output has ended growing), read through fresh attaches. */
export async function streamTail(
  client: RpcClient,
  agentId: string,
  size: number,
): Promise<{ end: number; tail: Buffer }> {
  // First, where the stream ends: a catch-up from 0 ends there, and a reset says it.
  let end = 0;
  const probe = await client.attach(
    agentId,
    { fromOffset: 0, autoAck: true },
    {
      onData: (data, offset) => (end = Math.max(end, offset + data.length)),
      onReset: (_screen, offset) => (end = Math.max(end, offset)),
    },
  );
  await new Promise((r) => setTimeout(r, 500));
  probe.detach();
  const from = Math.max(0, end - size);
  const chunks: Buffer[] = [];
  let got = from;
  const stream = await client.attach(
    agentId,
    { fromOffset: from, autoAck: true },
    {
      onData: (data, offset) => {
        if (offset !== got) throw new Error(`a gap at ${got}: data came at ${offset}`);
        chunks.push(Buffer.from(data));
        got = offset + data.length;
      },
      onReset: () => {
        throw new Error('expected bytes, got a reset');
      },
    },
  );
  await waitFor(() => got >= end, `the tail of ${agentId}`, 30_000);
  stream.detach();
  return { end, tail: Buffer.concat(chunks) };
}

/** The remote core's run for a local run: named after the local run's id. */
export async function remoteRunOf(remote: RpcClient, runId: string) {
  const found = (await remote.call('run.list', {})).find((r) => r.name === runId || r.id === runId);
  if (!found) throw new Error(`the remote core has no run for ${runId}`);
  return remote.call('run.get', { run: found.id });
}

/** This machine's core for a test against `sshd`: its own HOME and data directory, ssh configured for the host. */
export async function localCore(
  sshd: TestSshd,
  prefix: string,
): Promise<{ dir: string; env: Record<string, string>; server: ServerProcess; client: RpcClient }> {
  const dir = tempDir(prefix);
  const env = testEnv(join(dir, 'home'), { BATON_SSH_CONFIG: sshd.configFile });
  const server = await startServer(join(dir, 'data'), env);
  return { dir, env, server, client: await server.connect() };
}
