// Cost in the page (docs/cost.md): the pane header's compact figure per agent, the run toolbar's total, and the poll
// that keeps them current while the run's agents work. Unknown figures read "unknown", never 0.
import { useEffect } from 'react';
import type { AgentCost, CostFigures, RunCost } from '../../shared/contract.js';
import { costText, tokensText, totalOf } from '../../shared/cost-text.js';
import { useBaton } from '../state/store.js';

/** While agents run, the cost is read again this often (each read costs the core a stat per unchanged transcript). */
const LIVE_REFRESH_MS = 5000;

const compact = (f: CostFigures) => costText(totalOf(f));

/** The tooltip: every figure, where the money comes from, what is unknown and why, and the prices' date. */
function details(f: CostFigures, prices: RunCost['prices'], sessions?: number): string {
  const lines: string[] = [];
  if (f.tokens) {
    const t = f.tokens;
    lines.push(
      `input ${tokensText(t.input)} · output ${tokensText(t.output)} · cache read ${tokensText(t.cacheRead)} · cache write ${tokensText(t.cacheWrite)}`,
    );
  } else lines.push('tokens unknown');
  if (f.usd !== null && f.usdFrom)
    lines.push(
      f.usdFrom === 'recorded'
        ? 'cost recorded by the vendor'
        : `cost ${f.usdFrom === 'priced' ? 'priced' : 'recorded and priced'} with prices as of ${prices.asOf}`,
    );
  if (f.models.length > 0) lines.push(`models: ${f.models.join(', ')}`);
  if (sessions !== undefined && sessions > 1) lines.push(`${sessions} sessions summed`);
  if (f.note) lines.push(f.note);
  if (prices.error) lines.push(prices.error);
  return lines.join('\n');
}

/** Keeps the run's cost current: read when shown, then every few seconds while any agent runs. */
export function useRunCost(runId: string, live: boolean): void {
  const refreshCost = useBaton((s) => s.refreshCost);
  const connected = useBaton((s) => s.status === 'connected');
  useEffect(() => {
    if (!connected) return;
    void refreshCost(runId);
    if (!live) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refreshCost(runId);
    }, LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [runId, live, connected, refreshCost]);
}

/** The pane header's figure for one agent ("12.3k tok · $0.04"); nothing for an agent without a model. */
export function AgentCostBadge({ runId, agentId }: { runId: string; agentId: string }) {
  const cost = useBaton((s) => s.costs[runId]);
  const agent: AgentCost | undefined = cost?.agents.find((a) => a.agentId === agentId);
  if (!cost || !agent) return null;
  const text = compact(agent);
  return (
    <span className="bt-pane-cost" title={details(agent, cost.prices, agent.sessions)} aria-label={`cost: ${text}`}>
      {text}
    </span>
  );
}

/** The run toolbar's total over its agents. */
export function RunCostTotal({ runId }: { runId: string }) {
  const cost = useBaton((s) => s.costs[runId]);
  if (!cost || cost.agents.length === 0) return null;
  const text = compact(cost.total);
  return (
    <span className="bt-run-cost" title={details(cost.total, cost.prices)} aria-label={`run cost: ${text}`}>
      {text}
    </span>
  );
}
