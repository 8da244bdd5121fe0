// A mirror thread: headless xterms parse their terminals' output here, in parallel with the PTY reads on the main
// thread (parsing inline halved throughput: the PTY waited while xterm parsed). The core runs a few of these, each
// with its share of the terminals (mirror-thread.ts); each is on its own here.
// Plain JavaScript so it loads the same from sources, from dist/ and in Electron.
import { appendFileSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import { bufferText } from '../../../shared/buffer-text.mjs';
import { screenKeeper } from './mirror-keep.mjs';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;
const mirrors = new Map();

// A stream's resets (`soon` captures: a pane shown, its screen wanted now) come on their own port, read after every
// message and write and between a scan's reads, not behind the thread's queue. At a switch the queue holds ten panes'
// resizes (each a reflow of its history, tens of ms), full captures, writes and a /proc scan, and a reset waited
// behind all of them: hundreds of milliseconds (docs/performance.md, "Switching: where a first visit's fetch waits").
// A reset needs no order with the writes: it takes the screen at whatever offset its mirror has applied.
const resets = workerData?.resets;
/** This thread's index among the mirror threads (mirror-thread.ts): each trace line carries it. */
const thread = workerData?.index ?? 0;
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

// BATON_MIRROR_NICE=n (1–19): this thread runs at that niceness, below the core's main thread, which answers a shown
// pane's reset and forwards every pane's output (docs/performance.md, "Switch p99 under load (switch5)"). On Linux
// setpriority(0) names the calling thread alone. Not allowed (another platform, a sandbox): it stays as it was.
const nice = Number(process.env.BATON_MIRROR_NICE);
if (Number.isInteger(nice) && nice > 0 && nice < 20)
  try {
    setPriority(nice);
  } catch {
    // Left at the process's own niceness.
  }
// BATON_MIRROR_TIDS=<file>: the thread appends `<pid>/task/<tid>` there, so a bench can renice it between the blocks of
// one run (test/bench/mirror-nice.ts: a paired A/B of its niceness on the same load).
if (process.env.BATON_MIRROR_TIDS)
  try {
    appendFileSync(process.env.BATON_MIRROR_TIDS, readlinkSync('/proc/thread-self') + '\n');
  } catch {
    // Not Linux: no thread ids to give.
  }

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
// The thread's garbage collections too: with a hundred 5,000-line histories its heap holds millions of objects, and a
// full collection stops everything on it, resets included.
if (traceFile)
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 20)
        trace({ k: 'gc', start: performance.timeOrigin + e.startTime, ms: e.duration, kind: e.detail?.kind });
  }).observe({ entryTypes: ['gc'] });
function trace(entry) {
  if (!traceFile) return;
  traceLines.push(JSON.stringify({ ...entry, thread }));
  if (traceLines.length === 1)
    setTimeout(() => appendFileSync(traceFile, traceLines.splice(0).join('\n') + '\n'), 1000);
}

// Each terminal's screen kept on the core's main thread, which answers a shown pane's reset with it (mirror-keep.mjs).
const keeper = screenKeeper({
  now,
  pollResets,
  trace: traceFile ? trace : null,
  post: (m) => parentPort.postMessage(m),
});

/**
 * Stat files read per turn of the thread's loop: the messages that came meanwhile are handled between slices.
 * BATON_MIRROR_SCAN_SLICES=0 reads them all in one turn, resets taken every 16 files, as before: the bench's A/B.
 */
const SCAN_SLICE = process.env.BATON_MIRROR_SCAN_SLICES === '0' ? Infinity : 16;
/**
 * Every process's /proc/<pid>/stat line, joined by NUL (a command name may hold a newline, never a NUL): the process
 * tracker's reads, made here rather than on the core's main thread (proc-stat.ts, scanProcesses). In slices: a scan
 * took 30–550 ms at loads of 10–20, and a reset waiting for its terminal's last line waited for the whole scan, since
 * that line's write came on the thread's queue behind it (docs/performance.md, "Switch p99 (switch3)").
 */
