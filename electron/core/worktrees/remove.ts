// Removing a worktree Baton created: refused over uncommitted changes unless forced, and its branch deleted only
// when Baton made it, nothing else checks it out, and it is merged (or the user said to drop it).
import { WorktreeError } from './errors.js';
import { git, gitFailure } from './git.js';
import { forget, ownedEntry } from './owned.js';
import { exists } from './paths.js';
import { listWorktrees } from './porcelain.js';
import { branchExists, describeFiles, dropStale, uncommitted } from './repo-queries.js';
import type { RemoveRequest, RemoveResult, WorktreeContext } from './types.js';

/** Removes a worktree Baton created. Refuses uncommitted changes unless `force`; keeps an unmerged branch. */
export async function removeWorktree(ctx: WorktreeContext, request: RemoveRequest): Promise<RemoveResult> {
  const { env } = ctx;
  const entry = await ownedEntry(ctx.ledger, request.worktreePath);
  const gitDirOpts = { cwd: entry.commonDir, env };
  const withGitDir = (args: string[]) => ['--git-dir', entry.commonDir, ...args];
  if (await exists(entry.path)) {
    const dirty = await uncommitted(env, entry.path, true);
    if (dirty.length > 0 && request.force !== true) {
      throw new WorktreeError(
        'dirty',
        `the worktree ${entry.path} has uncommitted changes (${describeFiles(dirty)}): commit them, or remove it with force to discard them`,
      );
    }
    const args = withGitDir(['worktree', 'remove', ...(request.force === true ? ['--force'] : []), entry.path]);
    const removed = await git(args, gitDirOpts);
    if (removed.exitCode !== 0)
      throw gitFailure(
        `removing the worktree ${entry.path}`,
        removed,
        'a locked worktree must be unlocked first (git worktree unlock)',
      );
  } else {
    await dropStale(env, entry.commonDir, entry.path);
  }
  await forget(ctx.ledger, entry.path);
  const result: RemoveResult = { worktreePath: entry.path, branch: entry.branch, branchDeleted: false };
  if (!entry.branchCreated) {
    result.branchKept = 'the branch existed before Baton used it: kept';
    return result;
  }
  if (!(await branchExists(env, entry.commonDir, entry.branch, true))) {
    result.branchKept = 'the branch no longer exists';
    return result;
  }
  const holder = (await listWorktrees(gitDirOpts).catch(() => [])).find(
    (w) => w.branch === entry.branch && !w.prunable,
  );
  if (holder) {
    result.branchKept = `the branch is checked out in ${holder.path}: kept`;
    return result;
  }
  // `git branch -d` refuses a branch not merged into the HEAD of the checkout it runs in: that is the rule.
  const flag = request.deleteUnmergedBranch === true ? '-D' : '-d';
  const deleted = (await exists(entry.repoRoot))
    ? await git(['branch', flag, entry.branch], { cwd: entry.repoRoot, env })
    : await git(withGitDir(['branch', flag, entry.branch]), gitDirOpts);
  if (deleted.exitCode === 0) {
    result.branchDeleted = true;
  } else if (/not fully merged/.test(deleted.stderr)) {
    result.branchKept = `branch ${entry.branch} has unmerged commits: kept (merge it, or delete it with deleteUnmergedBranch)`;
  } else {
    result.branchKept = gitFailure(`deleting branch ${entry.branch}`, deleted).message;
  }
  return result;
}
