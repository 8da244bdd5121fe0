// Making an agent's worktree: a free name, recorded in the ledger before git creates it, its include files copied;
// or an existing worktree of the repository, taken as it is.
import { chmod, lstat, mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WorktreeError } from './errors.js';
import { git, gitFailure, gitOk } from './git.js';
import { copyIncluded, INCLUDE_FILE, includedFiles, type IncludeResult } from './include.js';
import type { LedgerEntry } from './ledger.js';
import { namesFor, sanitiseSegment } from './names.js';
import { forget } from './owned.js';
import { checkedAbsolute, ensureChildDir, exists, isInside, realOrNull } from './paths.js';
import { listWorktrees } from './porcelain.js';
import {
  batonRefs,
  checkedBranch,
  commitOf,
  findListing,
  forkPoint,
  freeBranch,
  repoOf,
  validBranch,
} from './repo-queries.js';
import type { CreatedWorktree, CreateRequest, RepoInfo, WorktreeContext } from './types.js';

const MAX_CLASH = 100;
const MAX_NAME = 200;

/** One creation, run alone: the caller keeps creations one at a time (see `Worktrees.create`). */
export async function createWorktree(ctx: WorktreeContext, request: CreateRequest): Promise<CreatedWorktree> {
  const { env } = ctx;
  const info = await repoOf(env, request.repoRoot);
  checkName(request.runName, 'runName');
  checkName(request.label, 'label');
  if (request.existingBranch !== undefined && request.existingWorktree !== undefined) {
    throw new WorktreeError('invalid', 'give existingBranch or existingWorktree, not both');
  }
  if (request.existingWorktree !== undefined) return reuseWorktree(env, info, request.existingWorktree, request.base);

  const existingBranch =
    request.existingBranch === undefined
      ? undefined
      : await checkedBranch(env, info.repoRoot, request.existingBranch, true);
  let baseCommit: string;
  if (request.base !== undefined) baseCommit = await commitOf(env, info.repoRoot, request.base);
  else if (existingBranch !== undefined)
    baseCommit = await forkPoint(env, info.repoRoot, info.headCommit, existingBranch);
  else if (info.headCommit !== null) baseCommit = info.headCommit;
  else
    throw new WorktreeError(
      'invalid',
      `the repository at ${info.repoRoot} has no commits yet: make a first commit, then start the agent`,
    );

  const repoDir = await repoDirOf(ctx.baseDir, info);
  if (existingBranch !== undefined)
    await freeBranch(env, info, await listWorktrees({ cwd: info.repoRoot, env }), existingBranch);
  const taken = existingBranch === undefined ? await batonRefs(env, info.repoRoot) : [];
  let chosen: { branch: string; path: string } | undefined;
  for (let n = 1; n <= MAX_CLASH && !chosen; n++) {
    const names = namesFor(request.runName, request.label, n);
    const path = join(repoDir, names.dirName);
    if (await exists(path)) continue;
    if (
      existingBranch === undefined &&
      (refTaken(taken, names.branch) || !(await validBranch(env, info.repoRoot, names.branch)))
    )
      continue;
    chosen = { branch: existingBranch ?? names.branch, path };
  }
  if (!chosen)
    throw new WorktreeError(
      'conflict',
      `no free name for ${request.runName}/${request.label} under ${repoDir} (tried ${MAX_CLASH}): clean up old worktrees`,
    );

  const branchCreated =
    existingBranch === undefined ||
    (await ctx.ledger.list()).some(
      (e) => e.commonDir === info.commonDir && e.branch === existingBranch && e.branchCreated,
    );
  const entry: LedgerEntry = {
    path: chosen.path,
    commonDir: info.commonDir,
    repoRoot: info.repoRoot,
    branch: chosen.branch,
    branchCreated,
    baseCommit,
    run: request.runName,
    label: request.label,
    createdAt: new Date().toISOString(),
  };
  // Recorded first: a crash during `worktree add` leaves an entry to clean up, never an unknown worktree.
  await ctx.ledger.update((entries) => {
    const i = entries.findIndex((e) => e.path === entry.path);
    if (i >= 0) entries.splice(i, 1);
    entries.push(entry);
  });
  const args =
    existingBranch === undefined
      ? ['worktree', 'add', '-b', chosen.branch, chosen.path, baseCommit]
      : ['worktree', 'add', chosen.path, existingBranch];
  const added = await git(args, { cwd: info.repoRoot, env });
  if (added.exitCode !== 0) {
    await forget(ctx.ledger, entry.path);
    throw gitFailure(`creating the worktree ${chosen.path}`, added, 'check the repository with git worktree list');
  }
  await tightenMode(chosen.path);
  const included = await copyInclude(env, info.repoRoot, chosen.path);
  return {
    repoRoot: info.repoRoot,
    worktreePath: chosen.path,
    branch: chosen.branch,
    baseCommit,
    created: true,
    branchCreated,
    included,
  };
}

