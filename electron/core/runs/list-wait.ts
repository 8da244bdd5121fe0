// How long `run.list` waits for each stopped run's health (run-health.ts; docs/performance.md "The whole first list").
// A run whose check is late is given as `checking`, and `run.changed` names it once its answer is in.
// A list of a few runs (a page's first screen, the runs an event named) waits for every check, as it always did: its
// checks are few. A whole history's list waits at most `LONG_LIST_WAIT_MS`: making, sending and reading 10,000
// summaries already takes ~150 ms of the 300 ms a user may wait. Cost sums keep their own budget
// (cost/list-costs.ts): capping it too made the bench's first list slower, not faster (the sums are CPU work, and what
// the list did not wait for then ran beside the client reading the answer).

/**
 * Lists of more runs than this are long (more than a screenful: the whole history, or a page of it): they wait
 * `LONG_LIST_WAIT_MS` at most.
 */
export const LONG_LIST = 200;
export const LONG_LIST_WAIT_MS = 100;

/** How long a list of `count` runs waits for health checks; undefined: for every one, as it always did. */
export function listWaitMs(count: number): number | undefined {
  return count > LONG_LIST ? LONG_LIST_WAIT_MS : undefined;
}
