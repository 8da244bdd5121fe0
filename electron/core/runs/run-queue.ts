// Each run's manifest changes one at a time, in order: a serial queue of jobs per run over the store.
import type { RunStore } from '../store/run-store.js';
import type { RunManifest } from '../store/types.js';
import { now } from './run-context.js';

export class RunQueue {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly store: RunStore) {}

  /** Runs `job` after every job queued before it for the same run; one that fails does not stop the next. */
  enqueue<T>(runId: string, job: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(runId) ?? Promise.resolve();
    const result = previous.catch(() => undefined).then(job);
    const tail = result.catch(() => undefined);
    this.queues.set(runId, tail);
    // `tail` never rejects; the handler is there so no rejection could ever go unhandled.
    tail.then(
      () => {
        if (this.queues.get(runId) === tail) this.queues.delete(runId);
      },
      () => undefined,
    );
    return result;
  }

  /** Manifest changes of one run happen one at a time, in order. */
  mutate(runId: string, change: (m: RunManifest) => void): Promise<void> {
    return this.enqueue(runId, () => this.saveNow(runId, change));
  }

  /** Only from inside the run's queue (or before anything else can touch the run). */
  async saveNow(runId: string, change: (m: RunManifest) => void): Promise<void> {
    const current = this.store.get(runId);
    if (!current) return;
    const next = structuredClone(current);
    change(next);
    next.updatedAt = now();
    await this.store.save(next);
  }

  /** Settles once every job queued so far has, whatever its outcome. */
  async drain(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.catch(() => undefined)));
  }
}
