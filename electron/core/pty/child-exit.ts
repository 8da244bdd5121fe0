// Hears at once that one of this process's children ended (SIGCHLD), so a terminal can tell whether it was its leader.
// node-pty reports a child's exit only when the PTY's socket closes, and with Baton's own handle on the slave side open
// (slave-handle.ts) it never closes by itself: node-pty waited out its 200 ms fallback after every exit, and every agent's
// exit (and every burst's end, in the throughput bench) was reported that much late (docs/performance.md, "Bursts").

import { toDisposable, type Disposable } from '../lifecycle.js';

const listeners = new Set<() => void>();
const heard = (): void => {
  for (const listener of [...listeners]) listener();
};

/**
 * Calls `listener` whenever a child of this process ends (any child: the listener checks its own). Linux only, where a
 * leader's end can be read from /proc (proc-stat.ts); elsewhere node-pty's own report of the exit stands.
 */
export function onChildEnded(listener: () => void): Disposable {
  if (process.platform !== 'linux') return toDisposable(() => {});
  if (listeners.size === 0) process.on('SIGCHLD', heard);
  listeners.add(listener);
  return toDisposable(() => {
    listeners.delete(listener);
    if (listeners.size === 0) process.off('SIGCHLD', heard);
  });
}
