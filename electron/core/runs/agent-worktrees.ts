// Each agent in its own git worktree, seen from the runs (docs/worktrees.md, docs/architecture.md §5): what a
// run.start or agent.add asks for is checked before anything is created; a new agent's worktree is created (and its
// setup command run, if approved) before its CLI starts; a resumed agent's worktree is found again, re-created from
// its branch, or the agent fails with the reason; the worktrees of live agents are watched for their changed-file
// count. The `Worktrees` module underneath knows git and files only; this knows agents, runs and handles.
//
// Paths that came from a handle are a secret and may lead anywhere: a refusal names the field and the rule, never
// the path, and nothing is written at a path a handle chose unless Baton's own ledger already holds it.
// This class is that part's one face; its jobs live in worktree-*.ts (the requests, the checks and creation, the
// resume, the change watcher, git's small answers).
import type { AgentSpec, RequestTable, Result } from '../../../shared/contract.js';
import type { HandleWorktree } from '../handle/codec.js';
import type { AgentRecord, WorktreeRecord } from '../store/types.js';
import { exists } from '../worktrees/paths.js';
import type { Worktrees } from '../worktrees/index.js';
import { conflict } from './errors.js';
import type { RunReader } from './run-repository.js';
import type { Announce } from './views.js';
import { uncommittedCount } from './worktree-git.js';
import { asBatonError, removedMessage } from './worktree-messages.js';
import { checkIntent, createPrepared } from './worktree-prepare.js';
import { worktreeRequests } from './worktree-requests.js';
import { assessWorktree, reopenPrepared } from './worktree-resume.js';
import type {
  AgentWorktreeContext,
  PreparedWorktree,
  RepoMap,
  WorktreeAssessment,
  WorktreeIntent,
  WorktreeMethod,
} from './worktree-types.js';
import { ChangeWatcher } from './worktree-watch.js';

export type {
  HostWorktreeIntent,
  PreparedWorktree,
  RepoMap,
  WorktreeAssessment,
  WorktreeIntent,
  WorktreeMethod,
} from './worktree-types.js';
export { asBatonError } from './worktree-messages.js';

export class AgentWorktrees {
  private readonly ctx: AgentWorktreeContext;
  private readonly watcher: ChangeWatcher;
  readonly requests: RequestTable<WorktreeMethod>;

  constructor(
    readonly worktrees: Worktrees,
    runs: RunReader,
    private readonly env: NodeJS.ProcessEnv,
    announce: Announce,
  ) {
    this.ctx = { worktrees, env };
    this.watcher = new ChangeWatcher(env, announce);
    this.requests = worktreeRequests(this.ctx, runs);
  }

  /**
   * What run.start or agent.add asked for one agent, checked before the run changes: a repository where a
   * worktree is wanted, an existing branch, a base that is a commit. The user typed `cwd` (its real path is
   * `realCwd`), so an error may name it. null: the agent works in its directory as it is.
   */
  check(spec: AgentSpec, realCwd: string, field: string, who: string): Promise<WorktreeIntent | null> {
    return checkIntent(this.ctx, spec, realCwd, field, who);
  }

  /** A new agent's worktree: created (or an existing one taken), its include files copied, its setup run if approved. */
  create(runName: string, label: string, intent: WorktreeIntent): Promise<PreparedWorktree> {
    return createPrepared(this.ctx, runName, label, intent);
  }

  /**
   * Where a resumed agent's worktree is, writing nothing: still there (at its path, or wherever its branch is
   * checked out now), to be re-created from its branch, or gone with its branch (failed). `cwd` is the agent's
   * directory inside the recorded worktree. A path that exists but leads elsewhere is `refused`.
   */
  assess(ref: HandleWorktree, cwd: string, repoMap?: RepoMap): Promise<WorktreeAssessment> {
    return assessWorktree(this.ctx, ref, cwd, repoMap);
  }

  /**
   * Before a resumed (or restarted) agent starts: its worktree as `assess` finds it, re-created from its branch when
   * its directory is gone. Throws a BatonError with the reason when it cannot be brought back.
   */
  reopen(
    runName: string,
    agent: AgentRecord & { worktree: WorktreeRecord },
    repoMap?: RepoMap,
  ): Promise<PreparedWorktree> {
    return reopenPrepared(this.ctx, runName, agent, repoMap);
  }

  async changes(worktree: WorktreeRecord): Promise<Result<'agent.changes'>> {
    if (!(await exists(worktree.worktreePath)))
      throw conflict(
        `its worktree ${worktree.worktreePath} is gone: resuming the agent re-creates it from branch ${worktree.branch}`,
      );
    try {
      const c = await this.worktrees.changes(worktree.worktreePath, worktree.baseCommit);
      return {
        branch: worktree.branch,
        baseCommit: worktree.baseCommit,
        files: c.filesChanged,
        insertions: c.insertions,
        deletions: c.deletions,
        stat: c.stat,
        untracked: c.untracked,
        patch: c.patch,
        truncated: c.truncated,
      };
    } catch (err) {
      throw asBatonError(err);
    }
  }

