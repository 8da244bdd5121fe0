// The store's actions for agents' git worktrees (docs/worktrees.md): is a directory in a repository, the setup
// command's approval, an agent's changes, merge, removal, and the leftover worktrees no run owns. Like core-calls.ts
// they are the only way components reach the core (docs/architecture.md §12).
import type { BatonClient } from '../../shared/client.js';
import type { AgentView, Result, WorktreeInfo } from '../../shared/contract.js';
import type { Store } from './store.js';

export type RepoInspection = NonNullable<Result<'worktree.inspect'>>;
export type AgentChanges = Result<'agent.changes'>;
export type MergeResult = Result<'agent.merge'>;
export type RemoveResult = Result<'agent.removeWorktree'>;
export type OrphanWorktree = Result<'worktrees.orphans'>[number];
export type CleanupResult = Result<'worktrees.cleanup'>[number];

/** Per agent: its changed-file count as last heard, and how many `agent.changes` events came (a view refreshes on each). */
export interface ChangeCount {
  files: number;
  seq: number;
}

/**
 * A worktree removed from this page: the agent's view still names it (its record keeps it, so a resume can re-create
 * it from its branch), but until the agent has another terminal the page shows it as gone.
 */
export interface RemovedWorktree {
  path: string;
  terminalId: string | null;
}

/** The agent's worktree as the page shows it: null when it has none, or it was removed here since its last start. */
export function shownWorktree(s: Pick<Store, 'removedWorktrees'>, agent: AgentView): WorktreeInfo | null {
  const worktree = agent.worktree;
  const removed = s.removedWorktrees[agent.id];
  if (!worktree || (removed && removed.path === worktree.worktreePath && removed.terminalId === agent.terminalId))
    return null;
  return worktree;
}

export interface WorktreeCalls {
  /** The repository `cwd` is in (its branches, its setup command), or null when it is in none. */
  inspectWorktree(cwd: string, host?: string): Promise<RepoInspection | null>;
  /** `host`: a repository on that host, whose core keeps the approval (docs/hosts.md). */
  approveSetup(repoRoot: string, hash: string, host?: string): Promise<void>;
  /** The agent's diff against its base; also keeps the pane header's count current. */
  agentChanges(agentId: string): Promise<AgentChanges>;
  /** Only the count, for a pane header that has not heard an `agent.changes` event yet. */
  loadChangeCount(agentId: string): Promise<void>;
  /** The core's `agent.changes` event. */
  noteChanges(agentId: string, files: number): void;
  mergeAgent(agentId: string): Promise<MergeResult>;
  removeWorktree(agentId: string, options?: { force?: boolean; deleteBranch?: boolean }): Promise<RemoveResult>;
  listOrphanWorktrees(): Promise<OrphanWorktree[]>;
  /** `host`: a connected host's leftover worktrees, removed by its core. */
  cleanupWorktrees(paths: string[], host?: string): Promise<CleanupResult[]>;
  /** Text that is no secret (a path, a command) to the clipboard, never cleared; `what` names it in the toast. */
  copyPlain(text: string, what: string): Promise<void>;
}

export interface WorktreeCallDeps {
  set(partial: Partial<Store> | ((s: Store) => Partial<Store>)): void;
  get(): Store;
  client(): BatonClient | null;
  copyPlain(text: string): Promise<void>;
}

/** The agent and its run, wherever a loaded run holds it. */
export function findAgent(s: Pick<Store, 'runDetails'>, agentId: string): { runId: string; agent: AgentView } | null {
  for (const run of Object.values(s.runDetails)) {
    const agent = run.agents.find((a) => a.id === agentId);
    if (agent) return { runId: run.id, agent };
  }
  return null;
}

export function worktreeCalls({ set, get, client: current, copyPlain }: WorktreeCallDeps): WorktreeCalls {
  const client = (): BatonClient => {
    const c = current();
    if (!c) throw new Error('not connected to the Baton core; waiting to reconnect');
    return c;
  };
  const setCount = (agentId: string, files: number, bump: boolean) =>
    set((s) => {
      const old = s.changes[agentId];
      if (old && old.files === files && !bump) return {};
      return { changes: { ...s.changes, [agentId]: { files, seq: (old?.seq ?? 0) + (bump ? 1 : 0) } } };
    });
  /** After a merge or a removal the agent's view (its worktree) changed: show it. */
  const reloadRunOf = async (agentId: string) => {
    const found = findAgent(get(), agentId);
    if (found) await get().loadRun(found.runId);
  };

  return {
    // A folder on another host is inspected by that host's core.
    inspectWorktree: (cwd, host) =>
      host ? client().call('hosts.inspectWorktree', { host, cwd }) : client().call('worktree.inspect', { cwd }),

    async approveSetup(repoRoot, hash, host) {
      if (host) await client().call('hosts.approveSetup', { host, repoRoot, hash });
      else await client().call('worktree.approveSetup', { repoRoot, hash });
    },

    async agentChanges(agentId) {
      const changes = await client().call('agent.changes', { agentId });
      setCount(agentId, changes.files, false);
      return changes;
    },

    async loadChangeCount(agentId) {
      await get().agentChanges(agentId);
    },

    noteChanges: (agentId, files) => setCount(agentId, files, true),

    async mergeAgent(agentId) {
      const result = await client().call('agent.merge', { agentId });
      await reloadRunOf(agentId);
      return result;
    },

    async removeWorktree(agentId, options = {}) {
      const path = findAgent(get(), agentId)?.agent.worktree?.worktreePath;
      const result = await client().call('agent.removeWorktree', {
        agentId,
        ...(options.force ? { force: true } : {}),
        ...(options.deleteBranch ? { deleteBranch: true } : {}),
      });
      await reloadRunOf(agentId);
      if (result.removed && path) {
        const terminalId = findAgent(get(), agentId)?.agent.terminalId ?? null;
        set((s) => {
          const { [agentId]: _count, ...changes } = s.changes;
          return { changes, removedWorktrees: { ...s.removedWorktrees, [agentId]: { path, terminalId } } };
        });
      }
      return result;
    },

    listOrphanWorktrees: () => client().call('worktrees.orphans', {}),
    cleanupWorktrees: (paths, host) =>
      client().call('worktrees.cleanup', { paths, ...(host !== undefined ? { host } : {}) }),

    async copyPlain(text, what) {
      await copyPlain(text);
      get().toast('success', `${what} copied`);
    },
  };
}
