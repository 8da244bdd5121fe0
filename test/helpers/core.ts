// A real background core (`baton serve --socket`) on a temp data directory, the `baton` command line run against it,
// and the checks every test of it needs: whether a pid still runs, what the core's server.json says.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { connect } from '../../electron/cli/connect.js';
import { BATON_BIN, waitFor } from './server.js';

export interface SocketInfo {
  socket: string;
  token: string;
  pid: number;
  version: string;
  protocolVersion: number;
}

export interface CoreProcess {
  readonly child: ChildProcess;
  readonly dataDir: string;
  readonly info: SocketInfo;
  output(): string;
  connect(): Promise<RpcClient>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function readServerJson(dataDir: string): SocketInfo | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as SocketInfo;
  } catch {
    return null;
  }
}

/** Starts `baton serve --socket` and waits until its server.json names it and it says it serves. */
export async function startCore(
  dataDir: string,
  env: Record<string, string>,
  extraArgs: string[] = [],
): Promise<CoreProcess> {
  const child = spawn(process.execPath, [BATON_BIN, 'serve', '--socket', ...extraArgs, '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  try {
    await waitFor(
      () => output.includes('is serving') && readServerJson(dataDir)?.pid === child.pid,
      'the core to serve and write its server.json',
      20_000,
    );
  } catch (err) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw new Error(`baton serve --socket did not start (${String(err)}):\n${output}`);
  }
  const info = readServerJson(dataDir)!;
  return {
    child,
    dataDir,
    info,
    output: () => output,
    connect: () => connect({ socket: info.socket, token: info.token }),
    exited,
  };
}

/** Ends a core the way a user would (SIGTERM: every agent snapshotted and stopped), killing it if it hangs. */
export async function stopCore(core: CoreProcess): Promise<void> {
  if (core.child.exitCode !== null || core.child.signalCode !== null) return;
  core.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
  if ((await Promise.race([core.exited, timeout])) === 'timeout') {
    core.child.kill('SIGKILL');
    await core.exited;
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, [BATON_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`baton ${args.join(' ')} did not finish within 60 s:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Whether the process runs (a zombie nobody reaped has died too). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return stat !== '' && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** The inodes of every TCP socket listening on this machine (IPv4 and IPv6). */
export function listeningTcpInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && fields[9]) inodes.add(fields[9]); // 0A: LISTEN
    }
  }
  return inodes;
}

/**
 * Stops whatever core server.json of `dataDir` names (one the desktop wiring started detached, say): SIGTERM, as a
 * user would, so its agents are snapshotted and stopped; SIGKILL if it hangs.
 */
export async function stopCoreOf(dataDir: string): Promise<void> {
  const pid = readServerJson(dataDir)?.pid;
  if (!pid || !isRunning(pid)) return;
  process.kill(pid, 'SIGTERM');
  try {
    await waitFor(() => !isRunning(pid), `the core (pid ${pid}) to stop`, 15_000);
  } catch {
    process.kill(pid, 'SIGKILL');
  }
}
