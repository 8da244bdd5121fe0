// When to notify that an agent needs the user (docs/attention.md §5), shared by the page (web mode, and the desktop
// window while it has focus) and Electron main (the desktop app while its window has no focus), so both follow one
// rule: exactly one notice per turn (per `episode`), only for a state the run's settings name, never for a muted
// run or agent, and only while the agent's pane is not in view or the window is not focused. Pure: tested under Node.
import type { AgentAttention, AttentionSettings } from './contract.js';

export interface NeedNotice {
  runId: string;
  agentId: string;
  title: string;
  body: string;
}

export interface AgentRef {
  runId: string;
  runName: string;
  agentId: string;
  label: string;
}

export interface ViewContext {
  /** The window (or page) has the focus and is visible. */
  focused: boolean;
  /** The agent's pane is on screen (its run selected; in tabs, its tab shown). */
  paneInView: boolean;
}

/** "planner asks: Allow execution of ls?" — run, label and what it asks, in the user's words. */
export function noticeText(ref: AgentRef, attention: AgentAttention): { title: string; body: string } {
  const what = attention.state === 'asking' ? 'asks permission' : 'is waiting for you';
  const body =
    attention.asks ?? (attention.state === 'asking' ? 'A tool call waits for approval.' : 'Its turn is over.');
  return { title: `${ref.label} ${what} (${ref.runName})`, body };
}

export class NoticePolicy {
  /** Per agent, the last episode already decided (notified or not): never decided twice. */
  private readonly decided = new Map<string, number>();

  /**
   * What is known when the page (or main) connects: episodes that began before are not news, so a reload or a
   * reconnect never notifies again.
   */
  known(agentId: string, attention: AgentAttention): void {
    this.decided.set(agentId, Math.max(this.decided.get(agentId) ?? 0, attention.episode));
  }

  /** A state change: the notice to show, or null. */
  observe(ref: AgentRef, attention: AgentAttention, settings: AttentionSettings, view: ViewContext): NeedNotice | null {
    if (attention.state !== 'waiting' && attention.state !== 'asking') return null;
    if (attention.episode <= (this.decided.get(ref.agentId) ?? 0)) return null;
    this.decided.set(ref.agentId, attention.episode);
    if (!settings.notifyOn.includes(attention.state)) return null;
    if (settings.muted || settings.mutedAgents.includes(ref.agentId)) return null;
    if (view.focused && view.paneInView) return null;
    return { runId: ref.runId, agentId: ref.agentId, ...noticeText(ref, attention) };
  }

  forget(agentId: string): void {
    this.decided.delete(agentId);
  }
}

/** How many agents need the user, for the badge. */
export function needCount(states: readonly { attention: AgentAttention }[]): number {
  return states.filter((s) => s.attention.state === 'waiting' || s.attention.state === 'asking').length;
}
