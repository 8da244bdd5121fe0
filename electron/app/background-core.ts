// Finding, or else starting, the background core of the data directory (docs/desktop.md). At launch main connects to
// the core that server.json names, if it answers on its socket; otherwise it starts one with the app's own runtime
// (`ELECTRON_RUN_AS_NODE=1` turns the Electron binary into Node), detached in its own session so that it outlives the
// app, with its output in `<dataDir>/core.log`.
import type { SpawnOptions } from 'node:child_process';
import { closeSync, constants, lstatSync, openSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError, type CoreInfo } from '../../shared/contract.js';
import { RpcClient } from '../../shared/client.js';
import { openCoreSocket, prepareDataDir, readServerInfo, whenOpen, wsWire, type CoreAddress } from '../core/public.js';

/** What main needs of a spawned process: the core is detached and unref'd, so only its early exit matters. */
export interface CoreChild {
  readonly pid?: number | undefined;
  unref(): void;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
}
export type SpawnCore = (command: string, args: readonly string[], options: SpawnOptions) => CoreChild;

export interface CoreConnection {
  address: CoreAddress;
  /** Main's own client: events only (notifications, the live count); it never attaches to a terminal. */
  client: RpcClient;
  /** Null for a core too old to answer `core.info` (protocol 1). */
  info: CoreInfo | null;
  /** This launch started it. */
  started: boolean;
}

export interface LaunchOptions {
  dataDir: string;
  /** bin/baton.js of this app (inside app.asar once packaged). */
  script: string;
  /** The app's own binary (Electron), run as Node. */
  execPath: string;
  env: NodeJS.ProcessEnv;
  spawn: SpawnCore;
  startTimeoutMs?: number;
}

export const CORE_LOG = 'core.log';
/** A log over this is moved to core.log.1 (replacing the one before) when a core starts. */
const MAX_LOG_BYTES = 4 * 1024 * 1024;

/** The live core server.json names, connected; null when there is none or it does not answer. */
export async function connectToCore(dataDir: string, timeoutMs = 2000): Promise<CoreConnection | null> {
  // Throws when server.json is not safe to trust (a link, someone else's): that is for the user to see, not to ignore.
  const read = readServerInfo(dataDir);
  if (!read.ok) return null;
  const { info } = read;
  const address: CoreAddress =
    'socket' in info ? { socket: info.socket, token: info.token } : { url: info.url, token: info.token };
  if ('socket' in address && !socketExists(address.socket)) return null; // A clean stop removed it; a kill leaves it.
  let client: RpcClient;
  try {
    // openCoreSocket refuses a socket that is a link, someone else's, or usable by others: that throws, on purpose.
    const ws = await withTimeout(whenOpen(openCoreSocket(address), address.token), timeoutMs);
    client = new RpcClient(wsWire(ws));
  } catch (err) {
    if (err instanceof Error && err.name === 'DataDirError') throw err;
    return null; // Nothing answers: a core that was killed.
  }
  try {
    return { address, client, info: await withTimeout(client.call('core.info', {}), timeoutMs), started: false };
  } catch (err) {
    // "unknown method": a core from before the protocol handshake. It is live; the window says it is older.
    if (err instanceof BatonError && err.code === 'invalid') return { address, client, info: null, started: false };
    client.close();
    return null;
  }
}

/** The running core, or a new one started for this data directory and waited for. */
export async function ensureCore(options: LaunchOptions): Promise<CoreConnection> {
  const found = await connectToCore(options.dataDir);
  if (found) return found;
  prepareDataDir(options.dataDir);
  const log = openCoreLog(options.dataDir);
  let child: CoreChild;
  try {
    child = options.spawn(options.execPath, [options.script, 'serve', '--socket', '--data-dir', options.dataDir], {
      detached: true,
      windowsHide: true,
      stdio: ['ignore', log ?? 'ignore', log ?? 'ignore'],
      env: { ...options.env, ELECTRON_RUN_AS_NODE: '1' },
    });
  } finally {
    if (log !== null) closeSync(log); // The core holds its own copy.
  }
  child.unref();
  let ended: string | null = null;
  child.once('exit', (code, signal) => (ended = `it exited (${signal ?? `code ${code}`})`));
  child.once('error', (err) => (ended = `it could not be started (${err.message})`));
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const started = await connectToCore(options.dataDir, 1000);
    if (started) return { ...started, started: true };
    if (ended !== null || Date.now() > deadline) {
      const why = ended ?? `it did not answer within ${Math.round((options.startTimeoutMs ?? 20_000) / 1000)} s`;
      const last = lastLogLine(options.dataDir);
      throw new Error(
        `the Baton core did not start: ${why}${last ? `: ${last}` : ''} (its log: ${join(options.dataDir, CORE_LOG)})`,
      );
    }
  }
}

function socketExists(path: string): boolean {
  if (path.startsWith('\\\\')) return true; // A pipe: only a connection can tell.
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** core.log for appending (rotated when large), never through a link; null (no log) when it cannot be one. */
export function openCoreLog(dataDir: string): number | null {
  const path = join(dataDir, CORE_LOG);
  try {
    const info = lstatSync(path);
    if (!info.isFile()) {
      process.stderr.write(`baton: not logging the core to ${path}: it is not a regular file\n`);
      return null;
    }
    if (info.size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  try {
    return openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
  } catch (err) {
    process.stderr.write(`baton: not logging the core to ${path}: ${(err as Error).message}\n`);
    return null;
  }
}

/** The core's last words, for the message when it did not start (its log never holds a token or a handle). */
function lastLogLine(dataDir: string): string {
  let fd: number;
  try {
    fd = openSync(join(dataDir, CORE_LOG), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return '';
  }
  try {
    const buf = Buffer.alloc(4096);
    const size = lstatSync(join(dataDir, CORE_LOG)).size;
    const n = readSync(fd, buf, 0, buf.length, Math.max(0, size - buf.length));
    const lines = buf
      .toString('utf8', 0, n)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return (lines.at(-1) ?? '').replace(/^baton: /, '').slice(0, 300);
  } finally {
    closeSync(fd);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
