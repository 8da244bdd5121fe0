// The cost `run.list` carries (docs/cost.md), within a time budget: a run whose transcripts are cached is summed at
// once, but the first read of a large store (every transcript parsed once per core start) must not hold the list
// back. A run not summed within the budget is given the sum the last list gave it (none the first time), and one
// `cost.changed` event names the runs whose sum, once made, differs from what the list gave.
// Only a change is announced: the page lists again on that event, so announcing runs that were merely late (10,000
// runs on a loaded machine miss 300 ms at every list) made the page and the core list each other in a loop, a fifth
// of a core with nothing happening (docs/performance.md "Idle and start").
import type { CostTotal } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import type { CostService } from './cost-service.js';

/** How long run.list waits for its runs' costs. */
export const RUN_LIST_COST_BUDGET_MS = 300;

/** What the lists of each cost service last gave per run (a missing entry: no cost). */
const lastGiven = new WeakMap<Pick<CostService, 'totalsOnce'>, Map<string, CostTotal>>();

const same = (a: CostTotal | undefined, b: CostTotal | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Per run id, the sum known within `budgetMs` (else the last one given); `late` is told the runs whose sum changed after. */
export async function listCosts(
  service: Pick<CostService, 'totalsOnce'>,
  runs: readonly RunManifest[],
  late: (runIds: string[]) => void,
  budgetMs = RUN_LIST_COST_BUDGET_MS,
): Promise<Map<string, CostTotal>> {
  let given = lastGiven.get(service);
  if (!given) lastGiven.set(service, (given = new Map()));
  const out = new Map<string, CostTotal>();
  const pending: { runId: string; done: Promise<CostTotal | null> }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  await Promise.all(
    runs.map(async (run) => {
      // A cost that cannot be read is left out: the list never fails for it.
      const sum = service.totalsOnce(run).then(
        (t) => t.total,
        () => null,
      );
      const first = await Promise.race([sum, budget]);
      if (first === 'late') pending.push({ runId: run.id, done: sum });
      else if (first !== null) out.set(run.id, first);
    }),
  );
  clearTimeout(timer);
  const isLate = new Set(pending.map((p) => p.runId));
  for (const run of runs) {
    const known = given.get(run.id);
    if (known && isLate.has(run.id)) out.set(run.id, known);
    const now = out.get(run.id);
    if (now) given.set(run.id, now);
    else given.delete(run.id);
  }
  if (pending.length > 0)
    Promise.all(pending.map((p) => p.done)).then(
      (sums) => {
        const changed: string[] = [];
        sums.forEach((sum, i) => {
          const { runId } = pending[i]!;
          if (same(sum ?? undefined, given.get(runId))) return;
          changed.push(runId);
          if (sum) given.set(runId, sum);
          else given.delete(runId);
        });
        if (changed.length > 0) late(changed);
      },
      () => undefined,
    );
  return out;
}
