// A headless xterm per terminal, fed the same bytes as the pane: the source of screens and of reattach resets.
// The xterms live on one worker thread shared by every terminal (mirror-worker.mjs); this is their handle.
import { Worker } from 'node:worker_threads';
import { toDisposable, type Disposable } from '../lifecycle.js';

export interface MirrorScreen {
  cols: number;
  rows: number;
  /** The offset of the first byte the mirror has not yet applied. */
  offset: number;
  serialized: string;
  text: string;
}

type FromWorker =
  { t: 'applied'; id: number; end: number } | { t: 'screen'; id: number; request: number; screen: MirrorScreen };

// The thread and its two listeners are the process's, shared by every mirror and unref'd: they are not any one
// terminal's to release. What each mirror holds (its entry in `live`, its pending captures, its flush) is.
let worker: Worker | null = null;
const live = new Map<number, Mirror>();
let nextId = 1;
let nextRequest = 1;

/** Mirrors not yet disposed, each an xterm on the thread: tests check that closing terminals gives them all back. */
export const liveMirrorCount = (): number => live.size;

function mirrorWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./mirror-worker.mjs', import.meta.url));
  w.unref();
  w.on('message', (m: FromWorker) => live.get(m.id)?.fromWorker(m));
  w.on('error', (err) => {
    process.stderr.write(`baton: the terminal mirror thread failed: ${err.message}\n`);
    worker = null;
    for (const mirror of live.values()) mirror.workerLost();
  });
  worker = w;
  return w;
}

/** Output gathered before it is posted to the mirror thread (see `write`). */
const MIRROR_BATCH_BYTES = 256 * 1024;
const MIRROR_BATCH_MS = 4;

interface PendingCapture {
  resolve(screen: MirrorScreen): void;
  reject(err: Error): void;
}

export class Mirror implements Disposable {
  private readonly id = nextId++;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private queued = 0;
  private applied = 0;
  private readonly captures = new Map<number, PendingCapture>();
  private appliedListener: (() => void) | null = null;
  private disposed = false;

  constructor(cols: number, rows: number, scrollback: number) {
    live.set(this.id, this);
    mirrorWorker().postMessage({ t: 'open', id: this.id, cols, rows, scrollback });
  }

  /** Bytes handed to the mirror but not yet parsed: the core pauses the PTY when this grows too large. */
  get backlog(): number {
    return this.queued - this.applied;
  }

  /** One listener, called whenever the thread has applied more bytes (the backlog shrank). */
  onApplied(listener: () => void): Disposable {
    this.appliedListener = listener;
    return toDisposable(() => {
      if (this.appliedListener === listener) this.appliedListener = null;
    });
  }

  write(chunk: Buffer): void {
    if (this.disposed) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.queued += chunk.length;
    // In a flood a turn of the event loop brings one PTY read (~4 KiB), and a message per turn cost the core as much
    // as sending the bytes to the pane: reads are gathered up to MIRROR_BATCH_BYTES, or for MIRROR_BATCH_MS after the
    // first. Nothing waits on the mirror meanwhile: a capture flushes first, and the backlog counts what is pending.
    if (this.pendingBytes >= MIRROR_BATCH_BYTES) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), MIRROR_BATCH_MS);
  }

  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    this.flush();
    mirrorWorker().postMessage({ t: 'resize', id: this.id, cols, rows });
  }

  /**
   * The screen once every byte written so far has been applied (taken on the mirror thread, in order), with at most
   * `scrollback` lines of history above it (all the mirror keeps when not given). `soon`: at the next boundary
   * between writes instead, with the offset it matches (a stream's reset, whose client gets the rest from the ring).
   */
  capture(textLines = 200, scrollback?: number, soon = false): Promise<MirrorScreen> {
    if (this.disposed) return Promise.reject(closedError());
    this.flush();
    const request = nextRequest++;
    return new Promise((resolve, reject) => {
      this.captures.set(request, { resolve, reject });
      mirrorWorker().postMessage({ t: 'capture', id: this.id, request, textLines, scrollback, soon });
    });
  }

  /**
   * Frees the xterm on the thread. A capture still waiting is refused rather than left pending forever (the thread
   * drops requests for a closed mirror), and bytes not yet sent are dropped with their flush.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending = [];
    this.pendingBytes = 0;
    this.appliedListener = null;
    live.delete(this.id);
    worker?.postMessage({ t: 'close', id: this.id });
    for (const capture of this.captures.values()) capture.reject(closedError());
    this.captures.clear();
  }

  /** @internal */
  fromWorker(m: FromWorker): void {
    if (m.t === 'applied') {
      this.applied = m.end;
      this.appliedListener?.();
    } else {
      const capture = this.captures.get(m.request);
      this.captures.delete(m.request);
      capture?.resolve(m.screen);
    }
  }

  /** @internal The thread died: report an empty screen rather than leave callers waiting forever. */
  workerLost(): void {
    this.applied = this.queued;
    for (const capture of this.captures.values())
      capture.resolve({ cols: 80, rows: 24, offset: this.queued, serialized: '', text: '' });
    this.captures.clear();
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pendingBytes === 0) return;
    // One copy, into memory of our own that moves to the worker (the chunks are the ring's, and may share a pool).
    const bytes = new ArrayBuffer(this.pendingBytes);
    const view = new Uint8Array(bytes);
    let at = 0;
    for (const chunk of this.pending) {
      view.set(chunk, at);
      at += chunk.length;
    }
    this.pending = [];
    this.pendingBytes = 0;
    mirrorWorker().postMessage({ t: 'write', id: this.id, data: bytes, end: this.queued }, [bytes]);
  }
}

const closedError = () => new Error('the terminal was closed: its screen is no longer kept');
