// Small read-only questions the runs ask git and the file system about an agent's worktree: changed-file counts,
// branches, commits, and where inside the worktree the agent's folder is.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { git, splitZ } from '../worktrees/git.js';
import { isInside, realOrNull } from '../worktrees/paths.js';

type Env = NodeJS.ProcessEnv;

const MAX_BRANCHES = 200;

/** Files that differ from `baseCommit` (committed or not) plus untracked ones; without a base, uncommitted ones. */
export async function changedCount(env: Env, dir: string, baseCommit?: string): Promise<number> {
  if (baseCommit === undefined) return uncommittedCount(env, dir);
  const opts = { cwd: dir, env, readOnly: true };
  const tracked = await git(['diff', '--name-only', '-z', '--no-ext-diff', '--no-textconv', baseCommit, '--'], opts);
  const others = await git(['ls-files', '-z', '--others', '--exclude-standard'], opts);
  if (tracked.exitCode !== 0 || others.exitCode !== 0) throw new Error(`git could not read the changes in ${dir}`);
  return splitZ(tracked.stdout).length + splitZ(others.stdout).length;
}

export async function uncommittedCount(env: Env, dir: string): Promise<number> {
  const st = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: dir, env, readOnly: true });
  if (st.exitCode !== 0) return 0;
  let n = 0;
  const parts = splitZ(st.stdout);
  for (let i = 0; i < parts.length; i++) {
    n += 1;
    const p = parts[i] ?? '';
    if (p[0] === 'R' || p[0] === 'C') i += 1;
  }
  return n;
}

export async function branches(env: Env, repoRoot: string): Promise<string[]> {
  const r = await git(
    ['for-each-ref', '--sort=-committerdate', `--count=${MAX_BRANCHES}`, '--format=%(refname)', 'refs/heads'],
    { cwd: repoRoot, env, readOnly: true },
  );
  if (r.exitCode !== 0) return [];
  return r.stdout
    .split('\n')
    .filter((l) => l.startsWith('refs/heads/'))
    .map((l) => l.slice('refs/heads/'.length));
}

export async function branchExists(env: Env, repoRoot: string, name: string): Promise<boolean> {
  return (
    (await git(['show-ref', '--verify', '-q', `refs/heads/${name}`], { cwd: repoRoot, env, readOnly: true }))
      .exitCode === 0
  );
}

export async function commitOf(env: Env, repoRoot: string, rev: string): Promise<string | null> {
  if (rev.startsWith('-') || /[\0\s]/.test(rev)) return null;
  const r = await git(['rev-parse', '-q', '--verify', `${rev}^{commit}`], { cwd: repoRoot, env, readOnly: true });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** The agent's directory in the worktree: the same folder as in the checkout, or the top when it is not there. */
export async function cwdIn(worktreePath: string, subdir: string): Promise<{ cwd: string; warning: string | null }> {
  if (subdir === '') return { cwd: worktreePath, warning: null };
  const inside = await existingCwd(worktreePath, subdir);
  if (inside !== null) return { cwd: inside, warning: null };
  return {
    cwd: worktreePath,
    warning: `the folder ${subdir} is not in the worktree (it is not committed): the agent starts at the top of the worktree`,
  };
}

/** `<worktree>/<subdir>` by its real path when it is a directory that stays inside the worktree; else null. */
export async function existingCwd(worktreePath: string, subdir: string): Promise<string | null> {
  const real = await realOrNull(join(worktreePath, subdir));
  if (real === null || !isInside(worktreePath, real)) return null;
  return (await stat(real).then(
    (s) => s.isDirectory(),
    () => false,
  ))
    ? real
    : null;
}
