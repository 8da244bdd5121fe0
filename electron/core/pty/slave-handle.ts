// Baton's own handle on a PTY's slave side, held from spawn until the exit.
import { closeSync, constants, openSync } from 'node:fs';
import type pty from 'node-pty';
import { toDisposable, type Disposable } from '../lifecycle.js';

/**
 * When the last slave handle closes, Linux hangs the PTY up and may drop output the child wrote just before it
 * exited; with ours open, node-pty reads it all before it reports the exit (it waits for its socket to close).
 * Disposing closes it (once); where the slave's path cannot be read there is nothing to hold.
 */
export function holdSlave(term: pty.IPty): Disposable {
  const path = (term as unknown as { _pty?: unknown })._pty;
  if (typeof path !== 'string' || !path.startsWith('/dev/')) return toDisposable(() => {});
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return toDisposable(() => {});
  }
  return toDisposable(() => closeSync(fd));
}
