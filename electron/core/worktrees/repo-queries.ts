// Questions to git about one repository (what it is, its branches and commits, a checkout's uncommitted files) and
// the one repair creation, re-creation and removal share: releasing a worktree whose directory is gone.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { WorktreeError } from './errors.js';
import { git, gitFailure, gitOk, splitZ } from './git.js';
import { COMMIT } from './ledger.js';
import { plausibleBranch } from './names.js';
import { checkedAbsolute, exists, realOrNull } from './paths.js';
import { listWorktrees, type WorktreeListing } from './porcelain.js';
import type { RepoInfo } from './types.js';

type Env = NodeJS.ProcessEnv;

/** Is `dir` inside a git checkout? null when it is not (or is a bare repository, or does not exist). */
export async function inspectRepo(env: Env, dir: string): Promise<RepoInfo | null> {
  const real = await realOrNull(checkedAbsolute(dir, 'the directory'));
  if (real === null || !(await stat(real)).isDirectory()) return null;
  const opts = { cwd: real, env, readOnly: true };
  const top = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], opts);
  if (top.exitCode !== 0) {
    // Not a repository is an answer; git refusing one (someone else's: "dubious ownership") or missing is not.
    if (top.exitCode === null || /dubious ownership|safe\.directory/.test(top.stderr)) {
      throw gitFailure(`reading the repository at ${real}`, top, 'see git config safe.directory');
    }
    return null;
  }
  const [toplevel, gitDir, common] = top.stdout.split('\n');
  if (!toplevel || !gitDir || !common) return null;
  const repoRoot = await realpath(toplevel);
  const realGitDir = await realpath(gitDir);
  const commonDir = await realpath(isAbsolute(common) ? common : resolve(real, common));
  const head = await git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], opts);
  const sym = await git(['symbolic-ref', '-q', '--short', 'HEAD'], opts);
  const list = await listWorktrees({ cwd: repoRoot, env });
  const first = list[0];
  return {
    repoRoot,
    headCommit: head.exitCode === 0 ? head.stdout.trim() : null,
    currentBranch: sym.exitCode === 0 ? sym.stdout.trim() : null,
    isWorktree: realGitDir !== commonDir,
    mainWorktree: first && !first.bare ? ((await realOrNull(first.path)) ?? first.path) : null,
    commonDir,
  };
}

/** As `inspectRepo`, but a directory outside any repository is an error. */
export async function repoOf(env: Env, dir: string): Promise<RepoInfo> {
  const info = await inspectRepo(env, dir);
  if (!info)
    throw new WorktreeError(
      'not-a-repo',
      `${dir} is not inside a git repository: choose a folder of a git checkout, or run the agent without a worktree`,
    );
  return info;
}

export async function findListing(env: Env, repoRoot: string, real: string): Promise<WorktreeListing | undefined> {
  for (const w of await listWorktrees({ cwd: repoRoot, env })) {
    if (w.path === real || (await realOrNull(w.path)) === real) return w;
  }
  return undefined;
}

/** A branch checked out by a worktree whose directory is gone is released; one in use elsewhere is refused. */
export async function freeBranch(
  env: Env,
  info: RepoInfo,
  list: readonly WorktreeListing[],
  branch: string,
): Promise<void> {
  for (const w of list) {
    if (w.branch !== branch) continue;
    if (w.prunable || !(await exists(w.path))) await dropStale(env, info.commonDir, w.path);
    else
      throw new WorktreeError(
        'conflict',
        `branch ${branch} is already checked out in ${w.path}: reuse that worktree (existingWorktree) or choose another branch`,
      );
  }
}

/** Forgets the record of one worktree whose directory is gone; `git worktree prune` only if git cannot. */
export async function dropStale(env: Env, commonDir: string, path: string): Promise<void> {
  const opts = { cwd: commonDir, env };
  const listed = (await listWorktrees(opts)).some((w) => w.path === path);
  if (!listed) return;
  const removed = await git(['--git-dir', commonDir, 'worktree', 'remove', path], opts);
  if (removed.exitCode !== 0)
    await gitOk(['--git-dir', commonDir, 'worktree', 'prune'], opts, 'pruning stale worktrees');
}

