// hosts.inspectWorktree and hosts.approveSetup: a folder on another host is that host's to inspect, and its setup
// command that host's to approve (its core keeps the approvals where the worktrees are made). The request goes on
// to that core as its own worktree.inspect / worktree.approveSetup (docs/hosts.md "Worktrees on a host").
import type { RequestTable } from '../../../shared/contract.js';
import type { RemoteCore } from './remote-core.js';

export function hostWorktreeRequests(hosts: {
  core(alias: string): RemoteCore;
}): RequestTable<'hosts.inspectWorktree' | 'hosts.approveSetup'> {
  return {
    'hosts.inspectWorktree': ({ host, cwd }) => hosts.core(host).call('worktree.inspect', { cwd }),
    'hosts.approveSetup': ({ host, repoRoot, hash }) =>
      hosts.core(host).call('worktree.approveSetup', { repoRoot, hash }),
  };
}