async function statLines() {
  const lines = [];
  let names = [];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return '';
  }
  for (const [i, name] of names.entries()) {
    if (i > 0 && i % SCAN_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    else if (i % 16 === 0) pollResets();
    try {
      lines.push(readFileSync(`/proc/${name}/stat`, 'latin1'));
    } catch {
      // Gone since the listing.
    }
  }
  return lines.join('\0');
}

/**
 * The most bytes of one write parsed as its message is handled (a trickle; a flood's batches parse in xterm's timer).
 * BATON_MIRROR_SYNC_WRITES=0 parses every write in xterm's timer as before: the scale bench's A/B.
 */
const SYNC_WRITE_BYTES = process.env.BATON_MIRROR_SYNC_WRITES === '0' ? 0 : 16 * 1024;
/**
 * Parses `data` now, whole, when this xterm has nothing of its own waiting to be parsed (the caller checks: xterm's
 * synchronous path replays its buffer from the start, so a write still queued there would be parsed twice): through
 * xterm's write buffer's synchronous path, which is not public. False when an xterm upgrade no longer has it: the
 * caller then writes as before (`test/unit/mirror-resets.test.ts` fails then: a reset waits behind reflows again).
 */
function writeNow(term, data) {
  const buffer = term._core?._writeBuffer;
  if (typeof buffer?.writeSync !== 'function') return false;
  buffer.writeSync(data);
  return true;
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
    void statLines().then((lines) => {
      trace({ k: 'scan', start, ms: now() - start });
      parentPort.postMessage({ t: 'scan', request: m.request, lines });
    });
    return;
  }
  if (m.t === 'open') {
    const term = new Terminal({ cols: m.cols, rows: m.rows, scrollback: m.scrollback, allowProposedApi: true });
    const serializer = new SerializeAddon();
    term.loadAddon(serializer);
    mirrors.set(m.id, {
      id: m.id,
      term,
      serializer,
      scrollback: m.scrollback,
      applied: 0,
      queued: 0,
      parsing: 0,
      inXterm: 0,
      soon: [],
      pending: [],
      // The screen keeper's (mirror-keep.mjs): the offset of the last screen kept (-1: none yet), the last write's time.
      keptAt: -1,
      writtenAt: 0,
      // How many resizes the thread has applied: a kept screen names it, so the core can tell one taken before a
      // resize to another size and back (same size, but laid out before two reflows) from a current one.
      resizes: 0,
    });
    for (const reset of early.get(m.id) ?? []) takeReset(reset);
    early.delete(m.id);
    return;
  }
  const mirror = mirrors.get(m.id);
  if (!mirror) return;
  if (m.t === 'close') {
    early.delete(m.id);
    deferred.delete(mirror);
    keeper.closed(mirror);
    mirror.term.dispose();
    mirrors.delete(m.id);
    return;
  }
  // A resize reflows the mirror's whole history (tens of ms, hundreds under load): it waits here, and what follows it
  // for the same terminal waits behind it, so other terminals' messages (a shown pane's last line) are not held up.
  if ((m.t === 'resize' && deferResizes) || mirror.pending.length > 0 || overCap(mirror, m)) {
    mirror.pending.push(m);
    deferred.add(mirror);
    runDeferredSoon();
    return;
  }
  apply(mirror, m);
}

/**
 * Terminals with messages held behind a resize, each in its own order (across terminals, order does not matter).
 * BATON_MIRROR_DEFER_RESIZES=0 resizes as the message is handled, as before: the scale bench's A/B.
 */
const deferResizes = process.env.BATON_MIRROR_DEFER_RESIZES !== '0';

/**
 * Bytes one terminal may have waiting in xterm's write buffer. xterm refuses a write (it throws, which ended this
 * thread and every mirror on it) once 50 MB wait; the core pauses the PTY before its backlog reaches that
 * (FLOW.mirrorBacklogBytes), and writes past this cap wait here, in order, until xterm has parsed some.
 */
