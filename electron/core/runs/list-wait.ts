// How long `run.list` waits for what it does not know yet (docs/performance.md "The whole first list"): each stopped
// run's health (run-health.ts) and cost sum (cost/list-costs.ts). Whatever is late is given as `checking` (health) or
// as the last sum given (cost), and an event follows once it is known (`run.changed`, `cost.changed`).
// A list of a few runs (a page's first screen, the runs an event named) waits as it always did: for every health
// check, and `RUN_LIST_COST_BUDGET_MS` for costs; its checks are few. A whole history's list waits less: making,
// sending and reading 10,000 summaries already takes ~150 ms of the 300 ms a user may wait, and its first checks and
// sums with nothing saved took 0.2–1 s more.

/**
 * Lists of more runs than this are long (more than a screenful: the whole history, or a page of it): they wait
 * `LONG_LIST_WAIT_MS` at most.
 */
export const LONG_LIST = 200;
export const LONG_LIST_WAIT_MS = 100;

/** How long a list of `count` runs waits for health checks and cost sums; undefined: as long as each always did. */
export function listWaitMs(count: number): number | undefined {
  return count > LONG_LIST ? LONG_LIST_WAIT_MS : undefined;
}
