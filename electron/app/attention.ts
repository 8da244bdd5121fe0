// Agents that need the user while they look elsewhere: an OS notification when an agent's terminal ends on its own
// (not when the user stopped it), and a dock/taskbar badge with how many did since the window last had focus.
import type { AgentView, RunView } from '../../shared/contract.js';

export interface AttentionDeps {
  isFocused(): boolean;
  notify(title: string, body: string): void;
  setBadge(count: number): void;
}

export type EndedStatus = 'exited' | 'failed';

export class Attention {
  private count = 0;

  constructor(private readonly deps: AttentionDeps) {}

  get pending(): number {
    return this.count;
  }

  agentEnded(
    run: Pick<RunView, 'name'>,
    agent: Pick<AgentView, 'label' | 'vendor'>,
    status: EndedStatus,
    exitCode: number | null,
  ): void {
    if (this.deps.isFocused()) return;
    this.count++;
    this.deps.setBadge(this.count);
    const how = status === 'failed' ? 'could not start' : exitCode === null ? 'exited' : `exited with code ${exitCode}`;
    this.deps.notify(
      `${agent.label} ${how}`,
      `${agent.vendor} agent in the run ${run.name}. Open Baton to read its screen or resume it.`,
    );
  }

  /** The window has focus again: everything is in view. */
  seen(): void {
    if (this.count === 0) return;
    this.count = 0;
    this.deps.setBadge(0);
  }
}
