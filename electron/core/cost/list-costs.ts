// The cost `run.list` carries (docs/cost.md), within a time budget: a run whose transcripts are cached is summed at
// once, but the first read of a large store (every transcript parsed once per core start) must not hold the list
// back. A run not summed within the budget is given the sum the last list gave it (none the first time), and one
// `cost.changed` event names the runs whose sum, once made, differs from what the list gave.
// - Only a change is announced: the page lists again on that event, so announcing runs that were merely late (10,000
//   runs on a loaded machine miss 300 ms at every list) made the page and the core list each other in a loop, a
//   fifth of a core with nothing happening (docs/performance.md "Idle and start").
// - A stopped run's sum is kept for the manifest version it was made at and given as is for `RESUM_MS`; after that a
//   list gives it and sums the run again (a change is announced). Summing reads each session's transcript in its
//   vendor's store: 10,000 stopped runs were 20,000 store lookups at every list, seconds of a busy core. A run with
//   an agent starting or running is summed at every list, as before.
import type { CostTotal } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import { SessionIndexes } from '../vendors/session-indexes.js';
import type { CostService } from './cost-service.js';

/** How long run.list waits for its runs' costs. */
export const RUN_LIST_COST_BUDGET_MS = 300;
/** How long a stopped run's sum is given without summing it again. */
export const RESUM_MS = 60_000;

interface Given {
  /** null: the run has no cost to show. */
  total: CostTotal | null;
  updatedAt: string;
  at: number;
}

/** What the lists of each cost service last gave per run. */
const lastGiven = new WeakMap<Pick<CostService, 'totalsOnce'>, Map<string, Given>>();

const same = (a: CostTotal | null | undefined, b: CostTotal | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const isLive = (run: RunManifest) => run.agents.some((a) => a.status === 'running' || a.status === 'starting');

/**
 * Per run id, its sum: kept (a stopped run summed lately), made within `budgetMs`, or else the last one given;
 * `late` is told the runs whose sum, made after the list answered, changed.
 */
export async function listCosts(
  service: Pick<CostService, 'totalsOnce'>,
  runs: readonly RunManifest[],
  late: (runIds: string[]) => void,
  budgetMs = RUN_LIST_COST_BUDGET_MS,
): Promise<Map<string, CostTotal>> {
  let given = lastGiven.get(service);
  if (!given) lastGiven.set(service, (given = new Map()));
  const memo = given;
  const now = Date.now();
  const out = new Map<string, CostTotal>();
  const toSum: RunManifest[] = [];
  for (const run of runs) {
    const known = memo.get(run.id);
    const kept = known && known.updatedAt === run.updatedAt && !isLive(run);
    if (kept && known.total) out.set(run.id, known.total);
    if (!kept || now - known.at > RESUM_MS) toSum.push(run);
  }
  // Every vendor store is read once for this list's sums (vendors/session-indexes.ts), not once per session.
  const indexes = new SessionIndexes();
  const pending: { run: RunManifest; done: Promise<CostTotal | null> }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  await Promise.all(
    toSum.map(async (run) => {
      // A cost that cannot be read is left out: the list never fails for it.
      const sum = service.totalsOnce(run, indexes).then(
        (t) => t.total,
        () => null,
      );
      const first = await Promise.race([sum, budget]);
      if (first === 'late') {
        pending.push({ run, done: sum });
        const known = memo.get(run.id)?.total;
        if (known) out.set(run.id, known);
        return;
      }
      memo.set(run.id, { total: first, updatedAt: run.updatedAt, at: Date.now() });
      if (first) out.set(run.id, first);
      else out.delete(run.id);
    }),
  );
  clearTimeout(timer);
  if (pending.length > 0)
    Promise.all(pending.map((p) => p.done)).then(
      (sums) => {
        const changed: string[] = [];
        sums.forEach((sum, i) => {
          const { run } = pending[i]!;
          const before = memo.get(run.id)?.total;
          memo.set(run.id, { total: sum, updatedAt: run.updatedAt, at: Date.now() });
          if (!same(sum, before)) changed.push(run.id);
        });
        if (changed.length > 0) late(changed);
      },
      () => undefined,
    );
  return out;
}
