// What the run store, the run's history and the clients hear of an agent's life: started (with the session id its
// plan chose), a session id its vendor reported, exited or stopped, failed to start. Apart from agent-supervisor.ts,
// which decides what happens to the agents; this only writes down what did, the same way each time.
import type { RemotePlacement } from '../remote/remote-launcher.js';
import type { AgentRecord, WorktreeRecord } from '../store/types.js';
import type { SessionObservation, SpawnPlan } from '../vendors/adapter.js';
import { now, type RunRepository } from './run-repository.js';
import { currentSessionId, type Announce } from './views.js';

export class AgentRecorder {
  constructor(
    private readonly runs: RunRepository,
    private readonly announce: Announce,
  ) {}

  /** The agent could not start: `failed`, with the reason as its warning and in the history. */
  async failed(runId: string, agentId: string, message: string): Promise<void> {
    await this.runs.update(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId)!;
      a.status = 'failed';
      a.warning = message;
    });
    await this.runs.history(runId, { type: 'agent-failed', agentId, message });
    this.announce('agent.status', { runId, agentId, status: 'failed', terminalId: null, exitCode: null });
  }

  /**
   * A remote agent runs where its host's core put it: its directory and worktree there (made, found or re-created
   * there) become its record here, so views, snapshots and handles carry them (docs/hosts.md).
   */
  async placed(runId: string, agent: AgentRecord, placed: RemotePlacement): Promise<AgentRecord> {
    const worktree: WorktreeRecord | undefined = placed.worktree
      ? { ...placed.worktree, baseBranch: agent.worktree?.baseBranch ?? null }
      : undefined;
    const same =
      agent.cwd === placed.cwd && JSON.stringify(agent.worktree ?? null) === JSON.stringify(worktree ?? null);
    if (same) return agent;
    await this.runs.update(runId, (m) => {
      const a = m.agents.find((x) => x.id === agent.id);
      if (!a) return;
      a.cwd = placed.cwd;
      if (worktree) a.worktree = worktree;
      else delete a.worktree;
    });
    const { worktree: _old, ...rest } = agent;
    return { ...rest, cwd: placed.cwd, ...(worktree ? { worktree } : {}) };
  }

  /** The agent runs in `terminalId`; `confirmed`: its resumed id was found in the vendor's store. */
  async started(
    runId: string,
    agent: AgentRecord,
    plan: SpawnPlan,
    confirmed: boolean,
    warning: string,
    terminalId: string,
  ): Promise<void> {
    await this.runs.update(runId, (m) => {
      const a = m.agents.find((x) => x.id === agent.id)!;
      a.status = 'running';
      a.exitCode = null;
      a.startedAt = now();
      a.warning = warning === '' ? null : warning;
      if (plan.sessionId && currentSessionId(a) !== plan.sessionId) {
        a.sessionIds.push({ id: plan.sessionId, chosenBy: plan.chosenBy ?? 'baton', seenAt: now(), confirmed });
      }
    });
    const branch = agent.worktree ? ` (worktree on branch ${agent.worktree.branch})` : '';
    await this.runs.history(runId, {
      type: 'agent-started',
      agentId: agent.id,
      message: `${agent.label} (${agent.vendor}) started in ${agent.cwd}${branch}`,
    });
    this.announce('agent.status', {
      runId,
      agentId: agent.id,
      status: 'running',
      terminalId,
      exitCode: null,
    });
  }

  async sessionSeen(runId: string, agentId: string, seen: SessionObservation, plan: SpawnPlan): Promise<void> {
    if (!this.runs.get(runId)) return;
    let changed = false;
    await this.runs.update(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId);
      if (!a) return;
      const last = a.sessionIds.at(-1);
      if (last?.id === seen.sessionId) {
        if (seen.confirmed && !last.confirmed) last.confirmed = true;
        return;
      }
      changed = true;
      a.sessionIds.push({
        id: seen.sessionId,
        chosenBy: seen.sessionId === plan.sessionId ? (plan.chosenBy ?? 'vendor') : 'vendor',
        seenAt: now(),
        confirmed: seen.confirmed,
      });
    });
    if (changed) {
      await this.runs.history(runId, { type: 'session-id', agentId, sessionId: seen.sessionId });
      this.announce('agent.session', { runId, agentId, sessionId: seen.sessionId });
    }
  }

  /** `stopped`: Baton asked it to stop; otherwise it exited on its own. Returns the agent's label. */
  async exited(
    runId: string,
    agentId: string,
    exitCode: number,
    stopped: boolean,
    terminalId: string | null,
  ): Promise<string> {
    await this.runs.update(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId);
      if (!a) return;
      a.status = stopped ? 'stopped' : 'exited';
      a.exitCode = exitCode;
    });
    const label = this.runs.get(runId)?.agents.find((a) => a.id === agentId)?.label ?? 'agent';
    await this.runs.history(runId, {
      type: stopped ? 'stopped' : 'exited',
      agentId,
      exitCode,
      message: `${label} ${stopped ? 'stopped' : `exited with code ${exitCode}`}`,
    });
    this.announce('agent.status', {
      runId,
      agentId,
      status: stopped ? 'stopped' : 'exited',
      terminalId,
      exitCode,
    });
    return label;
  }
}
