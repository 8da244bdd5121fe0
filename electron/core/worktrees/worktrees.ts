// Each agent in its own git worktree (docs/worktrees.md). A self-contained part of the core: it knows git and the
// file system, not runs or terminals. What Baton created is recorded in a ledger in the data directory, and only
// those worktrees are ever removed or cleaned up; a worktree or branch the user made is used, never deleted.
// This class is the module's one face; each job lives in its own file (create, reopen, merge, remove, owned).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { changesOf, DEFAULT_MAX_PATCH, type Changes } from './changes.js';
import { createWorktree } from './create.js';
import { WorktreeError } from './errors.js';
import { COMMIT, Ledger } from './ledger.js';
import { mergeBranch } from './merge.js';
import { listOwned, orphans, ownedEntry } from './owned.js';
import { checkedAbsolute, exists, realOrNull } from './paths.js';
import { removeWorktree } from './remove.js';
import { assessReopen, reopenWorktree } from './reopen.js';
import { inspectRepo, repoOf } from './repo-queries.js';
import { Approvals, readSetupCommand, runArgv, type SetupCommand, type SetupRun } from './setup.js';
import type {
  CleanupResult,
  CreatedWorktree,
  CreateRequest,
  MergeRequest,
  MergeResult,
  OwnedWorktree,
  RemoveRequest,
  RemoveResult,
  ReopenRequest,
  ReopenResult,
  RepoInfo,
  WorktreeContext,
  WorktreesOptions,
} from './types.js';

export function defaultBaseDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME ?? homedir(), '.baton', 'worktrees');
}

export class Worktrees {
  private readonly ctx: WorktreeContext;
  private readonly approvals: Approvals;
  /** Creations one at a time: two agents of one run must not both pick the same free name. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(options: WorktreesOptions) {
    const env = options.env ?? process.env;
    this.ctx = {
      env,
      baseDir: checkedAbsolute(options.baseDir ?? defaultBaseDir(env), 'the worktree base directory'),
      ledger: new Ledger(checkedAbsolute(options.dataDir, 'the data directory')),
    };
    this.approvals = new Approvals(options.dataDir);
  }

  /** Is `dir` inside a git checkout? null when it is not (or is a bare repository, or does not exist). */
  inspect(dir: string): Promise<RepoInfo | null> {
    return inspectRepo(this.ctx.env, dir);
  }

  /** A worktree for one agent: new (branch `baton/<run>/<label>`), on an existing branch, or an existing worktree. */
  create(request: CreateRequest): Promise<CreatedWorktree> {
    const next = this.serial.catch(() => undefined).then(() => createWorktree(this.ctx, request));
    this.serial = next;
    return next;
  }

  /**
   * What `reopen` would do, without doing anything (for a resume preview): `existing`, `recreate` (the directory
   * is gone, the branch is there, Baton created the worktree), or `failed` with the reason.
   */
  async probe(
    request: ReopenRequest,
  ): Promise<{ outcome: 'existing' | 'recreate'; worktreePath: string } | { outcome: 'failed'; reason: string }> {
    const found = await assessReopen(this.ctx, request);
    if (found.outcome === 'failed') return found;
    return { outcome: found.outcome, worktreePath: found.worktreePath };
  }

  /**
   * For a resume: the agent's worktree is there → run there; its directory is gone but the branch exists →
   * re-create it at the same path from the branch; the branch is gone too → failed, with the reason.
   */
  reopen(request: ReopenRequest): Promise<ReopenResult> {
    return reopenWorktree(this.ctx, request);
  }

  /** What changed in the worktree since `baseCommit`: committed, uncommitted and untracked, capped at `maxBytes`. */
  async changes(worktreePath: string, baseCommit: string, maxBytes = DEFAULT_MAX_PATCH): Promise<Changes> {
    const path = checkedAbsolute(worktreePath, 'worktreePath');
    const real = await realOrNull(path);
    if (real === null) throw new WorktreeError('invalid', `the worktree ${path} does not exist`);
    if (!COMMIT.test(baseCommit)) throw new WorktreeError('invalid', 'baseCommit must be a full commit id (hex)');
    return changesOf(real, baseCommit, this.ctx.env, maxBytes);
  }

  /** `git merge --no-ff` of `branch` in the checkout that has `into`; a conflict is aborted and reported. */
  merge(request: MergeRequest): Promise<MergeResult> {
    return mergeBranch(this.ctx.env, request);
  }

  /** Removes a worktree Baton created. Refuses uncommitted changes unless `force`; keeps an unmerged branch. */
  remove(request: RemoveRequest): Promise<RemoveResult> {
    return removeWorktree(this.ctx, request);
  }

  /** Every worktree Baton created and has not removed, with whether its directory is still there. */
  listOwned(): Promise<OwnedWorktree[]> {
    return listOwned(this.ctx.ledger);
  }

  /** Baton's worktrees that no run claims (`ownedByRuns`: the worktree paths recorded in runs). */
  orphans(ownedByRuns: ReadonlySet<string>): Promise<OwnedWorktree[]> {
    return orphans(this.ctx.ledger, ownedByRuns);
  }

  /** Removes each of `paths` that Baton created (never with force); reports per path what happened. */
  async cleanup(paths: readonly string[], options: { force?: boolean } = {}): Promise<CleanupResult[]> {
    const out: CleanupResult[] = [];
    for (const worktreePath of paths) {
      try {
        out.push({
          worktreePath,
          ok: true,
          result: await this.remove({ worktreePath, force: options.force === true }),
        });
      } catch (err) {
        out.push({ worktreePath, ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return out;
  }

  /** The checkout's setup command (`.baton/setup.json`), or null when it has none. A malformed file throws. */
  async setupCommandOf(repoRoot: string): Promise<SetupCommand | null> {
    const info = await repoOf(this.ctx.env, repoRoot);
    const found = await readSetupCommand(info.repoRoot, info.commonDir);
    if (found.ok) return found.command;
    if (found.missing) return null;
    throw new WorktreeError('invalid', `the setup command cannot be used: ${found.reason}`);
  }

  approve(hash: string): Promise<void> {
    return this.approvals.add(hash);
  }

  isApproved(hash: string): Promise<boolean> {
    return this.approvals.has(hash);
  }

  /**
   * Runs the setup command of the worktree's repository in a worktree Baton created, if the user approved that
   * exact command; null when the repository has none. Output goes to `onOutput` as it arrives.
   */
  async runSetup(worktreePath: string, onOutput?: (text: string) => void): Promise<SetupRun | null> {
    const entry = await ownedEntry(this.ctx.ledger, worktreePath);
    const command = await this.setupCommandOf(entry.repoRoot);
    if (command === null) return null;
    if (!(await this.approvals.has(command.hash))) {
      throw new WorktreeError(
        'not-approved',
        `the setup command ${JSON.stringify(command.argv)} of ${entry.repoRoot} has not been approved (or changed since): approve it to run it`,
      );
    }
    if (!(await exists(entry.path))) throw new WorktreeError('invalid', `the worktree ${entry.path} does not exist`);
    return runArgv(command, entry.path, this.ctx.env, onOutput);
  }
}
