// The store's actions for cost (docs/cost.md): a run's cost per agent, as the core reads it from the vendors'
// transcripts. Like core-calls.ts they are the only way components reach the core (docs/architecture.md §12).
import type { BatonClient } from '../../shared/client.js';
import type { RunCost } from '../../shared/contract.js';
import { totalOf } from '../../shared/cost-text.js';
import type { Store } from './store.js';

export interface CostState {
  /** Per run: its cost as last read (run.cost). */
  costs: Record<string, RunCost>;
}

export interface CostCalls {
  /** Reads the run's cost again; its summary in the run list follows. A failed read keeps the last figures. */
  refreshCost(runId: string): Promise<void>;
}

export interface CostCallDeps {
  set(partial: Partial<Store> | ((s: Store) => Partial<Store>)): void;
  get(): Store;
  client(): BatonClient | null;
}

export function costCalls({ set, get, client }: CostCallDeps): CostCalls {
  return {
    async refreshCost(runId) {
      const c = client();
      if (!c) return;
      let cost: RunCost;
      try {
        cost = await c.call('run.cost', { run: runId });
      } catch {
        return; // the run was deleted, or the core is going: the next refresh says more
      }
      // The poll of a live run mostly reads what it read last time: an unchanged cost re-renders nothing (a new
      // `runs` array would filter and render the history again every few seconds of an idle page).
      if (JSON.stringify(cost) === JSON.stringify(get().costs[runId])) return;
      const total = totalOf(cost.total);
      set((s) => ({
        costs: { ...s.costs, [runId]: cost },
        runs: s.runs.map((r) => (r.id === runId ? { ...r, cost: total } : r)),
      }));
    },
  };
}
