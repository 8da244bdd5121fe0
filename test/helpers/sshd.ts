// A real OpenSSH server (Debian's sshd) for the remote-host tests: on 127.0.0.1 at a free port, with a temporary host
// key, one authorized key, and a HOME of its own for every session (SetEnv), so the "remote" Baton installs into and
// keeps its data under a temp directory and never the developer's ~/.baton. The client side gets an ssh config file
// (BATON_SSH_CONFIG) naming the host `devbox` with the key and a known_hosts that holds (or lacks) the host key.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, chmodSync, symlinkSync, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { descendants, killMarks, listProcs, markOf, type ProcMark } from './processes.js';
import { tempDir } from './server.js';

export interface TestSshd {
  readonly port: number;
  /** The listening sshd (SIGSTOP it and new connections wait in its backlog until SIGCONT). */
  readonly pid: number;
  readonly dir: string;
  /** $HOME of every session: the remote Baton's data is in <remoteHome>/.baton. */
  readonly remoteHome: string;
  /** The client's ssh config (pass as BATON_SSH_CONFIG): hosts `devbox` (known key) and `stranger` (unknown key). */
  readonly configFile: string;
  /** That config's text, to join with another sshd's into one file. */
  readonly config: string;
  /** Ends every session this sshd serves (the TCP connections drop); the server keeps listening. */
  killConnections(): number;
  /**
   * Stops (SIGSTOP) every sshd process serving a connection: what the client sends is never read, as on a network
   * that died while neither end has noticed. Returns them, for `killMarks` (which ends them, stopped or not).
   */
  freezeConnections(): ProcMark[];
  stop(): void;
}

export interface SshdOptions {
  /** PATH of the sessions (default: this process's); a PATH without node makes a host without Node. */
  path?: string;
  /** More environment for every session (SetEnv): the fake vendor CLIs, say. */
  env?: Record<string, string>;
  /** The aliases of the client config: one whose host key is known (default devbox), one whose is not (stranger). */
  known?: string;
  unknown?: string;
  /** More sshd_config lines (e.g. `AllowStreamLocalForwarding no`). */
  config?: string[];
}

export function sshdAvailable(): boolean {
  return existsSync('/usr/sbin/sshd') && existsSync('/usr/bin/ssh') && existsSync('/usr/bin/ssh-keygen');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function keygen(path: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'baton-test', '-f', path]);
}

export async function startSshd(options: SshdOptions = {}): Promise<TestSshd> {
  const dir = tempDir('baton-sshd-');
  const remoteHome = join(dir, 'home');
  mkdirSync(remoteHome, { mode: 0o700 });
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'user_key'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')), { mode: 0o600 });
  // sshd's privilege separation directory (absent on a machine where sshd never ran).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const env = {
    HOME: remoteHome,
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    ...options.env,
  };
  // sshd_config splits SetEnv on blanks and reads quotes: a value holding one would set something else.
  for (const [k, v] of Object.entries(env))
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) || /[\s"'\\]/.test(v)) throw new Error(`SetEnv cannot carry ${k}`);
  const setEnv = Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      'StrictModes no',
      'MaxSessions 64',
      'MaxStartups 64',
      `SetEnv ${setEnv}`,
      ...(options.config ?? []),
      '',
    ].join('\n'),
  );
  const user = userInfo().username;
  const hostKey = readFileSync(join(dir, 'host_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'empty_known_hosts'), '', { mode: 0o600 });
  const block = (name: string, knownHosts: string) =>
    [
      `Host ${name}`,
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, 'user_key')}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${knownHosts}`,
      '  GlobalKnownHostsFile /dev/null',
      '',
    ].join('\n');
  const configFile = join(dir, 'ssh_config');
  const known = block(options.known ?? 'devbox', join(dir, 'known_hosts'));
  writeFileSync(configFile, known + block(options.unknown ?? 'stranger', join(dir, 'empty_known_hosts')), {
    mode: 0o600,
  });
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-8000)));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`sshd did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const sshdPid = child.pid!;
  return {
    port,
    pid: sshdPid,
    dir,
    remoteHome,
    configFile,
    config: readFileSync(configFile, 'utf8'),
    killConnections() {
      // Every per-connection sshd is a child of the listener: killing them drops the TCP connections.
      const sessions = listProcs().filter((p) => p.ppid === sshdPid);
      killMarks(sessions.map(markOf));
      return sessions.length;
    },
    freezeConnections() {
      const sessions = descendants(sshdPid).filter((p) => p.comm.startsWith('sshd'));
      for (const p of sessions) process.kill(p.pid, 'SIGSTOP');
      return sessions.map(markOf);
    },
    stop() {
      // The sessions too: ssh's shared connections (ControlPersist) end with them instead of idling on.
      killMarks(
        listProcs()
          .filter((p) => p.ppid === sshdPid)
          .map(markOf),
      );
      child.kill('SIGTERM');
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A directory for PATH holding only the tools a login needs, and no node: a host without Node. */
export function pathWithoutNode(dir: string): string {
  const bin = join(dir, 'bin-without-node');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['sh', 'bash', 'uname', 'cat', 'mkdir', 'rm', 'mv', 'tar', 'gzip', 'chmod']) {
    const target = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (target && !existsSync(join(bin, tool))) symlinkSync(target, join(bin, tool));
  }
  chmodSync(bin, 0o755);
  return bin;
}
