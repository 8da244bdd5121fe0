// Shared by the ssh-hosts tests: what runs on the "remote" host (the same machine, told apart by its HOME).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { connect } from '../../electron/cli/connect.js';
import type { ServerProcess } from '../helpers/server.js';
import type { TestSshd } from '../helpers/sshd.js';

/** How many `baton connect --stdio` bridges run from the Baton installed under `remoteHome`. */
export function stdioBridges(remoteHome: string): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const script = argv.findIndex((a) => a.startsWith(`${remoteHome}/.baton/server/`) && a.endsWith('/bin/baton.js'));
    if (script >= 0 && argv[script + 1] === 'connect' && argv.includes('--stdio')) count++;
  }
  return count;
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
