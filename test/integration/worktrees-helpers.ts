// The worktrees-*.test.ts files' shared setup: a fresh repository (one commit on main) in a temp directory for each
// test, git run as a user would with none of the developer's configuration, and the refusal check.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { WorktreeError, Worktrees } from '../../electron/core/worktrees/index.js';
import { GIT_ENV } from '../helpers/git-repo.js';
import { tempDir } from '../helpers/server.js';

export let root: string;
export let repo: string;
export let baseDir: string;
export let dataDir: string;
export let env: NodeJS.ProcessEnv;
export let wt: Worktrees;

/** git as a user would run it, with the test's identity and none of the developer's configuration. */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
export const status = (cwd: string) => sh(cwd, 'status', '--porcelain').replace(/\n$/, '');
export const branches = (cwd: string) =>
  sh(cwd, 'branch', '--format=%(refname:short)').trim().split('\n').filter(Boolean).sort();
export const worktreeList = (cwd: string) =>
  sh(cwd, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .sort();
export const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
export const commitAll = (cwd: string, message: string) => {
  sh(cwd, 'add', '-A');
  sh(cwd, 'commit', '-q', '-m', message);
};

export async function refused(promise: Promise<unknown>, code: string): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(WorktreeError);
    expect((err as WorktreeError).code).toBe(code);
    return (err as Error).message;
  }
  throw new Error(`expected a refusal (${code})`);
}

export function useScratchRepository(): void {
  beforeEach(() => {
    root = realpathSync(tempDir('baton-worktrees-'));
    const home = join(root, 'home');
    mkdirSync(home);
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      ...GIT_ENV,
    };
    repo = join(root, 'my-app');
    mkdirSync(repo);
    sh(repo, 'init', '-q', '-b', 'main');
    write(join(repo, 'README.md'), 'hello\n');
    write(join(repo, 'src', 'app.txt'), 'line 1\nline 2\n');
    write(join(repo, '.gitignore'), '.env\nnode_modules/\n*.secret\n');
    commitAll(repo, 'initial');
    baseDir = join(root, 'worktrees');
    dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    wt = new Worktrees({ dataDir, baseDir, env });
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });
}