const XTERM_BUFFER_CAP = 32 << 20;
const overCap = (mirror, m) => m.t === 'write' && mirror.inXterm > 0 && mirror.inXterm + m.length > XTERM_BUFFER_CAP;
const deferred = new Set();
let deferredScheduled = false;
function runDeferredSoon() {
  if (deferredScheduled || deferred.size === 0) return;
  deferredScheduled = true;
  setImmediate(runDeferred);
}

/**
 * One resize a turn of the event loop, with what follows it up to the next resize, so the ports are read between
 * reflows: first of a terminal a reset waits on, else of the terminal that waited longest. A resize waits until its
 * terminal's earlier writes are parsed (they were written for the old size).
 */
function runDeferred() {
  deferredScheduled = false;
  pollResets();
  let next = null;
  for (const mirror of deferred) {
    if ((mirror.pending[0].t === 'resize' && mirror.parsing > 0) || overCap(mirror, mirror.pending[0])) continue;
    if (mirror.soon.length > 0) {
      next = mirror;
      break;
    }
    next ??= mirror;
  }
  if (next) {
    apply(next, next.pending.shift());
    while (next.pending.length > 0 && next.pending[0].t !== 'resize' && !overCap(next, next.pending[0]))
      apply(next, next.pending.shift());
    if (next.pending.length === 0) deferred.delete(next);
    pollResets();
  }
  // Terminals whose resize waits for a parse are run again from `parsed`.
  if (next) runDeferredSoon();
}

function apply(mirror, m) {
  switch (m.t) {
    case 'write': {
      mirror.queued = m.end;
      const data = new Uint8Array(m.data, 0, m.length);
      // A trickle (an agent's line, an echo) is parsed as its message is handled, in the order of the thread's
      // queue. xterm's own write parses in a timer, which runs only once the thread has handled every message queued
      // (Node hands a port's queue over whole): a reset waiting for its terminal's last line then waited behind every
      // resize and scan queued after that line, a second and more at a switch (docs/performance.md, "Switch p99").
      if (m.length <= SYNC_WRITE_BYTES && mirror.parsing === 0 && writeNow(mirror.term, data)) written(mirror, m);
      else {
        mirror.parsing++;
        mirror.inXterm += m.length;
        mirror.term.write(data, () => {
          mirror.inXterm -= m.length;
          parsed(mirror);
          written(mirror, m);
        });
      }
      break;
    }
    case 'resize': {
      const start = traceFile ? now() : 0;
      mirror.term.resize(m.cols, m.rows);
      mirror.resizes++;
      if (traceFile) trace({ k: 'resize', id: m.id, start, ms: now() - start, cols: m.cols, rows: m.rows });
      keeper.resized(mirror);
      break;
    }
    case 'capture':
      if (traceFile) m.recv = now();
      // A stream's reset need not wait for a backlog of writes (its client gets the rest from the ring): it takes
      // the screen now when nothing is being parsed, else at the next boundary between writes.
      if (m.soon && mirror.applied === mirror.queued) answer(mirror, m);
      else if (m.soon) mirror.soon.push(m);
      // Inside the write callback every earlier write is applied and no later one yet: the screen matches `applied`.
      else {
        // Counted as parsing: a write parsed at once must not overtake it (see writeNow).
        mirror.parsing++;
        mirror.term.write('', () => {
          parsed(mirror);
          answer(mirror, m);
        });
      }
      break;
  }
}

/** One of the mirror's writes left xterm's buffer: a resize held for it may go. */
function parsed(mirror) {
  mirror.parsing--;
  if (mirror.pending.length > 0 && (mirror.parsing === 0 || !overCap(mirror, mirror.pending[0]))) runDeferredSoon();
}

/** A write's bytes are on its mirror's screen: the core hears it, and captures waiting for them are answered. */
function written(mirror, m) {
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
  keeper.written(mirror);
  pollResets();
}

function answer(mirror, m) {
  keeper.asked(m);
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
