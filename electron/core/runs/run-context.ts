// What the parts of the run service share: the store, the terminals, the vendors' environment, the per-run queue,
// and the two ways a change is told: an event to clients, an entry in the run's history.
import type { EventName, EventPayload, RunEvent } from '../../../shared/contract.js';
import { RUN_ID } from '../../../shared/words.js';
import type { PtyHost } from '../pty/pty-host.js';
import type { RunStore } from '../store/run-store.js';
import { StoreWriteError } from '../store/write-errors.js';
import type { RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import { notFound } from './errors.js';
import type { RunQueue } from './run-queue.js';

export interface RunContext {
  readonly store: RunStore;
  readonly ptyHost: PtyHost;
  readonly env: VendorEnv;
  /** This core's vendor adapters, over its own vendor context (claims, caches, timings). */
  readonly vendors: Vendors;
  readonly queue: RunQueue;
  /** Tells the clients (`run.changed`, `agent.status`, …). */
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** Appends to the run's history. */
  event(runId: string, e: Omit<RunEvent, 'at'>): Promise<void>;
}

export const now = () => new Date().toISOString();

/**
 * Logs a failure of work nobody waits for (an agent's exit, a periodic snapshot). A refused write was already
 * reported by the store, once per outage, so it is not repeated here.
 */
export function logFailure(what: string, err: unknown): void {
  if (err instanceof StoreWriteError) return;
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`baton: ${what} failed: ${message}\n`);
}

/** A run by its id or its name. */
export function findRun(store: RunStore, ref: string): RunManifest {
  const run = RUN_ID.test(ref) ? store.get(ref) : store.findByName(ref);
  if (!run) throw notFound(`no run named '${ref}'`);
  return run;
}
