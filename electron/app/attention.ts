// Agents that need the user while they look elsewhere (docs/attention.md §5): an OS notification when an agent starts
// waiting or asking while the window has no focus (the page itself notifies while it has focus), one per turn by the
// shared NoticePolicy; one when an agent's terminal ends on its own (not when the user stopped it); and a
// dock/taskbar badge counting the agents that need the user plus those that ended since the window last had focus.
import { NoticePolicy, type AgentRef } from '../../shared/attention-policy.js';
import type { AgentAttention, AgentView, AttentionSettings, RunView } from '../../shared/contract.js';

export interface AttentionDeps {
  isFocused(): boolean;
  /** Shows an OS notification; `onClick` runs when the user clicks it. */
  notify(title: string, body: string, onClick?: () => void): void;
  setBadge(count: number): void;
}

export type EndedStatus = 'exited' | 'failed';

export class Attention {
  private ended = 0;
  private readonly needing = new Set<string>();
  private readonly policy = new NoticePolicy();

  constructor(private readonly deps: AttentionDeps) {}

  get pending(): number {
    return this.ended + this.needing.size;
  }

  agentEnded(
    run: Pick<RunView, 'name'>,
    agent: Pick<AgentView, 'label' | 'vendor'>,
    status: EndedStatus,
    exitCode: number | null,
  ): void {
    if (this.deps.isFocused()) return;
    this.ended++;
    this.deps.setBadge(this.pending);
    const how = status === 'failed' ? 'could not start' : exitCode === null ? 'exited' : `exited with code ${exitCode}`;
    this.deps.notify(
      `${agent.label} ${how}`,
      `${agent.vendor} agent in the run ${run.name}. Open Baton to read its screen or resume it.`,
    );
  }

  /** What was known at connect: needs that began before are counted, never notified again. */
  known(agentId: string, attention: AgentAttention): void {
    this.policy.known(agentId, attention);
    this.count(agentId, attention);
  }

  /** An agent's state changed; `open` takes the user to it when they click the notification. */
  stateChanged(ref: AgentRef, attention: AgentAttention, settings: AttentionSettings, open: () => void): void {
    this.count(ref.agentId, attention);
    const notice = this.deps.isFocused()
      ? (this.policy.known(ref.agentId, attention), null)
      : this.policy.observe(ref, attention, settings, { focused: false, paneInView: false });
    if (notice) this.deps.notify(notice.title, notice.body, open);
  }

  /** The window has focus again: the ended agents are seen; those that need the user still count. */
  seen(): void {
    if (this.ended === 0) return;
    this.ended = 0;
    this.deps.setBadge(this.pending);
  }

  private count(agentId: string, attention: AgentAttention): void {
    const before = this.needing.size;
    if (attention.state === 'waiting' || attention.state === 'asking') this.needing.add(agentId);
    else this.needing.delete(agentId);
    if (this.needing.size !== before) this.deps.setBadge(this.pending);
  }
}
