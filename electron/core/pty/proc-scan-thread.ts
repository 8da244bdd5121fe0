// The stat lines of every process, read on a thread of their own. A /proc scan runs every second while a terminal
// prints (the process tracker, tracking-schedule.ts): on the main thread its reads took ~3 ms a pass on an idle
// machine and ~25 ms on a loaded one, in slices, each one a wait for a keystroke's echo arriving meanwhile
// (docs/performance.md, "Echo of one core"). Here the main thread only parses the lines.
//
// The thread's code is inline (no module file): it runs the same from the sources and from the build. It is started at
// the first scan and kept, unref'd while no scan waits on it; if it fails, scans fall back to the main thread.
import { Worker } from 'node:worker_threads';

/** Reads /proc/<pid>/stat of every pid; the lines are joined by NUL (a command name may hold a newline, never a NUL). */
const THREAD_CODE = `
const { parentPort } = require('node:worker_threads');
const { readdirSync, readFileSync } = require('node:fs');
parentPort.on('message', (id) => {
  const lines = [];
  let names = [];
  try { names = readdirSync('/proc'); } catch {}
  for (const name of names) {
    if (!/^\\d+$/.test(name)) continue;
    try { lines.push(readFileSync('/proc/' + name + '/stat', 'latin1')); } catch {}
  }
  parentPort.postMessage({ id, lines: lines.join('\\0') });
});
`;

let thread: Worker | null = null;
/** The thread failed once: scans stay on the main thread from then on. */
let unavailable = false;
let nextId = 1;
const waiting = new Map<number, { resolve(lines: string[] | null): void }>();

function scanThread(): Worker | null {
  if (thread || unavailable) return thread;
  try {
    const w = new Worker(THREAD_CODE, { eval: true });
    w.unref();
    w.on('message', (m: { id: number; lines: string }) => {
      const pending = waiting.get(m.id);
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
      pending?.resolve(m.lines.length === 0 ? [] : m.lines.split('\0'));
    });
    const fail = () => {
      if (thread !== w) return;
      thread = null;
      unavailable = true;
      for (const pending of waiting.values()) pending.resolve(null);
      waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', fail);
    thread = w;
  } catch {
    unavailable = true;
  }
  return thread;
}

/**
 * Every process's /proc/<pid>/stat line, read off the main thread; null when the thread is not available (the caller
 * then reads them itself). A scan waited on keeps the process alive until it is answered.
 */
export function readStatLinesOffThread(): Promise<string[] | null> {
  const w = scanThread();
  if (!w) return Promise.resolve(null);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, { resolve });
    w.ref();
    w.postMessage(id);
  });
}
