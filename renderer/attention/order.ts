// "Next agent that needs me" (docs/attention.md §5): the agents that wait or ask, in the order they started to, and
// the one after the focused agent in that order (wrapping round). Pure: tested under Node.
import type { AgentAttentionEntry } from '../../shared/contract.js';

/** Agents that need the user, oldest need first (ties by run and label, so the order never flickers). */
export function needingInOrder(entries: Iterable<AgentAttentionEntry>): AgentAttentionEntry[] {
  return [...entries]
    .filter((e) => e.attention.state === 'waiting' || e.attention.state === 'asking')
    .sort(
      (a, b) =>
        a.attention.since.localeCompare(b.attention.since) ||
        a.runName.localeCompare(b.runName) ||
        a.label.localeCompare(b.label),
    );
}

/** The agent to go to: the one after `current` among those that need the user, or the first; null when none does. */
export function nextNeeding(
  entries: Iterable<AgentAttentionEntry>,
  current: string | null,
): AgentAttentionEntry | null {
  const order = needingInOrder(entries);
  if (order.length === 0) return null;
  const at = current === null ? -1 : order.findIndex((e) => e.agentId === current);
  return order[(at + 1) % order.length] ?? null;
}

/** Per run, how many of its agents need the user. */
export function needsByRun(entries: Iterable<AgentAttentionEntry>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of needingInOrder(entries)) out[e.runId] = (out[e.runId] ?? 0) + 1;
  return out;
}

/**
 * How many of the run's agents need the user. Counted, not sorted: every row of the history runs this on every
 * attention change and as it comes into view, and sorting every agent (by localeCompare) per row cost a keystroke in
 * the history's search milliseconds (docs/performance.md, "Long tasks").
 */
export function needingIn(entries: Iterable<AgentAttentionEntry>, runId: string): number {
  let n = 0;
  for (const e of entries)
    if (e.runId === runId && (e.attention.state === 'waiting' || e.attention.state === 'asking')) n++;
  return n;
}
