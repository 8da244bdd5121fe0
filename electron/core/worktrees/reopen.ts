// Bringing a resumed agent's worktree back: still there, or re-created at the same path from its branch when Baton
// made it; `assessReopen` answers without writing anything (the resume preview).
import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { copyInclude, tightenMode } from './create.js';
import { git, gitFailure } from './git.js';
import { plausibleBranch } from './names.js';
import { checkedAbsolute, exists, realOrNull } from './paths.js';
import { listWorktrees } from './porcelain.js';
import { branchExists, findListing, freeBranch, inspectRepo } from './repo-queries.js';
import type { ReopenRequest, ReopenResult, RepoInfo, WorktreeContext } from './types.js';

export type ReopenAssessment =
  | { outcome: 'existing'; worktreePath: string; branch: string | null }
  | { outcome: 'recreate'; worktreePath: string; path: string; info: RepoInfo; branch: string }
  | { outcome: 'failed'; reason: string };

export async function assessReopen(ctx: WorktreeContext, request: ReopenRequest): Promise<ReopenAssessment> {
  let path: string;
  try {
    path = checkedAbsolute(request.worktreePath, 'worktreePath');
  } catch (err) {
    return { outcome: 'failed', reason: (err as Error).message };
  }
  const info = await inspectRepo(ctx.env, request.repoRoot).catch(() => null);
  if (!info)
    return {
      outcome: 'failed',
      reason: `the repository at ${request.repoRoot} is gone or is no longer a git repository`,
    };
  if (await exists(path)) {
    const real = await realOrNull(path);
    const listing = real === null ? undefined : await findListing(ctx.env, info.repoRoot, real);
    if (!listing || real === null)
      return {
        outcome: 'failed',
        reason: `${path} exists but is no longer a worktree of the repository at ${info.repoRoot}`,
      };
    return { outcome: 'existing', worktreePath: real, branch: listing.branch };
  }
  const branch = request.branch;
  if (!plausibleBranch(branch) || !(await branchExists(ctx.env, info.repoRoot, branch))) {
    return {
      outcome: 'failed',
      reason: `the worktree ${path} and its branch ${branch} are both gone: nothing to resume from`,
    };
  }
  const entry = (await ctx.ledger.list()).find((e) => e.path === path && e.commonDir === info.commonDir);
  if (!entry)
    return {
      outcome: 'failed',
      reason: `the worktree ${path} is gone and Baton did not create it: re-create it with git worktree add ${path} ${branch}`,
    };
  return { outcome: 'recreate', worktreePath: path, path, info, branch };
}

export async function reopenWorktree(ctx: WorktreeContext, request: ReopenRequest): Promise<ReopenResult> {
  const { env } = ctx;
  const found = await assessReopen(ctx, request);
  if (found.outcome !== 'recreate') return found;
  const { path, info, branch } = found;
  try {
    const parent = await realpath(dirname(path)).catch(() => null);
    if (parent === null) await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    if ((await realpath(dirname(path))) !== dirname(path))
      return {
        outcome: 'failed',
        reason: `the folder of ${path} now leads elsewhere (a symbolic link): not re-created`,
      };
    await freeBranch(env, info, await listWorktrees({ cwd: info.repoRoot, env }), branch);
    const added = await git(['worktree', 'add', path, branch], { cwd: info.repoRoot, env });
    if (added.exitCode !== 0) throw gitFailure(`re-creating the worktree ${path} from branch ${branch}`, added);
    await tightenMode(path);
    const included = await copyInclude(env, info.repoRoot, path);
    return { outcome: 'recreated', worktreePath: path, branch, included };
  } catch (err) {
    return { outcome: 'failed', reason: (err as Error).message };
  }
}
