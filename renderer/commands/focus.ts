// Moving the keyboard between the selected run's panes, for the pane commands (registry.ts). Which pane has focus
// is the DOM's to say (a pane's section carries its agent id); the xterm is focused through the panes' registry.
import { focusPane } from '../panes/terminal-registry.js';
import { selectedRun, type Store } from '../state/store.js';

/** The agent whose pane holds the keyboard focus, if any. */
export function focusedAgent(): string | undefined {
  const section = document.activeElement?.closest('[data-agent-id]');
  return section?.getAttribute('data-agent-id') ?? undefined;
}

/** Focuses the agent's pane; in tabs it first becomes the shown tab. */
export function focusAgent(s: Store, agentId: string): void {
  const run = selectedRun(s);
  if (!run) return;
  if ((s.layouts[run.id] ?? 'grid') === 'tabs') s.setActiveAgent(run.id, agentId);
  // After React has shown the tab: a hidden pane cannot take focus.
  requestAnimationFrame(() => focusPane(agentId));
}

/** The next (1) or previous (-1) pane after the focused one, wrapping around. */
export function moveFocus(s: Store, step: number): void {
  const run = selectedRun(s);
  if (!run) return;
  const ids = run.agents.map((a) => a.id);
  const current = ids.indexOf(focusedAgent() ?? '');
  const next = ids[(current + step + ids.length) % ids.length];
  if (next) focusAgent(s, next);
}
