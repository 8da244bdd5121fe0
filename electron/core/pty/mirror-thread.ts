// The one worker thread every terminal's mirror lives on (mirror-worker.mjs): started on first use, shared by every
// mirror, and the /proc scans of the process tracker. Each mirror (mirror.ts) registers here to get its messages.
import { appendFileSync } from 'node:fs';
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
  | { t: 'free'; data: ArrayBuffer }
  | { t: 'scan'; request: number; lines: string };

/** What the thread's messages for one mirror go to. */
export interface MirrorEndpoint {
  fromWorker(m: Exclude<FromWorker, { t: 'free' } | { t: 'scan' }>): void;
  /** The thread died: no answer will come for what was asked. */
  workerLost(): void;
}

// The thread and its two listeners are the process's, shared by every mirror and unref'd: they are not any one
// terminal's to release. What each mirror holds (its entry in `live`, its pending captures, its flush) is.
let worker: Worker | null = null;
const live = new Map<number, MirrorEndpoint>();
let nextId = 1;
let resetPort: MessagePort | null = null;
/** BATON_MIRROR_RESET_PORT=0 sends resets behind the writes as before: the scale bench's A/B. */
const resetsByOwnPort = process.env.BATON_MIRROR_RESET_PORT !== '0';

/** BATON_MIRROR_TRACE=<file>: the thread logs each capture's times there; the core adds when it got the answer. */
export const traceCaptures = process.env.BATON_MIRROR_TRACE;
export function traceAnswered(request: number): void {
  const line = JSON.stringify({ k: 'answered', request, at: performance.timeOrigin + performance.now() });
  if (traceCaptures) appendFileSync(traceCaptures, line + '\n');
}

/** Mirrors not yet disposed, each an xterm on the thread: tests check that closing terminals gives them all back. */
export const liveMirrorCount = (): number => live.size;

/** A new mirror's id on the thread; its messages go to `endpoint` until `closeMirror`. */
export function registerMirror(endpoint: MirrorEndpoint): number {
  const id = nextId++;
  live.set(id, endpoint);
  return id;
}

/** Frees the mirror's xterm on the thread (if it still runs); its messages are no longer delivered. */
export function closeMirror(id: number): void {
  live.delete(id);
  worker?.postMessage({ t: 'close', id });
}

/** The port a stream's reset goes by, read by the thread between writes; null: behind the writes. */
export const resetPortOf = (): MessagePort | null => (mirrorWorker(), resetPort);

export function mirrorWorker(): Worker {
  if (worker) return worker;
  // Resets go by their own port, which the thread reads between writes (mirror-worker.mjs, pollResets).
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const w = new Worker(new URL('./mirror-worker.mjs', import.meta.url), {
    workerData: { resets: resetsByOwnPort ? port2 : undefined },
    transferList: resetsByOwnPort ? [port2] : [],
  });
  w.unref();
  resetPort = resetsByOwnPort ? port1 : null;
  w.on('message', (m: FromWorker) =>
    m.t === 'free' ? recycle(m.data) : m.t === 'scan' ? scanAnswered(w, m) : live.get(m.id)?.fromWorker(m),
  );
  w.on('error', (err) => {
    process.stderr.write(`baton: the terminal mirror thread failed: ${err.message}\n`);
    worker = null;
    resetPort = null;
    for (const answer of scans.values()) answer(null);
    scans.clear();
    for (const mirror of live.values()) mirror.workerLost();
  });
  worker = w;
  return w;
}

/** /proc scans waiting for the thread's answer (proc-stat.ts, scanProcesses), by request. */
const scans = new Map<number, (lines: string[] | null) => void>();
let nextScan = 1;

/**
 * Every process's /proc/<pid>/stat line, read on the mirrors' thread when it runs (it does while any terminal exists,
 * which is when the process tracker scans); null when it does not, and the caller reads them itself. The thread is
 * kept from being unref'd while a scan waits on it, so a scan's caller is never left waiting by an exiting process.
 */
export function readStatLinesOnMirrorThread(): Promise<string[] | null> {
  const w = worker;
  if (!w) return Promise.resolve(null);
  const request = nextScan++;
  return new Promise((resolve) => {
    scans.set(request, resolve);
    w.ref();
    w.postMessage({ t: 'scan', request });
  });
}

function scanAnswered(w: Worker, m: { request: number; lines: string }): void {
  const answer = scans.get(m.request);
  scans.delete(m.request);
  if (scans.size === 0) w.unref();
  answer?.(m.lines.length === 0 ? [] : m.lines.split('\0'));
}

/**
 * Output is copied into batches of this size as it arrives (one copy, into memory that then moves to the thread), and
 * a batch is posted whole: a message per PTY read cost the core as much as sending the bytes to the pane.
 */
export const BATCH_BYTES = 256 * 1024;
/** Batches the thread has parsed and given back, to be filled again (at most `POOL_BATCHES`: 4 MiB). */
const pool: ArrayBuffer[] = [];
const POOL_BATCHES = 16;

function recycle(data: ArrayBuffer): void {
  if (data.byteLength === BATCH_BYTES && pool.length < POOL_BATCHES) pool.push(data);
}

/** An empty batch of `BATCH_BYTES`, given back by the thread when one is. */
export const takeBatch = (): ArrayBuffer => pool.pop() ?? new ArrayBuffer(BATCH_BYTES);
