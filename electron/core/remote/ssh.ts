// The system's OpenSSH, as Baton runs it for a remote host (docs/hosts.md): argv arrays only, one shared connection
// per host (ControlMaster in a directory only the user can read), BatchMode (never a prompt Baton cannot show), and
// the user's known_hosts with strict checking, so an unknown or changed host key is refused, never accepted.
import { mkdirSync, chmodSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { HOST_ALIAS } from '../../../shared/contract.js';

export interface SshOptions {
  /** Where the shared connections' sockets live (made 0700). */
  controlDir: string;
  /** `ssh -F` (BATON_SSH_CONFIG): another config than ~/.ssh/config; tests use it, and so may a user. */
  configFile?: string;
}

/** `user@host:port` or an alias, split into what ssh takes: the destination and `-p`. */
export function sshDestination(alias: string): { destination: string; port: string | null } {
  if (!HOST_ALIAS.test(alias)) throw new Error('not a host alias');
  const m = /^(.*):([0-9]{1,5})$/.exec(alias);
  return m ? { destination: m[1]!, port: m[2]! } : { destination: alias, port: null };
}

/** The directory for ControlPath sockets: the user's own, 0700, not a link (a socket there is a live login). */
export function prepareControlDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new Error(`${dir} belongs to another user`);
  chmodSync(dir, 0o700);
  return dir;
}

/** The options every ssh Baton runs gets, before the destination. */
export function sshArgs(alias: string, options: SshOptions, extra: readonly string[] = []): string[] {
  const { destination, port } = sshDestination(alias);
  return [
    '-T',
    ...(options.configFile ? ['-F', options.configFile] : []),
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'ControlMaster=auto',
    '-o',
    `ControlPath=${join(options.controlDir, '%C')}`,
    '-o',
    'ControlPersist=60',
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=3',
    '-o',
    'ConnectTimeout=15',
    // The forwarded socket of the remote core (forward.ts) replaces a file left by a master that died.
    '-o',
    'StreamLocalBindUnlink=yes',
    ...(port ? ['-p', port] : []),
    ...extra,
    '--',
    destination,
  ];
}

export interface SshResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one fixed remote command (Baton's own text: constants and a checked version, never data from a request).
 * `input`: what goes to its standard input. Never rejects: the exit code and ssh's own words are the result.
 */
export async function runSsh(
  alias: string,
  options: SshOptions,
  remoteCommand: string,
  timeoutMs = 120_000,
): Promise<SshResult> {
  const result = await execa('ssh', [...sshArgs(alias, options), remoteCommand], {
    reject: false,
    timeout: timeoutMs,
    stdin: 'ignore',
    encoding: 'utf8',
  });
  return { exitCode: result.exitCode ?? 255, stdout: result.stdout, stderr: result.stderr };
}

/** ssh's own last words, for a message: its final non-empty stderr lines, without the warnings about known hosts. */
export function sshError(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('Warning: Permanently added'));
  return lines.slice(-3).join(' ') || 'ssh failed without saying why';
}

/** Turns ssh's refusal of a host key into what the user should do. */
export function explainSshFailure(alias: string, stderr: string): string {
  const said = sshError(stderr);
  if (
    /Host key verification failed|No [A-Z0-9-]+ host key is known|REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(stderr)
  )
    return `the host key of ${alias} is not in your known_hosts (or has changed), so Baton refused to connect: run \`ssh ${alias}\` in a terminal once, check the fingerprint it shows and accept it, then try again (ssh said: ${said})`;
  return `ssh to ${alias} failed: ${said}`;
}

/** `ssh -G alias`: where the user's config really sends it (user@hostname:port), ProxyJump and aliases applied. */
export async function resolveTarget(alias: string, options: SshOptions): Promise<string | null> {
  const { destination, port } = sshDestination(alias);
  const result = await execa(
    'ssh',
    ['-G', ...(options.configFile ? ['-F', options.configFile] : []), ...(port ? ['-p', port] : []), '--', destination],
    { reject: false, timeout: 5000, encoding: 'utf8' },
  );
  if (result.exitCode !== 0) return null;
  const conf = new Map<string, string>();
  for (const line of String(result.stdout).split('\n')) {
    const i = line.indexOf(' ');
    if (i > 0) conf.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  const host = conf.get('hostname');
  if (!host) return null;
  return `${conf.get('user') ?? ''}${conf.get('user') ? '@' : ''}${host}:${conf.get('port') ?? '22'}`;
}
