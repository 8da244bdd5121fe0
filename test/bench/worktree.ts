// Worktree creation on a large repository: `npx tsx test/bench/worktree.ts` (BENCH_FILES=n for another size,
// BENCH_DIR=/dev/shm to put it on another file system, BENCH_ROUNDS=n).
// A repository of 10,000 committed files (100 folders, ~1.5 KB each, plus a `.worktreeinclude` and an ignored
// `.env`) in a temp dir; what a new agent costs: `Worktrees.create` (name checks, ledger write, `git worktree add`,
// the `.worktreeinclude` copy), against baselines measured in the same run on the same repository: `git status`
// (warm), a plain `cp -r` of the same files (what the disk itself costs: a worktree is a full checkout) and a bare
// `git worktree add` of the same commit. Then `changes()` on an untouched worktree and `remove()`. Baton's own
// cost per agent (its git calls, ledger, include check) is measured apart on a 10-file repository, where the
// checkout itself costs next to nothing.
// Nothing here asserts a time; the process fails only when a worktree is wrong. Everything is deleted at the end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worktrees } from '../../electron/core/worktrees/index.js';
import { fmt, median } from './stats.js';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const DIRS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const root = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'baton-bench-worktree-'));
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: join(root, 'home'),
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@baton.invalid',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@baton.invalid',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });

async function timed<T>(fn: () => T | Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

function makeRepo(name: string, files: number): string {
  const repo = join(root, name);
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  const line = 'const value = "some source text that looks like code";\n';
  for (let i = 0; i < files; i++) {
    const dir = join(repo, `pkg${String(i % DIRS).padStart(3, '0')}`);
    if (i < DIRS) mkdirSync(dir);
    writeFileSync(join(dir, `file${i}.ts`), `// file ${i}\n${line.repeat(25)}`);
  }
  writeFileSync(join(repo, '.gitignore'), '.env\nnode_modules/\n');
  writeFileSync(join(repo, '.worktreeinclude'), '.env\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', `${files} files`);
  writeFileSync(join(repo, '.env'), 'API_KEY=bench\n');
  return repo;
}

/** Baton's own cost per agent: create minus a bare `git worktree add`, on a repository with almost nothing to check out. */
async function overhead(wt: Worktrees): Promise<{ create: number; raw: number }> {
  const repo = makeRepo('small-repo', 10);
  const createMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const path = join(root, `small-raw-${i}`);
    rawMs.push((await timed(() => git(repo, 'worktree', 'add', '-q', '-b', `raw-${i}`, path, 'HEAD')))[0]);
    git(repo, 'worktree', 'remove', '--force', path);
    const [ms, made] = await timed(() => wt.create({ repoRoot: repo, runName: 'small', label: `agent${i}` }));
    createMs.push(ms);
    await wt.remove({ worktreePath: made.worktreePath });
  }
  return { create: median(createMs), raw: median(rawMs) };
}

async function main(): Promise<void> {
  mkdirSync(env.HOME ?? join(root, 'home'), { recursive: true });
  const [genMs, repo] = await timed(() => makeRepo('big-repo', FILES));
  const tracked = git(repo, 'ls-files').split('\n').filter(Boolean).length;

  // Warm the caches the way a user's repository is warm.
  git(repo, 'status', '--porcelain');
  const statusMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) statusMs.push((await timed(() => git(repo, 'status', '--porcelain')))[0]);

  const folders = Array.from({ length: DIRS }, (_, i) => join(repo, `pkg${String(i).padStart(3, '0')}`));
  const copyMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const dest = join(root, `copy-${i}`);
    mkdirSync(dest);
    copyMs.push((await timed(() => execFileSync('cp', ['-r', ...folders, dest])))[0]);
    rmSync(dest, { recursive: true, force: true });
  }

  const rawMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const path = join(root, `raw-${i}`);
    rawMs.push((await timed(() => git(repo, 'worktree', 'add', '-q', '-b', `raw-${i}`, path, 'HEAD')))[0]);
    git(repo, 'worktree', 'remove', '--force', path);
  }

  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  const wt = new Worktrees({ dataDir, baseDir: join(root, 'worktrees'), env });
  const createMs: number[] = [];
  const changesMs: number[] = [];
  const removeMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [ms, made] = await timed(() => wt.create({ repoRoot: repo, runName: 'bench', label: `agent${i}` }));
    createMs.push(ms);
    const files = git(made.worktreePath, 'ls-files').split('\n').filter(Boolean).length;
    if (files !== tracked || readFileSync(join(made.worktreePath, '.env'), 'utf8') !== 'API_KEY=bench\n') {
      throw new Error(
        `worktree ${made.worktreePath} is wrong: ${files} files of ${tracked}, .env ${existsSync(join(made.worktreePath, '.env')) ? 'differs' : 'missing'}`,
      );
    }
    const [cms, changes] = await timed(() => wt.changes(made.worktreePath, made.baseCommit));
    changesMs.push(cms);
    if (changes.filesChanged !== 0) throw new Error(`an untouched worktree shows ${changes.filesChanged} changes`);
    removeMs.push((await timed(() => wt.remove({ worktreePath: made.worktreePath })))[0]);
    if (existsSync(made.worktreePath)) throw new Error('remove left the directory');
  }
  const own = await overhead(wt);

  const status = median(statusMs);
  const create = median(createMs);
  const raw = median(rawMs);
  const copy = median(copyMs);
  console.log(`worktree bench: ${tracked} committed files (${DIRS} folders), ${ROUNDS} rounds, medians`);
  console.log(
    `  machine: ${availableParallelism()} cores, load ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}; ${root}; generating and committing took ${fmt(genMs)} ms`,
  );
  console.log(`  git status (baseline)          ${fmt(status, 1).padStart(8)} ms`);
  console.log(`  cp -r of the files (baseline)  ${fmt(copy, 1).padStart(8)} ms   ${fmt(copy / status, 1)}× git status`);
  console.log(
    `  git worktree add (baseline)    ${fmt(raw, 1).padStart(8)} ms   ${fmt(raw / status, 1)}× git status, ${fmt(raw / copy, 2)}× cp -r`,
  );
  console.log(
    `  Worktrees.create               ${fmt(create, 1).padStart(8)} ms   ${fmt(create / status, 1)}× git status, ${fmt(create / copy, 2)}× cp -r, ${fmt(create / raw, 2)}× git worktree add  (goal: < 1000 ms per agent)`,
  );
  console.log(
    `  Baton's own work per agent     ${fmt(own.create - own.raw, 1).padStart(8)} ms   (10-file repository: create ${fmt(own.create, 1)} ms − git worktree add ${fmt(own.raw, 1)} ms)`,
  );
  console.log(`  Worktrees.changes (untouched)  ${fmt(median(changesMs), 1).padStart(8)} ms`);
  console.log(`  Worktrees.remove               ${fmt(median(removeMs), 1).padStart(8)} ms`);
  console.log(`  all create rounds: ${createMs.map((m) => fmt(m)).join(', ')} ms`);
}

try {
  await main();
} finally {
  rmSync(root, { recursive: true, force: true });
}
