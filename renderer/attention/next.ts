// The "Next agent that needs me" command (docs/attention.md §5): from the focused pane to the next agent that waits
// or asks, in the order they started to, across runs.
import { useAttention } from '../state/attention-store.js';
import { focusedAgent } from '../commands/focus.js';
import { goToAgent } from './go-to-agent.js';
import { nextNeeding, needingInOrder } from './order.js';

export const anyoneNeeding = (): boolean => needingInOrder(Object.values(useAttention.getState().entries)).length > 0;

export async function goToNextNeeding(): Promise<void> {
  const next = nextNeeding(Object.values(useAttention.getState().entries), focusedAgent() ?? null);
  if (next) await goToAgent(next.runId, next.agentId);
}
