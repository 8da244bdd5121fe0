// A headless xterm per terminal, fed the same bytes as the pane: the source of screens and of reattach resets.
// The xterms live on one worker thread shared by every terminal (mirror-worker.mjs); this is their handle.
import { Worker } from 'node:worker_threads';

export interface MirrorScreen {
  cols: number;
  rows: number;
  /** The offset of the first byte the mirror has not yet applied. */
  offset: number;
  serialized: string;
  text: string;
}

type FromWorker =
  | { t: 'applied'; id: number; end: number }
  | { t: 'screen'; id: number; request: number; screen: MirrorScreen };

let worker: Worker | null = null;
const live = new Map<number, Mirror>();
let nextId = 1;
let nextRequest = 1;

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

export class Mirror {
  private readonly id = nextId++;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushScheduled = false;
  private queued = 0;
  private applied = 0;
  private readonly captures = new Map<number, (screen: MirrorScreen) => void>();
  private appliedListener: () => void = () => {};

  constructor(cols: number, rows: number, scrollback: number) {
    live.set(this.id, this);
    mirrorWorker().postMessage({ t: 'open', id: this.id, cols, rows, scrollback });
  }

  /** Bytes handed to the mirror but not yet parsed: the core pauses the PTY when this grows too large. */
  get backlog(): number {
    return this.queued - this.applied;
  }

  onApplied(listener: () => void): void {
    this.appliedListener = listener;
  }

  write(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.queued += chunk.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // One message per turn of the event loop, however many reads it brought.
      setImmediate(() => this.flush());
    }
  }

  resize(cols: number, rows: number): void {
    this.flush();
    mirrorWorker().postMessage({ t: 'resize', id: this.id, cols, rows });
  }

  /** The screen once every byte written so far has been applied (taken on the mirror thread, in order). */
  capture(textLines = 200): Promise<MirrorScreen> {
    this.flush();
    const request = nextRequest++;
    return new Promise((resolve) => {
      this.captures.set(request, resolve);
      mirrorWorker().postMessage({ t: 'capture', id: this.id, request, textLines });
    });
  }

  dispose(): void {
    live.delete(this.id);
    worker?.postMessage({ t: 'close', id: this.id });
  }

  /** @internal */
  fromWorker(m: FromWorker): void {
    if (m.t === 'applied') {
      this.applied = m.end;
      this.appliedListener();
    } else {
      const resolve = this.captures.get(m.request);
      this.captures.delete(m.request);
      resolve?.(m.screen);
    }
  }

  /** @internal The thread died: report an empty screen rather than leave callers waiting forever. */
  workerLost(): void {
    this.applied = this.queued;
    for (const resolve of this.captures.values()) resolve({ cols: 80, rows: 24, offset: this.queued, serialized: '', text: '' });
    this.captures.clear();
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pendingBytes === 0) return;
    const data = this.pending.length === 1 ? Buffer.from(this.pending[0]!) : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    // A copy we own, so its memory can move to the worker without a second copy.
    const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    mirrorWorker().postMessage({ t: 'write', id: this.id, data: bytes, end: this.queued }, [bytes]);
  }
}
