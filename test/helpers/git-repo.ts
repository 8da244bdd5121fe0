// Real git repositories in temp directories for the worktree tests: git as a user would run it, with the test's own
// identity and none of the developer's configuration (the same variables go into the server's environment).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What git (the test's and every agent's) runs with: an identity, no global or system configuration. */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Baton Test',
  GIT_AUTHOR_EMAIL: 'test@baton.invalid',
  GIT_COMMITTER_NAME: 'Baton Test',
  GIT_COMMITTER_EMAIL: 'test@baton.invalid',
} as const;

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...GIT_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function commitAll(cwd: string, message: string): void {
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', message);
}

/** A repository on `main` with one commit: a README, `src/app.txt`, and a .gitignore that ignores `.env`. */
export function makeRepo(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o755 });
  git(path, 'init', '-q', '-b', 'main');
  writeFile(join(path, 'README.md'), 'hello\n');
  writeFile(join(path, 'src', 'app.txt'), 'line 1\nline 2\n');
  writeFile(join(path, '.gitignore'), '.env\nnode_modules/\n');
  commitAll(path, 'initial');
  return path;
}

/** `git status --porcelain` of a checkout, '' when clean. */
export const gitStatus = (cwd: string): string => git(cwd, 'status', '--porcelain').trim();

export const branchesOf = (cwd: string): string[] =>
  git(cwd, 'branch', '--format=%(refname:short)').trim().split('\n').filter(Boolean).sort();
