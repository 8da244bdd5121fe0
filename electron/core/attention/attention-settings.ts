// A run's notification settings (docs/attention.md §5), kept in the run's manifest through its queue: which states
// notify, the run muted, the agents muted. A run without them has the defaults.
import { DEFAULT_ATTENTION_SETTINGS, type AttentionSettings, type Params } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import { invalid } from '../runs/errors.js';

export function settingsOf(run: RunManifest): AttentionSettings {
  return run.attention ?? { ...DEFAULT_ATTENTION_SETTINGS, notifyOn: [...DEFAULT_ATTENTION_SETTINGS.notifyOn] };
}

/** The settings after `change`; an agent that is not the run's is refused (nothing else is touched). */
export function changedSettings(run: RunManifest, change: Params<'attention.configure'>): AttentionSettings {
  const next = settingsOf(run);
  if (change.notifyOn !== undefined) next.notifyOn = [...new Set(change.notifyOn)];
  if (change.muted !== undefined) next.muted = change.muted;
  if (change.agent !== undefined) {
    const { agentId, muted } = change.agent;
    if (!run.agents.some((a) => a.id === agentId))
      throw invalid(`no agent with that id in the run '${run.name}'`, 'agent.agentId');
    next.mutedAgents = next.mutedAgents.filter((id) => id !== agentId);
    if (muted) next.mutedAgents.push(agentId);
  }
  // Agents that left the run are forgotten.
  next.mutedAgents = next.mutedAgents.filter((id) => run.agents.some((a) => a.id === id));
  return next;
}
