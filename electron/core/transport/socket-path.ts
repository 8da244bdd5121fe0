// Where the background core listens, and the checks on both ends (docs/architecture.md §10). POSIX: a Unix socket,
// `<dataDir>/core.sock` by default, mode 0600 inside the 0700 data directory, so only its owner can connect. Windows: a
// named pipe, `\\.\pipe\baton-<user>-<hash of the data directory>` (pipes live in their own namespace, not on disk).
// A socket file is never followed when it is a link, never removed while a core answers on it, and never trusted by
// a client when it is someone else's or others may use it.
import { createHash } from 'node:crypto';
import { lstatSync, unlinkSync, type Stats } from 'node:fs';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { checkDataDir, DataDirError } from '../store/data-dir.js';

export const SOCKET_FILE = 'core.sock';
/** sun_path is 104 bytes on macOS and the BSDs (108 on Linux), its terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

export function isPipePath(path: string): boolean {
  return path.startsWith('\\\\.\\pipe\\') || path.startsWith('\\\\?\\pipe\\');
}

/** The core's default address for `dataDir`. Untested on Windows: there is no Windows machine here. */
export function defaultSocketPath(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
  user = currentUser(),
): string {
  if (platform !== 'win32') return join(dataDir, SOCKET_FILE);
  const hash = createHash('sha256').update(dataDir.toLowerCase()).digest('hex').slice(0, 16);
  const safeUser = user.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'user';
  return `\\\\.\\pipe\\baton-${safeUser}-${hash}`;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USERNAME ?? process.env.USER ?? 'user';
  }
}

/**
 * Makes `path` free for a new core: nothing there, or a stale socket file (no core answers on it), which is removed.
 * Refuses a link, anything but a socket, someone else's socket, a live core, and a directory others can write.
 */
export async function claimSocketPath(path: string): Promise<void> {
  if (isPipePath(path)) {
    if (await answers(path)) throw new DataDirError(`a Baton core is already running on ${path}`);
    return;
  }
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new DataDirError(
      `the socket path ${path} is too long for a Unix socket (at most ${MAX_SOCKET_PATH_BYTES} bytes): give a shorter one with --socket PATH`,
    );
  }
  // The directory decides who can reach the socket while it is being created: it must be the user's alone.
  checkDataDir(dirname(path));
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new DataDirError(`cannot use the socket path ${path}: ${(err as Error).message}`);
  }
  if (info.isSymbolicLink())
    throw new DataDirError(`the socket path ${path} is a symbolic link: remove it, then start the core again`);
  if (!info.isSocket()) throw new DataDirError(`${path} is not a socket: move it away, then start the core again`);
  const owner = ownerProblem(info);
  if (owner) throw new DataDirError(`the socket ${path} ${owner}`);
  if (await answers(path))
    throw new DataDirError(`a Baton core is already running on ${path}: use it (baton ls), or stop it first`);
  unlinkSync(path); // A core that was killed left it: nothing answers there.
}

/** Throws unless `path` is a socket of this user that no one else may use (a client checks before it connects). */
export function checkCoreSocket(path: string): void {
  if (isPipePath(path)) return;
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch {
    throw new DataDirError(`the core's socket ${path} is gone: the core is not running`);
  }
  if (info.isSymbolicLink())
    throw new DataDirError(
      `the core's socket ${path} is a symbolic link: refusing it; remove it and start the core again`,
    );
  if (!info.isSocket())
    throw new DataDirError(`${path} is not a socket: refusing it; remove it and start the core again`);
  const owner = ownerProblem(info);
  if (owner) throw new DataDirError(`the core's socket ${path} ${owner}: refusing it`);
  if (typeof process.getuid === 'function' && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    throw new DataDirError(
      `the core's socket ${path} may be used by other users (mode ${mode}, expected 0600): refusing it; stop that core`,
    );
  }
}

function ownerProblem(info: Stats): string | null {
  if (typeof process.getuid !== 'function') return null;
  const uid = process.getuid();
  return info.uid === uid ? null : `is owned by another user (uid ${info.uid}; Baton runs as uid ${uid})`;
}

/** Whether something accepts a connection on the socket or pipe within `timeoutMs`. */
export function answers(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    // A core too busy to accept within the timeout still holds the socket: treat it as alive, never remove it.
    const timer = setTimeout(() => done(true), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED' && err.code !== 'ENOENT'));
  });
}
