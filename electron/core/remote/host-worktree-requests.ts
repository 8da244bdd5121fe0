// hosts.inspectWorktree and hosts.approveSetup: a folder on another host is that host's to inspect, and its setup
// command that host's to approve (its core keeps the approvals where the worktrees are made). The request goes on
// to that core as its own worktree.inspect / worktree.approveSetup (docs/hosts.md "Worktrees on a host").
// worktrees.uncommitted is the other direction: this core, as a host, says which of its run's worktrees hold uncommitted
// work, so the core whose run it serves can refuse a delete before it stops anything.
import type { RequestTable } from '../../../shared/contract.js';
import type { AgentWorktrees } from '../runs/agent-worktrees.js';
import type { RunRepository } from '../runs/run-repository.js';
import type { RemoteCore } from './remote-core.js';

export function hostWorktreeRequests(
  hosts: { core(alias: string): RemoteCore },
  local: { runs: Pick<RunRepository, 'find'>; worktrees: Pick<AgentWorktrees, 'uncommitted'> },
): RequestTable<'hosts.inspectWorktree' | 'hosts.approveSetup' | 'worktrees.uncommitted'> {
  return {
    'hosts.inspectWorktree': ({ host, cwd }) => hosts.core(host).call('worktree.inspect', { cwd }),
    'hosts.approveSetup': ({ host, repoRoot, hash }) =>
      hosts.core(host).call('worktree.approveSetup', { repoRoot, hash }),
    'worktrees.uncommitted': ({ run }) => local.worktrees.uncommitted(local.runs.find(run).agents),
  };
}
