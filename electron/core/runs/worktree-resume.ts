// A resumed (or restarted) agent's worktree: where it is now, without writing anything (the preview and the
// plan), then found again, reconnected, or re-created from its branch before the agent starts.
import { relative } from 'node:path';
import { isBranchName } from '../handle/branch-name.js';
import type { HandleWorktree } from '../handle/codec.js';
import type { AgentRecord, WorktreeRecord } from '../store/types.js';
import { git } from '../worktrees/git.js';
import { exists, realOrNull } from '../worktrees/paths.js';
import { listWorktrees } from '../worktrees/porcelain.js';
import type { IncludeResult } from '../worktrees/index.js';
import { failed } from './errors.js';
import { branchExists, cwdIn, existingCwd } from './worktree-git.js';
import { asBatonError, includeNotices } from './worktree-messages.js';
import { runSetup } from './worktree-prepare.js';
import type { AgentWorktreeContext, PreparedWorktree, RepoMap, WorktreeAssessment } from './worktree-types.js';

/**
 * Where a resumed agent's worktree is, writing nothing: still there (at its path, or wherever its branch is
 * checked out now), to be re-created from its branch, or gone with its branch (failed). `cwd` is the agent's
 * directory inside the recorded worktree. A path that exists but leads elsewhere is `refused`.
 */
export async function assessWorktree(
  ctx: AgentWorktreeContext,
  ref: HandleWorktree,
  cwd: string,
  repoMap?: RepoMap,
): Promise<WorktreeAssessment> {
  const { worktrees, env } = ctx;
  const rel = relative(ref.worktreePath, cwd);
  const subdir = rel.startsWith('..') || rel.startsWith('/') ? '' : rel;
  const mapped = repoMap?.[ref.repoRoot];
  const info = await worktrees.inspect(mapped ?? ref.repoRoot).catch(() => null);
  if (!info) {
    return {
      state: 'failed',
      reason:
        mapped === undefined
          ? 'its repository is gone (or is no longer a git repository): if it is elsewhere on this machine, point to it with repoMap'
          : 'the directory repoMap gives for its repository is not inside a git repository',
    };
  }
  const list = await listWorktrees({ cwd: info.repoRoot, env }).catch(() => []);
  if (mapped === undefined && (await exists(ref.worktreePath))) {
    const real = await realOrNull(ref.worktreePath);
    if (real !== ref.worktreePath)
      return {
        state: 'refused',
        field: 'worktreePath',
        reason: 'the worktree path leads elsewhere (a symbolic link on the way): refused',
      };
    let listing;
    for (const w of list) if (!w.bare && (w.path === real || (await realOrNull(w.path)) === real)) listing = w;
    if (!listing)
      return {
        state: 'refused',
        field: 'worktreePath',
        reason: "the worktree path is not a worktree of the agent's repository: refused",
      };
    const inside = await existingCwd(real, subdir);
    if (inside === null)
      return {
        state: 'refused',
        field: 'cwd',
        reason: "the agent's directory leads out of its worktree (a symbolic link): refused",
      };
    return {
      state: 'existing',
      repoRoot: info.repoRoot,
      worktreePath: real,
      branch: listing.branch ?? ref.branch,
      cwd: inside,
    };
  }
  // Moved (git worktree move), or the repository is elsewhere now: wherever the branch is checked out.
  for (const w of list) {
    if (w.bare || w.prunable || w.branch !== ref.branch) continue;
    const real = await realOrNull(w.path);
    if (real === null) continue;
    const inside = (await existingCwd(real, subdir)) ?? real;
    return { state: 'existing', repoRoot: info.repoRoot, worktreePath: real, branch: ref.branch, cwd: inside };
  }
  if (!isBranchName(ref.branch) || !(await branchExists(env, info.repoRoot, ref.branch))) {
    return {
      state: 'failed',
      reason: `its worktree and its branch ${ref.branch} are both gone${mapped === undefined ? '' : ' (in the repository repoMap gives)'}: nothing to resume from`,
    };
  }
  // Re-created where it was only when Baton's ledger says it made it there; anywhere else a new one is made.
  const owned =
    mapped === undefined &&
    (await worktrees.listOwned()).some((e) => e.path === ref.worktreePath && e.commonDir === info.commonDir);
  return { state: 'recreate', repoRoot: info.repoRoot, branch: ref.branch, subdir, samePath: owned };
}

/**
 * Before a resumed (or restarted) agent starts: its worktree as `assess` finds it, re-created from its branch when
 * its directory is gone. Throws a BatonError with the reason when it cannot be brought back.
 */
export async function reopenPrepared(
  ctx: AgentWorktreeContext,
  runName: string,
  agent: AgentRecord & { worktree: WorktreeRecord },
  repoMap?: RepoMap,
): Promise<PreparedWorktree> {
  const { worktrees, env } = ctx;
  const recorded = agent.worktree;
  const found = await assessWorktree(ctx, recorded, agent.cwd, repoMap);
  if (found.state === 'failed' || found.state === 'refused')
    throw failed(`its worktree cannot be used: ${found.reason}`);
  const owned = new Set((await worktrees.listOwned()).map((e) => e.path));
  if (found.state === 'existing') {
    // A repository that moved leaves its worktrees pointing at where it was: git repairs both sides' links.
    const linked = await git(['rev-parse', '--git-common-dir'], { cwd: found.worktreePath, env, readOnly: true });
    if (linked.exitCode !== 0) {
      const repaired = await git(['worktree', 'repair', found.worktreePath], { cwd: found.repoRoot, env });
      if (repaired.exitCode !== 0)
        throw failed(
          `its worktree could not be reconnected to the repository that moved: ${repaired.stderr.trim().split('\n')[0] ?? ''}`,
        );
    }
    const worktree = {
      ...recorded,
      repoRoot: found.repoRoot,
      worktreePath: found.worktreePath,
      branch: found.branch,
      created: recorded.created || owned.has(found.worktreePath),
    };
    return { worktree, cwd: found.cwd, notices: [], warning: null, message: null };
  }
  let path: string;
  let included: IncludeResult;
  try {
    if (found.samePath) {
      const again = await worktrees.reopen({
        repoRoot: found.repoRoot,
        worktreePath: recorded.worktreePath,
        branch: found.branch,
      });
      if (again.outcome === 'failed') throw failed(`its worktree could not be re-created: ${again.reason}`);
      path = again.worktreePath;
      included = again.outcome === 'recreated' ? again.included : { copied: [], skipped: [] };
    } else {
      const made = await worktrees.create({
        repoRoot: found.repoRoot,
        runName,
        label: agent.label,
        existingBranch: found.branch,
      });
      path = made.worktreePath;
      included = made.included;
    }
  } catch (err) {
    throw asBatonError(err);
  }
  const worktree: WorktreeRecord = {
    ...recorded,
    repoRoot: found.repoRoot,
    worktreePath: path,
    branch: found.branch,
    created: true,
  };
  const message = `its worktree was gone: re-created from branch ${found.branch}${found.samePath ? '' : ' in a new folder'}`;
  const notices = [`${message} (${path})`, ...includeNotices(included)];
  const where = await cwdIn(path, found.subdir);
  const setup = await runSetup(ctx, path, found.repoRoot);
  notices.push(...setup.notices);
  const warning = [where.warning, setup.warning].filter((w) => w !== null).join(' ');
  return { worktree, cwd: where.cwd, notices, warning: warning === '' ? null : warning, message };
}