async function reuseWorktree(
  env: NodeJS.ProcessEnv,
  info: RepoInfo,
  given: string,
  base: string | undefined,
): Promise<CreatedWorktree> {
  const path = checkedAbsolute(given, 'existingWorktree');
  const real = await realOrNull(path);
  if (real === null) throw new WorktreeError('invalid', `existingWorktree ${path} does not exist`);
  const listing = await findListing(env, info.repoRoot, real);
  if (!listing || listing.bare) {
    throw new WorktreeError(
      'invalid',
      `${path} is not a worktree of the repository at ${info.repoRoot} (git worktree list does not show it): choose one of its worktrees`,
    );
  }
  const head = (
    await gitOk(
      ['rev-parse', '--verify', 'HEAD^{commit}'],
      { cwd: real, env, readOnly: true },
      `reading HEAD of ${real}`,
    )
  ).trim();
  const baseCommit =
    base !== undefined
      ? await commitOf(env, info.repoRoot, base)
      : await forkPoint(env, info.repoRoot, info.headCommit, head);
  const none: IncludeResult = { copied: [], skipped: [] };
  return {
    repoRoot: info.repoRoot,
    worktreePath: real,
    branch: listing.branch,
    baseCommit,
    created: false,
    branchCreated: false,
    included: none,
  };
}

/** `<realBase>/<repo name>`, created, real, a plain directory; the base must lie outside the repository. */
async function repoDirOf(baseDir: string, info: RepoInfo): Promise<string> {
  await mkdir(baseDir, { recursive: true, mode: 0o700 });
  const realBase = await realpath(baseDir);
  for (const root of [info.repoRoot, info.mainWorktree, dirname(info.commonDir)]) {
    if (root !== null && isInside(root, realBase)) {
      throw new WorktreeError(
        'invalid',
        `the worktree folder ${baseDir} is inside the repository ${root}: choose one outside it`,
      );
    }
  }
  const name = sanitiseSegment(basename(info.mainWorktree ?? info.repoRoot).replace(/\.git$/, ''), 'repo');
  return ensureChildDir(realBase, name, 'the worktree folder');
}

/** Never fails the creation: the worktree exists by now, and a copy that went wrong is reported instead. */
export async function copyInclude(env: NodeJS.ProcessEnv, checkout: string, worktree: string): Promise<IncludeResult> {
  try {
    const files = await includedFiles(checkout, env);
    if (!Array.isArray(files)) return { copied: [], skipped: [{ path: INCLUDE_FILE, reason: files.problem }] };
    return await copyIncluded(checkout, worktree, files);
  } catch (err) {
    return { copied: [], skipped: [{ path: INCLUDE_FILE, reason: err instanceof Error ? err.message : String(err) }] };
  }
}

/** git creates the directory with the umask's mode; an agent may start only where others cannot write. */
export async function tightenMode(path: string): Promise<void> {
  const info = await lstat(path);
  if (info.isDirectory() && (info.mode & 0o022) !== 0) await chmod(path, info.mode & 0o755);
}

function checkName(value: unknown, field: string): void {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NAME || value.includes('\0')) {
    throw new WorktreeError('invalid', `${field} must be a non-empty name of at most ${MAX_NAME} characters`);
  }
}

/** Whether `branch` is taken or would clash with a taken ref as a file/directory (`baton/x` vs `baton/x/y`). */
function refTaken(taken: readonly string[], branch: string): boolean {
  return taken.some((t) => t === branch || branch.startsWith(`${t}/`) || t.startsWith(`${branch}/`));
}
