// The run view's choices of what to fetch ahead of the next switch (RunViewAhead.ts), kept free of the page's
// modules so a unit test can drive them.
import type { RunSummary } from '../../shared/contract.js';

/**
 * The other live runs' ids, newest first, as one string: a stable value for a store selector, so that the run view
 * renders again only when the set of live runs changes, not at every merge of a `run.list` answer (each agent's
 * status or cost names its run, and each merge made a new list).
 */
export function otherLiveRuns(runs: readonly RunSummary[], current: string): string {
  const ids: string[] = [];
  // Indexed: a `for…of` over the 10,000 runs made an iterator step per run, each a new object in the heap profile.
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    if (r.liveAgents > 0 && r.id !== current) ids.push(r.id);
  }
  return ids.join(' ');
}

export interface DetailsAhead {
  /** Whether the page has the run's details already. */
  has(runId: string): boolean;
  /** Fetches the run's details into the store (never rejects). */
  load(runId: string): Promise<void>;
}

/**
 * Fetches the details of the runs the page has none of, one request at a time in the order given (newest first):
 * a burst of requests would make the run in view wait behind their answers. Stops early when `stale()` says the
 * list has moved on. Resolves once done.
 */
export async function loadDetailsAhead(runIds: readonly string[], deps: DetailsAhead, stale: () => boolean) {
  for (const id of runIds) {
    if (stale()) return;
    if (!deps.has(id)) await deps.load(id);
  }
}
