// The worker threads every terminal's mirror lives on (mirror-worker.mjs), and the /proc scans of the process tracker.
// The mirrors are spread over a few threads, each with its own heap, queue and reset port: a hundred 5,000-line
// histories on one thread made its garbage collections and reflows the wait of every shown pane's reset
// (docs/performance.md, "Mirror threads"). A mirror stays on its thread for life; mirror.ts is one terminal's handle.
import { appendFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

export interface MirrorScreen {
  cols: number;
  rows: number;
  /** The offset of the first byte the mirror has not yet applied. */
  offset: number;
  serialized: string;
  text: string;
}

export type FromWorker =
  | { t: 'applied'; id: number; end: number }
  | { t: 'screen'; id: number; request: number; screen: MirrorScreen }
  /** A screen taken of the thread's own accord, with `lines` of history: a shown pane's next reset (mirror.ts). */
  | { t: 'kept'; id: number; lines: number; resizes: number; screen: MirrorScreen }
  | { t: 'free'; data: ArrayBuffer }
  | { t: 'scan'; request: number; lines: string };

/** What the thread's messages for one mirror go to. */
export interface MirrorEndpoint {
  fromWorker(m: Exclude<FromWorker, { t: 'free' } | { t: 'scan' }>): void;
  /** Its thread died: no answer will come for what was asked. */
  workerLost(): void;
}

/**
 * How many threads the mirrors are spread over: BATON_MIRROR_THREADS=n (1: one shared thread), else one on a machine of
 * fewer than four cores and two from four. On two cores, paired scale-bench runs found no gain beyond their noise and
 * some idle CPU: a reset waits for a scavenge or a reflow under way, which a smaller heap does not shorten, and two
 * threads take turns on the cores the core and the page need (docs/performance.md, "Mirror threads (mirror2)").
 */
export function mirrorThreadCount(env: string | undefined = process.env.BATON_MIRROR_THREADS): number {
  const asked = Number(env);
  if (Number.isInteger(asked) && asked >= 1) return Math.min(asked, 16);
  return availableParallelism() >= 4 ? 2 : 1;
}

/** One mirror thread: started when it is given its first mirror, and kept (unref'd) for the process's life. */
interface MirrorThread {
  readonly index: number;
  worker: Worker | null;
  resetPort: MessagePort | null;
  /** Its mirrors not yet closed (new mirrors go to the thread with the fewest). */
  mirrors: number;
}

// The threads and their listeners are the process's, shared by the mirrors and unref'd: they are not any one
// terminal's to release. What each mirror holds (its entry in `live`, its pending captures, its flush) is.
const threads: MirrorThread[] = Array.from({ length: mirrorThreadCount() }, (_, index) => ({
  index,
  worker: null,
  resetPort: null,
  mirrors: 0,
}));
const live = new Map<number, { endpoint: MirrorEndpoint; thread: MirrorThread }>();
let nextId = 1;
/** BATON_MIRROR_RESET_PORT=0 sends resets behind the writes as before: the scale bench's A/B. */
const resetsByOwnPort = process.env.BATON_MIRROR_RESET_PORT !== '0';

/** BATON_MIRROR_TRACE=<file>: each thread logs each capture's times there; the core adds when it got the answer. */
export const traceCaptures = process.env.BATON_MIRROR_TRACE;
export function traceAnswered(request: number): void {
  const line = JSON.stringify({ k: 'answered', request, at: performance.timeOrigin + performance.now() });
  if (traceCaptures) appendFileSync(traceCaptures, line + '\n');
}

/**
 * A reset answered on the core's main thread with a kept screen at `offset`, `queued` bytes having come; or `miss`: why
 * it went to the thread instead (mirror.ts, keptFor).
 */
export function traceKeptReset(id: number, miss: string | null, offset: number, queued: number): void {
  const at = performance.timeOrigin + performance.now();
  const line = JSON.stringify(miss ? { k: 'kept-miss', id, miss, at } : { k: 'kept-reset', id, offset, queued, at });
  if (traceCaptures) appendFileSync(traceCaptures, line + '\n');
}

/** Mirrors not yet disposed, each an xterm on a thread: tests check that closing terminals gives them all back. */
export const liveMirrorCount = (): number => live.size;

/** A new mirror's id and thread (the one with the fewest mirrors); its messages go to `endpoint` until closed. */
export function registerMirror(endpoint: MirrorEndpoint): { id: number; thread: number } {
  const id = nextId++;
  const thread = threads.reduce((least, t) => (t.mirrors < least.mirrors ? t : least));
  thread.mirrors++;
  live.set(id, { endpoint, thread });
  return { id, thread: thread.index };
}

/** Frees the mirror's xterm on its thread (if it still runs); its messages are no longer delivered. */
export function closeMirror(id: number): void {
  const entry = live.get(id);
  if (!entry) return;
  live.delete(id);
  entry.thread.mirrors--;
  entry.thread.worker?.postMessage({ t: 'close', id });
}

/** The port a stream's reset goes by on thread `index`, read by it between writes; null: behind the writes. */
export const resetPortOf = (index: number): MessagePort | null => (mirrorWorker(index), threads[index]!.resetPort);

/** Thread `index`, started if it is not running (the first time, or after it died). */
export function mirrorWorker(index: number): Worker {
  const thread = threads[index]!;
  if (thread.worker) return thread.worker;
  // Resets go by their own port, which the thread reads between writes (mirror-worker.mjs, pollResets).
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const w = new Worker(new URL('./mirror-worker.mjs', import.meta.url), {
    workerData: { resets: resetsByOwnPort ? port2 : undefined, index },
    transferList: resetsByOwnPort ? [port2] : [],
  });
  w.unref();
  thread.worker = w;
  thread.resetPort = resetsByOwnPort ? port1 : null;
  w.on('message', (m: FromWorker) =>
    m.t === 'free' ? recycle(m.data) : m.t === 'scan' ? scanAnswered(w, m) : live.get(m.id)?.endpoint.fromWorker(m),
  );
  w.on('error', (err) => process.stderr.write(`baton: terminal mirror thread ${index} failed: ${err.message}\n`));
  // Ended without being asked to (an error, or terminated): only this thread's mirrors are lost.
  w.on('exit', () => lost(thread, w));
  return w;
}

function lost(thread: MirrorThread, w: Worker): void {
  if (thread.worker !== w) return;
  thread.worker = null;
  thread.resetPort = null;
  for (const [request, scan] of scans) {
    if (scan.worker !== w) continue;
    scans.delete(request);
    scan.answer(null);
  }
  for (const entry of live.values()) if (entry.thread === thread) entry.endpoint.workerLost();
}

/** /proc scans waiting for a thread's answer (proc-stat.ts, scanProcesses), by request. */
const scans = new Map<number, { worker: Worker; answer: (lines: string[] | null) => void }>();
let nextScan = 1;

/**
 * Every process's /proc/<pid>/stat line, read on the first mirror thread that runs (one does while any terminal
 * exists, which is when the process tracker scans); null when none does, and the caller reads them itself. The thread
 * is kept from being unref'd while a scan waits on it, so a scan's caller is never left waiting by an exiting process.
 */
export function readStatLinesOnMirrorThread(): Promise<string[] | null> {
  const w = threads.find((t) => t.worker)?.worker;
  if (!w) return Promise.resolve(null);
  const request = nextScan++;
  return new Promise((answer) => {
    scans.set(request, { worker: w, answer });
    w.ref();
    w.postMessage({ t: 'scan', request });
  });
}

function scanAnswered(w: Worker, m: { request: number; lines: string }): void {
  const scan = scans.get(m.request);
  scans.delete(m.request);
  if (![...scans.values()].some((s) => s.worker === w)) w.unref();
  scan?.answer(m.lines.length === 0 ? [] : m.lines.split('\0'));
}

/** @internal Tests: ends thread `index` as a crash would (its mirrors are lost, the others' go on). */
export async function endMirrorThreadForTest(index: number): Promise<void> {
  await threads[index]?.worker?.terminate();
}

/**
 * Output is copied into batches of this size as it arrives (one copy, into memory that then moves to the thread), and
 * a batch is posted whole: a message per PTY read cost the core as much as sending the bytes to the pane.
 */
export const BATCH_BYTES = 256 * 1024;
/** Batches the threads have parsed and given back, to be filled again (at most `POOL_BATCHES`: 4 MiB). */
const pool: ArrayBuffer[] = [];
const POOL_BATCHES = 16;

function recycle(data: ArrayBuffer): void {
  if (data.byteLength === BATCH_BYTES && pool.length < POOL_BATCHES) pool.push(data);
}

/** An empty batch of `BATCH_BYTES`, given back by a thread when one is. */
export const takeBatch = (): ArrayBuffer => pool.pop() ?? new ArrayBuffer(BATCH_BYTES);
