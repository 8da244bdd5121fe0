// The core's side of the search worker (docs/search.md §4): starts the thread, numbers requests, hands progress on.
// A worker that dies is started again at the next request; its requests in flight fail with a clear message.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchStatus } from '../../../shared/contract.js';
import type { WorkerRequest } from './search-worker.js';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Ask = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The built worker beside this file (dist/). */
export const SEARCH_WORKER_URL = new URL('./search-worker.js', import.meta.url);

export class SearchWorkerClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(
    /** Where the index is saved; null keeps it in memory only. */
    private readonly file: string | null,
    private readonly onProgress: (status: SearchStatus) => void,
    /** The worker's module; the bench, running from sources, passes the built one. */
    private readonly workerUrl: URL = SEARCH_WORKER_URL,
  ) {}

  /**
   * The worker's module is there: it is a build output (dist/), absent when the core runs from its TypeScript sources
   * (a test in the same process); search then answers that it is not available.
   */
  available(): boolean {
    return this.workerUrl.protocol !== 'file:' || existsSync(fileURLToPath(this.workerUrl));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    if (!this.available()) throw new Error('search is not available in this build (its worker thread is missing)');
    const w = new Worker(this.workerUrl, { workerData: { file: this.file } });
    w.unref();
    w.on(
      'message',
      (msg: { id?: number; ok?: boolean; value?: unknown; error?: string; event?: string; status?: SearchStatus }) => {
        if (msg.event === 'progress' && msg.status) return this.onProgress(msg.status);
        const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id!);
        if (msg.ok) p.resolve(msg.value);
        else p.reject(new Error(msg.error ?? 'search failed'));
      },
    );
    const fail = (why: string) => {
      if (this.worker !== w) return;
      this.worker = null;
      for (const p of this.pending.values()) p.reject(new Error(why));
      this.pending.clear();
    };
    w.on('error', (err) => fail(`the search index stopped (${err.name})`));
    w.on('exit', () => fail('the search index stopped'));
    this.worker = w;
    return w;
  }

  ask<T>(req: Ask): Promise<T> {
    if (this.closed) return Promise.reject(new Error('search is closed'));
    let w: Worker;
    try {
      w = this.start();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage({ ...req, id });
    });
  }

  /** Saves the index if it changed, then ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.worker) await this.ask({ op: 'save' }).catch(() => undefined);
    this.closed = true;
    await this.worker?.terminate();
    this.worker = null;
  }
}
