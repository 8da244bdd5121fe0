// Takes the user to an agent's pane (from "Next agent that needs me" or a notification): selects its run, waits for
// the pane to be on the page, then focuses it (in tabs, its tab first).
import { focusAgent } from '../commands/focus.js';
import { useBaton } from '../state/store.js';

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
/** About two seconds of frames for the run to load and its panes to mount. */
const MAX_FRAMES = 120;

export async function goToAgent(runId: string, agentId: string): Promise<void> {
  if (useBaton.getState().selectedRunId !== runId) useBaton.getState().selectRun(runId);
  for (let i = 0; i < MAX_FRAMES; i++) {
    const s = useBaton.getState();
    const loaded = s.runDetails[runId]?.agents.some((a) => a.id === agentId) ?? false;
    if (loaded && s.selectedRunId === runId && document.querySelector(`[data-agent-id="${agentId}"]`)) break;
    await frame();
  }
  focusAgent(useBaton.getState(), agentId);
}
