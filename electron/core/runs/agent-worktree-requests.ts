// The requests about one agent's own git worktree (agent.changes, agent.merge, agent.removeWorktree;
// docs/worktrees.md): an agent on another host is answered by that host's core, one here by this machine's worktrees.
// (The worktree.* and worktrees.* requests, about folders and left-over worktrees, are worktree-requests.ts.)
import type { RequestTable } from '../../../shared/contract.js';
import type { WorktreeRecord } from '../store/types.js';
import type { AgentSupervisor } from './agent-supervisor.js';
import type { AgentWorktrees } from './agent-worktrees.js';
import { conflict } from './errors.js';
import type { RunRepository } from './run-repository.js';

export type AgentWorktreeMethod = 'agent.changes' | 'agent.merge' | 'agent.removeWorktree';

interface Parts {
  runs: RunRepository;
  agents: AgentSupervisor;
  worktrees: AgentWorktrees;
}

/** `parts` is asked at each request: the run service builds this table before its own fields are set. */
export function agentWorktreeRequests(parts: () => Parts): RequestTable<AgentWorktreeMethod> {
  /** The agent's own worktree, or a conflict saying it has none. */
  const worktreeOf = (agentId: string): WorktreeRecord => {
    const { agent } = parts().runs.findAgent(agentId);
    if (!agent.worktree)
      throw conflict(`agent '${agent.label}' has no worktree of its own: it works in ${agent.cwd} directly`);
    return agent.worktree;
  };
  return {
    'agent.changes': ({ agentId }) => {
      const { runs, agents, worktrees } = parts();
      return agents.onItsHost(runs.findAgent(agentId), 'agent.changes', {}) ?? worktrees.changes(worktreeOf(agentId));
    },
    'agent.merge': ({ agentId }) => {
      const { runs, agents, worktrees } = parts();
      return agents.onItsHost(runs.findAgent(agentId), 'agent.merge', {}) ?? worktrees.merge(worktreeOf(agentId));
    },
    'agent.removeWorktree': async ({ agentId, force, deleteBranch }) => {
      const { runs, agents, worktrees } = parts();
      const found = runs.findAgent(agentId);
      const worktree = worktreeOf(agentId);
      if (agents.isLive(agentId))
        throw conflict(`agent '${found.agent.label}' is still running in its worktree: stop it first`);
      const opts = { ...(force ? { force } : {}), ...(deleteBranch ? { deleteBranch } : {}) };
      return (
        agents.onItsHost(found, 'agent.removeWorktree', opts) ??
        worktrees.remove(worktree, force === true, deleteBranch === true)
      );
    },
  };
}
