// What the store holds in memory but could not write yet (a full disk, say): per run, a manifest newer than its
// file and the history lines not appended. Each outage is reported once per run, and a timer retries until the
// writes land, so nothing the agents did while the disk was full is lost once space returns.
import type { RunEvent } from './types.js';

export interface WriteProblem {
  runId: string;
  /** In the user's words: what could not be saved, why, and what to do. */
  message: string;
}

/** History lines kept per run while they cannot be written; past this the oldest go (the manifest never does). */
export const MAX_QUEUED_EVENTS = 1000;

export class PendingWrites {
  private readonly dirty = new Set<string>();
  private readonly queued = new Map<string, RunEvent[]>();
  /** Runs whose current outage was reported. */
  private readonly reported = new Set<string>();
  private readonly listeners = new Set<(p: WriteProblem) => void>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly retry: () => Promise<void>,
    private readonly retryMs: number,
  ) {}

  onProblem(listener: (p: WriteProblem) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  markDirty(runId: string): void {
    this.dirty.add(runId);
  }

  isDirty(runId: string): boolean {
    return this.dirty.has(runId);
  }

  written(runId: string): void {
    this.dirty.delete(runId);
  }

  queueEvent(runId: string, event: RunEvent): void {
    const list = this.queued.get(runId) ?? [];
    list.push(event);
    if (list.length > MAX_QUEUED_EVENTS) {
      list.shift();
      if (list.length === MAX_QUEUED_EVENTS)
        process.stderr.write('baton: too many history lines waiting for disk space; dropping the oldest\n');
    }
    this.queued.set(runId, list);
  }

  /** The history lines waiting, oldest first (the live list: `appended` removes from its front). */
  events(runId: string): readonly RunEvent[] {
    return this.queued.get(runId) ?? [];
  }

  /** These lines were written (by identity: lines queued meanwhile, or dropped for room, are left as they are). */
  appended(runId: string, written: readonly RunEvent[]): void {
    const list = this.queued.get(runId)?.filter((e) => !written.includes(e));
    if (list && list.length > 0) this.queued.set(runId, list);
    else this.queued.delete(runId);
  }

  /** Runs with something waiting to be written. */
  waiting(): string[] {
    return [...new Set([...this.dirty, ...this.queued.keys()])];
  }

  hasWaiting(runId: string): boolean {
    return this.dirty.has(runId) || this.queued.has(runId);
  }

  /** A write failed: tell the user once per outage, and retry later if anything is left waiting. */
  failed(runId: string, message: string): void {
    this.schedule();
    if (this.reported.has(runId)) return;
    this.reported.add(runId);
    process.stderr.write(`baton: ${message}\n`);
    for (const listener of this.listeners) {
      try {
        listener({ runId, message });
      } catch {
        // A listener's failure must not turn a reported problem into a crash.
      }
    }
  }

  /** A write succeeded: once nothing of the run is waiting, its outage is over. */
  succeeded(runId: string, runName: string): void {
    if (!this.reported.has(runId) || this.hasWaiting(runId)) return;
    this.reported.delete(runId);
    process.stderr.write(`baton: run '${runName}' is saved again\n`);
  }

  /** The run was deleted: nothing of it is to be written any more. */
  forget(runId: string): void {
    this.dirty.delete(runId);
    this.queued.delete(runId);
    this.reported.delete(runId);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retry().then(
        () => {
          if (this.waiting().length > 0) this.schedule();
        },
        () => this.schedule(),
      );
    }, this.retryMs);
    // A retry alone must not keep the process alive.
    this.timer.unref();
  }
}
