// A second remote host for test/bench/ssh.ts's A/B in one run: BATON_BENCH_HOST_B="NAME=value,NAME=value" starts a
// second sshd (`devbox2`, its own HOME, so its own remote core) whose sessions, and so its core, get those switches on
// top of the common ones. Keys then go to the agent on devbox, the agent on devbox2 and `ssh devbox cat` in turn, in
// blocks: both cores' echo shares the load of the same moments, which paired runs minutes apart on a busy machine
// cannot give (docs/performance.md, "Remote echo (echo14)").
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../../electron/cli/connect.js';
import { startSshd, type TestSshd } from '../helpers/sshd.js';

/** The switches of host B, or null when the bench runs with one host. Names and values are checked, never a shell. */
export function hostBSwitches(): Record<string, string> | null {
  return switchesOf('BATON_BENCH_HOST_B');
}

/** `NAME=value,NAME=value` from the environment variable `variable`, checked; null when it is not set. */
export function switchesOf(variable: string): Record<string, string> | null {
  const spec = process.env[variable];
  if (spec === undefined) return null;
  const out: Record<string, string> = {};
  for (const pair of spec.split(',').filter((p) => p !== '')) {
    const m = /^(BATON_[A-Z0-9_]+)=([A-Za-z0-9._/-]*)$/.exec(pair);
    if (!m) throw new Error(`${variable}: "${pair}" is not BATON_NAME=value`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

/** Host B's sshd, and one client config file naming both hosts (devbox from `a`, devbox2 from B). */
export async function startHostB(
  a: TestSshd,
  env: Record<string, string>,
  dir: string,
): Promise<{ sshd: TestSshd; configFile: string }> {
  const sshd = await startSshd({ env, known: 'devbox2', unknown: 'stranger2' });
  const configFile = join(dir, 'ssh_config_ab');
  writeFileSync(configFile, a.config + sshd.config, { mode: 0o600 });
  return { sshd, configFile };
}

/** Ends the bench's remote core under `remoteHome` through its own contract (found by its server.json there). */
export async function shutdownRemoteCore(remoteHome: string): Promise<void> {
  try {
    const info = JSON.parse(readFileSync(join(remoteHome, '.baton', 'server.json'), 'utf8')) as {
      socket: string;
      token: string;
    };
    const remoteCore = await connect({ socket: info.socket, token: info.token });
    await remoteCore.call('core.shutdown', { resumeOnStart: false }).catch(() => undefined);
    remoteCore.close();
  } catch {
    // No remote core was started.
  }
}