export async function checkedBranch(env: Env, repoRoot: string, name: string, mustExist: boolean): Promise<string> {
  if (typeof name !== 'string' || !plausibleBranch(name) || !(await validBranch(env, repoRoot, name))) {
    throw new WorktreeError(
      'invalid',
      `${JSON.stringify(String(name).slice(0, 100))} is not a valid branch name (git check-ref-format --branch refuses it)`,
    );
  }
  if (mustExist && !(await branchExists(env, repoRoot, name)))
    throw new WorktreeError('invalid', `there is no branch ${name} in ${repoRoot}`);
  return name;
}

export async function validBranch(env: Env, repoRoot: string, name: string): Promise<boolean> {
  if (!plausibleBranch(name)) return false;
  const r = await git(['check-ref-format', '--branch', name], { cwd: repoRoot, env, readOnly: true });
  return r.exitCode === 0 && r.stdout.trim() === name;
}

export async function branchExists(env: Env, cwd: string, name: string, gitDir = false): Promise<boolean> {
  const args = ['show-ref', '--verify', '-q', `refs/heads/${name}`];
  return (await git(gitDir ? ['--git-dir', cwd, ...args] : args, { cwd, env, readOnly: true })).exitCode === 0;
}

/** Every branch under `baton` (and a branch named `baton` itself), for clash checks. */
export async function batonRefs(env: Env, repoRoot: string): Promise<string[]> {
  const out = await gitOk(
    ['for-each-ref', '--format=%(refname)', 'refs/heads/baton'],
    { cwd: repoRoot, env, readOnly: true },
    'listing branches',
  );
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/^refs\/heads\//, ''));
}

export async function commitOf(env: Env, repoRoot: string, rev: string): Promise<string> {
  if (typeof rev !== 'string' || rev === '' || rev.startsWith('-') || rev.length > 255 || /[\0\s]/.test(rev)) {
    throw new WorktreeError('invalid', 'base must be a branch name or a commit');
  }
  const r = await git(['rev-parse', '-q', '--verify', `${rev}^{commit}`], { cwd: repoRoot, env, readOnly: true });
  if (r.exitCode !== 0)
    throw new WorktreeError(
      'invalid',
      `base ${JSON.stringify(rev.slice(0, 100))} is not a branch or commit of ${repoRoot}`,
    );
  return r.stdout.trim();
}

/** Where `rev` left the checkout's HEAD (their merge base), else `rev` itself. */
export async function forkPoint(env: Env, repoRoot: string, head: string | null, rev: string): Promise<string> {
  const tip = await commitOf(env, repoRoot, rev);
  if (head === null) return tip;
  const r = await git(['merge-base', head, tip], { cwd: repoRoot, env, readOnly: true });
  return r.exitCode === 0 && COMMIT.test(r.stdout.trim()) ? r.stdout.trim() : tip;
}

/** `git status --porcelain` entries (tracked changes; and untracked, not ignored, files if asked). */
export async function uncommitted(env: Env, dir: string, untracked: boolean): Promise<string[]> {
  const args = [
    'status',
    '--porcelain=v1',
    '-z',
    `--untracked-files=${untracked ? 'all' : 'no'}`,
    '--ignore-submodules=none',
  ];
  const out = await gitOk(args, { cwd: dir, env, readOnly: true }, `reading the status of ${dir}`);
  const files: string[] = [];
  const parts = splitZ(out);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] ?? '';
    files.push(p.slice(3));
    // A rename or copy is followed by its source path.
    if (p[0] === 'R' || p[0] === 'C') i += 1;
  }
  return files;
}

export function describeFiles(files: readonly string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return `${files.length} file${files.length === 1 ? '' : 's'}: ${shown}${files.length > 5 ? ', …' : ''}`;
}