  /** The agent's branch into the base branch its worktree was made from, in the checkout that has it. */
  async merge(worktree: WorktreeRecord): Promise<Result<'agent.merge'>> {
    try {
      let into = worktree.baseBranch;
      if (into === null) {
        into = (await this.worktrees.inspect(worktree.repoRoot))?.currentBranch ?? null;
        if (into === null)
          throw conflict(
            `there is no branch to merge ${worktree.branch} into: ${worktree.repoRoot} has a detached HEAD (check out the branch to merge into, then merge again)`,
          );
      }
      const r = await this.worktrees.merge({ repoRoot: worktree.repoRoot, branch: worktree.branch, into });
      if (!r.merged) return { merged: false, into, conflicts: r.conflicts, message: r.message };
      const done = r.alreadyUpToDate
        ? `${into} already has every commit of ${worktree.branch}: nothing to merge`
        : `merged ${worktree.branch} into ${into} (${r.commit.slice(0, 8)})`;
      const left = r.uncommittedInWorktree
        ? "; the agent's worktree also has uncommitted changes, which a merge does not carry: commit them there and merge again"
        : '';
      return { merged: true, into, conflicts: [], message: done + left };
    } catch (err) {
      throw asBatonError(err);
    }
  }

  async remove(
    worktree: WorktreeRecord,
    force: boolean,
    deleteBranch: boolean,
  ): Promise<Result<'agent.removeWorktree'>> {
    if (!worktree.created)
      throw conflict(
        `Baton did not create the worktree ${worktree.worktreePath} (it was there before): it leaves it alone; remove it yourself with git worktree remove`,
      );
    try {
      const r = await this.worktrees.remove({
        worktreePath: worktree.worktreePath,
        force,
        deleteUnmergedBranch: deleteBranch,
      });
      return { removed: true, branchKept: !r.branchDeleted, message: removedMessage(r) };
    } catch (err) {
      throw asBatonError(err);
    }
  }

  /**
   * For run.delete with removeWorktrees: refuses (before anything is stopped) while a worktree Baton created for the
   * run has uncommitted changes, since deleting the run would then leave or lose them.
   */
  async checkRemovable(agents: readonly AgentRecord[]): Promise<void> {
    for (const a of agents) {
      // An agent on another host: its host's core checks its worktree when its run there is deleted.
      if (a.host || !a.worktree?.created || !(await exists(a.worktree.worktreePath))) continue;
      const n = await uncommittedCount(this.env, a.worktree.worktreePath);
      if (n > 0) {
        throw conflict(
          `agent '${a.label}' has uncommitted changes in its worktree ${a.worktree.worktreePath} (${n} file${n === 1 ? '' : 's'}): commit them, or remove that worktree with force first; nothing was deleted`,
        );
      }
    }
  }

  /** The worktrees Baton created for these agents here that hold uncommitted work (the host's `worktrees.uncommitted`). */
  async uncommitted(agents: readonly AgentRecord[]): Promise<{ label: string; worktreePath: string; files: number }[]> {
    const out: { label: string; worktreePath: string; files: number }[] = [];
    for (const a of agents) {
      if (a.host || !a.worktree?.created || !(await exists(a.worktree.worktreePath))) continue;
      const files = await uncommittedCount(this.env, a.worktree.worktreePath);
      if (files > 0) out.push({ label: a.label, worktreePath: a.worktree.worktreePath, files });
    }
    return out;
  }

  /** Removes the worktrees Baton created for these agents (never with force; unmerged branches are kept). */
  async removeAll(agents: readonly AgentRecord[]): Promise<string[]> {
    const kept: string[] = [];
    for (const a of agents) {
      if (a.host || !a.worktree?.created) continue;
      try {
        await this.worktrees.remove({ worktreePath: a.worktree.worktreePath });
      } catch (err) {
        kept.push(`${a.label}: ${(err as Error).message}`);
      }
    }
    return kept;
  }

  /**
   * Watches a live agent's worktree: every ~2 s a `git status` (no index refresh, no lock); when it differs, the
   * changed-file count against the base (as `agent.changes` counts) is taken again, and announced when it changed.
   * The first count is always announced. The returned function stops it after one last count.
   */
  watch(runId: string, agentId: string, worktree: WorktreeRecord): () => void {
    return this.watcher.watch(runId, agentId, worktree);
  }

  /** Stops every watch (the core is closing). */
  close(): void {
    this.watcher.close();
  }
}
