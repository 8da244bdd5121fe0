// From a run to what resumes it elsewhere: its Baton handle, and the vendor commands a user can type themselves.
import type { ResumeCommand } from '../../../shared/contract.js';
import { encodeHandle, type HandleAgent } from '../handle/codec.js';
import type { RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import { conflict, notFound } from './errors.js';
import { currentSessionId } from './views.js';

/** The whole run's handle, or one agent's (by label or id). */
export function handleOf(run: RunManifest, vendors: Vendors, agentLabel?: string): string {
  const agents =
    agentLabel === undefined ? run.agents : run.agents.filter((a) => a.label === agentLabel || a.id === agentLabel);
  if (agents.length === 0) throw notFound(`run '${run.name}' has no agent '${agentLabel}'`);
  const handleAgents: HandleAgent[] = agents.map((a) => {
    const sessionId = currentSessionId(a);
    const adapter = vendors.get(a.vendor);
    if (sessionId === null && adapter?.sessionIdPattern) {
      throw conflict(
        `agent '${a.label}' has no ${a.vendor} session id yet, so it cannot be resumed; try again once it has started`,
      );
    }
    // The worktree travels as where it is and what it came from; never whether Baton made it or how to set it up.
    const worktree = a.worktree
      ? {
          repoRoot: a.worktree.repoRoot,
          worktreePath: a.worktree.worktreePath,
          branch: a.worktree.branch,
          baseCommit: a.worktree.baseCommit,
        }
      : undefined;
    return {
      id: a.id,
      label: a.label,
      vendor: a.vendor,
      sessionId,
      cwd: a.cwd,
      ...(worktree ? { worktree } : {}),
      ...(a.host ? { host: a.host } : {}),
    };
  });
  return encodeHandle({
    run: { name: run.name, id: run.id },
    createdAt: new Date().toISOString(),
    agents: handleAgents,
    scope: agentLabel === undefined ? 'run' : 'agent',
  });
}

export function resumeCommandsOf(
  run: RunManifest,
  env: VendorEnv,
  vendors: Vendors,
  agentLabel?: string,
): ResumeCommand[] {
  return run.agents
    .filter((a) => agentLabel === undefined || a.label === agentLabel || a.id === agentLabel)
    .map((a) => {
      const adapter = vendors.get(a.vendor);
      const sessionId = currentSessionId(a);
      const argv =
        a.command ??
        (adapter && sessionId ? adapter.resumeCommand(sessionId) : adapter ? [adapter.defaultBin(env)] : []);
      return { agentId: a.id, label: a.label, vendor: a.vendor, cwd: a.cwd, argv };
    });
}
