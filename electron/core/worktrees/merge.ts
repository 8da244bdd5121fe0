// Merging an agent's branch in the checkout that has the target branch: never over uncommitted changes, and a
// conflicted merge is aborted so that checkout is left as it was.
import { WorktreeError } from './errors.js';
import { git, gitFailure, gitOk, splitZ } from './git.js';
import { listWorktrees } from './porcelain.js';
import { checkedBranch, describeFiles, repoOf, uncommitted } from './repo-queries.js';
import type { MergeRequest, MergeResult } from './types.js';

/** `git merge --no-ff` of `branch` in the checkout that has `into`; a conflict is aborted and reported. */
export async function mergeBranch(env: NodeJS.ProcessEnv, request: MergeRequest): Promise<MergeResult> {
  const info = await repoOf(env, request.repoRoot);
  const branch = await checkedBranch(env, info.repoRoot, request.branch, true);
  const into =
    request.into === undefined ? info.currentBranch : await checkedBranch(env, info.repoRoot, request.into, true);
  if (into === null)
    throw new WorktreeError(
      'conflict',
      `${info.repoRoot} has a detached HEAD: check out the branch to merge into first (git switch <branch>)`,
    );
  if (into === branch) throw new WorktreeError('invalid', `cannot merge ${branch} into itself`);
  const list = await listWorktrees({ cwd: info.repoRoot, env });
  let target: string | null = info.currentBranch === into ? info.repoRoot : null;
  if (target === null) {
    const holder = list.find((w) => w.branch === into && !w.prunable && !w.bare);
    if (!holder)
      throw new WorktreeError(
        'conflict',
        `${into} is not checked out anywhere: run git switch ${into} in ${info.repoRoot} first`,
      );
    target = holder.path;
  }
  const opts = { cwd: target, env };
  const mergeHead = await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { ...opts, readOnly: true });
  if (mergeHead.exitCode === 0)
    throw new WorktreeError(
      'conflict',
      `a merge is already in progress in ${target}: finish it or run git merge --abort there first`,
    );
  const dirty = await uncommitted(env, target, false);
  if (dirty.length > 0) {
    throw new WorktreeError(
      'dirty',
      `${target} has uncommitted changes (${describeFiles(dirty)}): commit or stash them first; Baton never merges over them`,
    );
  }
  const holder = list.find((w) => w.branch === branch && !w.prunable && !w.bare);
  const uncommittedInWorktree = holder ? (await uncommitted(env, holder.path, true).catch(() => [])).length > 0 : false;

  const merged = await git(['merge', '--no-ff', '--no-edit', branch], opts);
  if (merged.exitCode === 0) {
    const commit = (await gitOk(['rev-parse', 'HEAD'], opts, 'reading the merge commit')).trim();
    return { merged: true, commit, alreadyUpToDate: /Already up.to.date/i.test(merged.stdout), uncommittedInWorktree };
  }
  const unmerged = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { ...opts, readOnly: true });
  const conflicts = unmerged.exitCode === 0 ? splitZ(unmerged.stdout) : [];
  const inProgress =
    (await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { ...opts, readOnly: true })).exitCode === 0;
  if (inProgress || conflicts.length > 0) {
    const abort = await git(['merge', '--abort'], opts);
    if (abort.exitCode !== 0)
      throw gitFailure(
        `aborting the conflicted merge of ${branch} into ${into} in ${target}`,
        abort,
        'resolve it there by hand (git status)',
      );
  }
  if (conflicts.length > 0) {
    return {
      merged: false,
      conflicts,
      message: `merging ${branch} into ${into} conflicts in ${describeFiles(conflicts)}: the merge was aborted and ${target} is as it was; resolve it in the agent's worktree (merge ${into} there) or by hand`,
    };
  }
  throw gitFailure(`merging ${branch} into ${into} in ${target}`, merged, 'nothing was changed');
}
