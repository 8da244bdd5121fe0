// The mirrors' own thread: headless xterms parse every terminal's output here, in parallel with the PTY reads
// on the main thread (parsing inline halved throughput: the PTY waited while xterm parsed).
// Plain JavaScript so it loads the same from sources, from dist/ and in Electron.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import { bufferText } from '../../../shared/buffer-text.mjs';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;
const mirrors = new Map();

// A stream's resets (`soon` captures: a pane shown, its screen wanted now) come on their own port, read after every
// message and write and between a scan's reads, not behind the thread's queue. At a switch the queue holds ten panes'
// resizes (each a reflow of its history, tens of ms), full captures, writes and a /proc scan, and a reset waited
// behind all of them: hundreds of milliseconds (docs/performance.md, "Switching: where a first visit's fetch waits").
// A reset needs no order with the writes: it takes the screen at whatever offset its mirror has applied.
const resets = workerData?.resets;
/** Resets for a mirror whose `open` has not arrived yet (they came by the faster port), by mirror id. */
const early = new Map();
function takeReset(m) {
  if (traceFile) m.recv = now();
  const mirror = mirrors.get(m.id);
  // Any mirror but the one whose write callback is running is between two writes whenever this runs (xterm parses a
  // write whole, then calls its callback): its screen matches `applied`. The reset waits only until the first write
  // posted before it is applied (`after`, what an ordered message found in progress), not behind the thread's queue.
  if (mirror && mirror.applied >= m.after) answer(mirror, m);
  else if (mirror) mirror.soon.push(m);
  else early.set(m.id, [...(early.get(m.id) ?? []), m]);
}
/** Answers the resets waiting on their port; called wherever the thread is between two pieces of work. */
function pollResets() {
  if (!resets) return;
  for (let r = receiveMessageOnPort(resets); r; r = receiveMessageOnPort(resets)) takeReset(r.message);
}
resets?.on('message', takeReset);

// BATON_MIRROR_TRACE=<file>: one JSON line per capture, write, resize, /proc scan and stall of this thread's loop, with
// their times (epoch ms), to see where a first visit's reset waits (docs/performance.md, "Switching: where a first visit's fetch waits").
const traceFile = process.env.BATON_MIRROR_TRACE;
const traceLines = [];
const now = () => performance.timeOrigin + performance.now();
if (traceFile) {
  let last = now();
  setInterval(() => {
    const at = now();
    if (at - last > 60) trace({ k: 'gap', start: last, ms: at - last });
    last = at;
  }, 20).unref();
}
function trace(entry) {
  if (!traceFile) return;
  traceLines.push(JSON.stringify(entry));
  if (traceLines.length === 1)
    setTimeout(() => appendFileSync(traceFile, traceLines.splice(0).join('\n') + '\n'), 1000);
}

/**
 * Every process's /proc/<pid>/stat line, joined by NUL (a command name may hold a newline, never a NUL): the process
 * tracker's reads, made here rather than on the core's main thread (proc-stat.ts, scanProcesses).
 */
function statLines() {
  const lines = [];
  let names = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return '';
  }
  for (const [i, name] of names.entries()) {
    if (!/^\d+$/.test(name)) continue;
    if (i % 16 === 0) pollResets();
    try {
      lines.push(readFileSync(`/proc/${name}/stat`, 'latin1'));
    } catch {
      // Gone since the listing.
    }
  }
  return lines.join('\0');
}

parentPort.on('message', (m) => {
  handle(m);
  // The thread's messages come in batches (a switch resizes ten panes, each a reflow of its history: tens of ms):
  // a reset waits for one of them, not for the batch.
  pollResets();
});

function handle(m) {
  if (m.t === 'scan') {
    const start = now();
    const lines = statLines();
    trace({ k: 'scan', start, ms: now() - start });
    parentPort.postMessage({ t: 'scan', request: m.request, lines });
    return;
  }
  if (m.t === 'open') {
    const term = new Terminal({ cols: m.cols, rows: m.rows, scrollback: m.scrollback, allowProposedApi: true });
    const serializer = new SerializeAddon();
    term.loadAddon(serializer);
    mirrors.set(m.id, { term, serializer, scrollback: m.scrollback, applied: 0, queued: 0, soon: [] });
    for (const reset of early.get(m.id) ?? []) takeReset(reset);
    early.delete(m.id);
    return;
  }
  const mirror = mirrors.get(m.id);
  if (!mirror) return;
  switch (m.t) {
    case 'write':
      mirror.queued = m.end;
      mirror.term.write(new Uint8Array(m.data, 0, m.length), () => {
        if (traceFile) trace({ k: 'w', id: m.id, at: now(), bytes: m.length });
        mirror.applied = m.end;
        parentPort.postMessage({ t: 'applied', id: m.id, end: m.end });
        // The batch's memory goes back to be filled again (fresh memory cost the core page faults for every byte).
        // Not before xterm's write loop has finished with it: it reads the length once this callback has returned.
        if (m.reuse) queueMicrotask(() => parentPort.postMessage({ t: 'free', data: m.data }, [m.data]));
        // Captures that take the next boundary between writes: the screen matches `applied` here too.
        const ready = mirror.soon.filter((c) => !(c.after > mirror.applied));
        mirror.soon = mirror.soon.filter((c) => c.after > mirror.applied);
        for (const capture of ready) answer(mirror, capture);
        pollResets();
      });
      break;
    case 'resize': {
      const start = traceFile ? now() : 0;
      mirror.term.resize(m.cols, m.rows);
      if (traceFile) trace({ k: 'resize', id: m.id, start, ms: now() - start, cols: m.cols, rows: m.rows });
      break;
    }
    case 'capture':
      if (traceFile) m.recv = now();
      // A stream's reset need not wait for a backlog of writes (its client gets the rest from the ring): it takes
      // the screen now when nothing is being parsed, else at the next boundary between writes.
      if (m.soon && mirror.applied === mirror.queued) answer(mirror, m);
      else if (m.soon) mirror.soon.push(m);
      // Inside the write callback every earlier write is applied and no later one yet: the screen matches `applied`.
      else mirror.term.write('', () => answer(mirror, m));
      break;
    case 'close':
      early.delete(m.id);
      mirror.term.dispose();
      mirrors.delete(m.id);
      break;
  }
}

function answer(mirror, m) {
  const start = traceFile ? now() : 0;
  const screen = {
    cols: mirror.term.cols,
    rows: mirror.term.rows,
    offset: mirror.applied,
    // A bounded catch-up (a first visit) takes the screen and only the newest `m.scrollback` lines above it.
    serialized: mirror.serializer.serialize({
      scrollback: Math.min(m.scrollback ?? mirror.scrollback, mirror.scrollback),
    }),
    // A reset asks for no text (0): reading it cost more than the rest of a first visit's catch-up.
    text: m.textLines === 0 ? '' : bufferText(mirror.term.buffer.active, m.textLines),
  };
  if (traceFile) {
    const end = now();
    trace({
      k: 'capture',
      id: m.id,
      request: m.request,
      soon: m.soon,
      posted: m.at,
      recv: m.recv,
      start,
      end,
      chars: screen.serialized.length,
    });
  }
  parentPort.postMessage({ t: 'screen', id: m.id, request: m.request, screen });
}
