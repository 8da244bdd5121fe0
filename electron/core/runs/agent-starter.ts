// Starting a resolved handle's agents (run.resume): the run continues in the store (or is created there), each agent
// is launched as planned, and what happened to each is reported as its outcome (docs/architecture.md §5, §10).
import type { ResumeOutcome } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import type { AgentSupervisor } from './agent-supervisor.js';
import type { RepoMap } from './agent-worktrees.js';
import { invalid } from './errors.js';
import type { PlannedAgent, ResumePlanner, ResumeTarget } from './resume-planner.js';
import { now, type RunRepository } from './run-repository.js';
import { startTogether } from './start-together.js';
import { currentSessionId } from './views.js';

const SHELL_NOT_CONFIRMED =
  'not started: a shell agent from a handle runs a command in the directory the handle names, so it starts only once you confirm it';

export class AgentStarter {
  constructor(
    private readonly runs: RunRepository,
    private readonly planner: ResumePlanner,
    private readonly agents: AgentSupervisor,
    /** Tells the clients the run changed (RunService.announce). */
    private readonly runChanged: (runId: string) => void,
  ) {}

  /**
   * A resolved handle, started: the run continues in the store (or is created there) and each agent is launched as
   * planned. `confirmShell`: the handle indexes of the shell agents the user confirmed. Any other shell agent is not
   * started, and one new to this store is not added to it either, so a later resume of the run by name (which
   * confirms its own agents) can never start it unconfirmed (docs/architecture.md §10).
   */
  async startTarget(
    target: ResumeTarget,
    confirmShell: ReadonlySet<number>,
    repoMap?: RepoMap,
  ): Promise<{ runId: string; outcomes: ResumeOutcome[] }> {
    const held = (p: PlannedAgent) =>
      p.agent.vendor === 'shell' && !confirmShell.has(p.index) && !this.agents.isLive(p.agent.id);
    const adopted = target.agents.filter((p) => p.known || !held(p)).map((p) => p.agent);
    const { runId } = target;
    if (!this.runs.get(runId)) {
      // A run with no agent is not a run: every agent was a shell agent the user did not confirm.
      if (adopted.length === 0)
        throw invalid(
          'nothing to resume: every agent of this handle is a shell agent, and none was confirmed',
          'confirmShell',
        );
      const at = now();
      const run: RunManifest = {
        v: 1,
        id: runId,
        name: target.runName,
        createdAt: at,
        updatedAt: at,
        agents: adopted,
        lastSnapshot: null,
      };
      await this.runs.create(
        run,
        `created from a handle with ${adopted.length} agent${adopted.length === 1 ? '' : 's'}`,
      );
    } else if (adopted.some((r) => !this.runs.get(runId)!.agents.some((a) => a.id === r.id))) {
      await this.runs.addAgents(runId, adopted, 'agents');
    }
    const outcomes = await startTogether(
      target.agents,
      (planned) => planned.agent.worktree !== undefined,
      async (planned): Promise<ResumeOutcome> => {
        const { id, label, vendor } = planned.agent;
        if (held(planned))
          return { agentId: id, label, vendor, outcome: 'failed', sessionId: null, message: SHELL_NOT_CONFIRMED };
        if (this.agents.isLive(id)) {
          const agent = this.runs.get(runId)!.agents.find((a) => a.id === id)!;
          return {
            agentId: id,
            label: agent.label,
            vendor: agent.vendor,
            outcome: 'resumed',
            sessionId: currentSessionId(agent),
            message: 'already running',
          };
        }
        return this.startPlannedAgent(runId, target.runName, planned, repoMap);
      },
    );
    const counts = (['resumed', 'fresh', 'failed'] as const)
      .map((k) => `${outcomes.filter((o) => o.outcome === k).length} ${k}`)
      .join(', ');
    await this.runs.history(runId, { type: 'resumed', message: `resumed from a handle: ${counts}` });
    this.runChanged(runId);
    return { runId, outcomes };
  }

  /**
   * One planned agent of a resume: its worktree first (found, or re-created from its branch; the agent fails with
   * the reason when it cannot be), planned again if that moved its directory, then started.
   */
  private async startPlannedAgent(
    runId: string,
    runName: string,
    planned: PlannedAgent,
    repoMap?: RepoMap,
  ): Promise<ResumeOutcome> {
    let agent = this.runs.get(runId)!.agents.find((a) => a.id === planned.agent.id)!;
    // What the planner found (a moved worktree, a mapped repository) is where the agent runs now.
    if (planned.worktree?.state === 'existing')
      agent = {
        ...agent,
        cwd: planned.agent.cwd,
        ...(planned.agent.worktree ? { worktree: planned.agent.worktree } : {}),
      };
    const { id, label, vendor } = agent;
    // A host the user mapped to another alias: the agent lives there from now on (docs/hosts.md).
    if (planned.agent.host !== agent.host && planned.agent.host) {
      const host = planned.agent.host;
      await this.runs.update(runId, (m) => {
        const a = m.agents.find((x) => x.id === id);
        if (a) a.host = host;
      });
      agent = { ...agent, host };
    }
    if (planned.worktree?.state === 'failed' || planned.worktree?.state === 'refused') {
      const message = `its worktree cannot be used: ${planned.worktree.reason}`;
      await this.agents.markFailed(runId, id, message);
      return { agentId: id, label, vendor, outcome: 'failed', sessionId: currentSessionId(agent), message };
    }
    if (!agent.worktree) return this.agents.startPlanned(runId, agent, planned.plan, planned.found);
    const ready = await this.agents.prepareWorktree(runId, agent, undefined, repoMap);
    if (!ready.ok)
      return {
        agentId: id,
        label,
        vendor,
        outcome: 'failed',
        sessionId: currentSessionId(agent),
        message: ready.message,
      };
    let { plan, found } = planned;
    if (ready.agent.cwd !== planned.agent.cwd)
      ({ plan, found } = await this.planner.replan(runName, ready.agent, planned.sessionId));
    return this.agents.startPlanned(runId, ready.agent, plan, found, ready.prepared);
  }
}
