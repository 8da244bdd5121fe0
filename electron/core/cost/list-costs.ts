// The cost `run.list` carries (docs/cost.md), within a time budget: a run whose transcripts are cached is summed at
// once, but the first read of a large store (every transcript parsed once per core start) must not hold the list
// back. Runs not summed within the budget come without `cost`, and one `cost.changed` event names them once they are.
import type { CostTotal } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import type { CostService } from './cost-service.js';

/** How long run.list waits for its runs' costs. */
export const RUN_LIST_COST_BUDGET_MS = 300;

/** Per run id, the sum known within `budgetMs`; `late` is told the runs that were summed only after it. */
export async function listCosts(
  service: CostService,
  runs: readonly RunManifest[],
  late: (runIds: string[]) => void,
  budgetMs = RUN_LIST_COST_BUDGET_MS,
): Promise<Map<string, CostTotal>> {
  const out = new Map<string, CostTotal>();
  const pending: { runId: string; done: Promise<unknown> }[] = [];
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
  if (pending.length > 0)
    Promise.all(pending.map((p) => p.done)).then(
      () => late(pending.map((p) => p.runId)),
      () => undefined,
    );
  return out;
}
