// Each agent in its own git worktree, on real repositories in temp directories: what a user would check afterwards
// is asserted (files on disk, branches, `git status`, `git worktree list`), never timings.

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globMatch, parsePatterns, reaches } from '../../electron/core/worktrees/include.js';
import { Worktrees } from '../../electron/core/worktrees/index.js';
import {
  root,
  repo,
  baseDir,
  dataDir,
  env,
  wt,
  sh,
  status,
  branches,
  worktreeList,
  write,
  commitAll,
  refused,
  useScratchRepository,
} from './worktrees-helpers.js';

useScratchRepository();

describe('inspect', () => {
  it('tells a repository (from any folder in it) from a plain folder', async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    expect(await wt.inspect(plain)).toBeNull();
    expect(await wt.inspect(join(root, 'does-not-exist'))).toBeNull();

    const info = await wt.inspect(join(repo, 'src'));
    expect(info).toMatchObject({
      repoRoot: repo,
      currentBranch: 'main',
      isWorktree: false,
      mainWorktree: repo,
      commonDir: join(repo, '.git'),
    });
    expect(info?.headCommit).toBe(sh(repo, 'rev-parse', 'HEAD').trim());

    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'planner' });
    const inside = await wt.inspect(made.worktreePath);
    expect(inside).toMatchObject({
      repoRoot: made.worktreePath,
      currentBranch: 'baton/demo/planner',
      isWorktree: true,
      mainWorktree: repo,
    });
  });
});

describe('create', () => {
  it('gives two agents of one run their own worktrees: a file written in one is not seen in the other', async () => {
    const planner = await wt.create({ repoRoot: repo, runName: 'Demo run', label: 'planner' });
    const coder = await wt.create({ repoRoot: repo, runName: 'Demo run', label: 'coder' });

    expect(planner).toMatchObject({
      worktreePath: join(baseDir, 'my-app', 'demo-run-planner'),
      branch: 'baton/demo-run/planner',
      created: true,
      branchCreated: true,
    });
    expect(coder.worktreePath).toBe(join(baseDir, 'my-app', 'demo-run-coder'));
    expect(planner.baseCommit).toBe(sh(repo, 'rev-parse', 'HEAD').trim());
    expect(readFileSync(join(coder.worktreePath, 'src', 'app.txt'), 'utf8')).toBe('line 1\nline 2\n');

    write(join(planner.worktreePath, 'plan.md'), 'the plan\n');
    expect(existsSync(join(coder.worktreePath, 'plan.md'))).toBe(false);
    expect(existsSync(join(repo, 'plan.md'))).toBe(false);
    expect(status(repo)).toBe('');
    expect(branches(repo)).toEqual(['baton/demo-run/coder', 'baton/demo-run/planner', 'main']);
    expect(worktreeList(repo)).toEqual([repo, planner.worktreePath, coder.worktreePath].sort());
    // Outside the repository, and not writable by others (an agent may only start in such a directory).
    expect(planner.worktreePath.startsWith(repo)).toBe(false);
    expect(statSync(planner.worktreePath).mode & 0o022).toBe(0);
  });

  it('adds -2, -3 on a name clash and keeps odd names inside the worktree folder', async () => {
    const first = await wt.create({ repoRoot: repo, runName: 'demo', label: 'planner' });
    const second = await wt.create({ repoRoot: repo, runName: 'demo', label: 'planner' });
    sh(repo, 'branch', 'baton/demo/planner-3');
    const third = await wt.create({ repoRoot: repo, runName: 'demo', label: 'planner' });
    expect([first.branch, second.branch, third.branch]).toEqual([
      'baton/demo/planner',
      'baton/demo/planner-2',
      'baton/demo/planner-4',
    ]);
    expect(second.worktreePath).toBe(join(baseDir, 'my-app', 'demo-planner-2'));

    const odd = await wt.create({ repoRoot: repo, runName: '../../Évil run (2).lock', label: '.. /etc/passwd~^:' });
    expect(odd.worktreePath.startsWith(join(baseDir, 'my-app') + '/')).toBe(true);
    expect(odd.branch).toBe('baton/evil-run-2/etc-passwd');
    expect(sh(repo, 'check-ref-format', '--branch', odd.branch ?? '').trim()).toBe(odd.branch);
  });

  it('starts from a given base branch or commit', async () => {
    const first = sh(repo, 'rev-parse', 'HEAD').trim();
    write(join(repo, 'second.txt'), 'two\n');
    commitAll(repo, 'second');
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'old', base: first });
    expect(made.baseCommit).toBe(first);
    expect(existsSync(join(made.worktreePath, 'second.txt'))).toBe(false);
    await refused(wt.create({ repoRoot: repo, runName: 'demo', label: 'x', base: 'no-such-branch' }), 'invalid');
    await refused(wt.create({ repoRoot: repo, runName: 'demo', label: 'x', base: '--output=/tmp/x' }), 'invalid');
  });

  it('refuses a folder that is not in a repository, with what to do', async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    const message = await refused(wt.create({ repoRoot: plain, runName: 'demo', label: 'a' }), 'not-a-repo');
    expect(message).toContain('not inside a git repository');
  });
});

describe('.worktreeinclude', () => {
  it('copies the git-ignored files it matches (.env) into a new worktree, and nothing else', async () => {
    write(join(repo, '.gitignore'), '.env\nnode_modules/\n*.secret\nbuild/\n');
    write(
      join(repo, '.worktreeinclude'),
      '# local files an agent needs\n.env\nscratch.txt\n*.secret\n/build/local.json\n',
    );
    commitAll(repo, 'include file');
    write(join(repo, '.env'), 'API_KEY=abc\n');
    write(join(repo, 'config', '.env'), 'NESTED=1\n');
    write(join(repo, 'build', 'local.json'), '{"named": "by a path pattern"}\n');
    write(join(repo, 'build', 'out.js'), 'ignored, in a reached folder, not matched\n');
    write(join(repo, 'node_modules', 'pkg', 'index.js'), 'ignored but not listed\n');
    write(
      join(repo, 'node_modules', 'pkg', '.env'),
      'inside a folder git ignores whole: a bare .env does not reach in\n',
    );
    write(join(repo, 'scratch.txt'), 'listed but not ignored: git would show it\n');
    const outside = join(root, 'outside.txt');
    write(outside, 'not in the repository\n');
    symlinkSync(outside, join(repo, 'link.secret'));

    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    expect(readFileSync(join(made.worktreePath, '.env'), 'utf8')).toBe('API_KEY=abc\n');
    expect(readFileSync(join(made.worktreePath, 'config', '.env'), 'utf8')).toBe('NESTED=1\n');
    expect(made.included.copied.sort()).toEqual(['.env', 'build/local.json', 'config/.env']);
    expect(made.included.skipped).toEqual([
      { path: 'link.secret', reason: 'is a symbolic link (links are not copied)' },
    ]);
    // Nothing else appeared in the worktree: no untracked or ignored file besides the copies.
    const extra = sh(made.worktreePath, 'ls-files', '--others', '--ignored', '--exclude-standard')
      .trim()
      .split('\n')
      .sort();
    expect(extra).toEqual(['.env', 'build/local.json', 'config/.env']);
    expect(sh(made.worktreePath, 'ls-files', '--others', '--exclude-standard').trim()).toBe('');
    expect(status(made.worktreePath)).toBe('');
  });

  it('searches a folder git ignores whole only when a pattern reaches into it', () => {
    const reach = (patterns: string, dir: string) => parsePatterns(patterns).some((p) => reaches(p, dir));
    expect(reach('.env\n*.local\n', 'node_modules')).toBe(false);
    expect(reach('node_modules\n', 'node_modules')).toBe(true);
    expect(reach('.venv/\n', 'sub/.venv')).toBe(true);
    expect(reach('/build/local.json\n', 'build')).toBe(true);
    expect(reach('/build/local.json\n', 'sub/build')).toBe(false);
    expect(reach('config/*/secrets.json\n', 'config/dev')).toBe(true);
    expect(reach('c[o]nfig/x\n', 'config')).toBe(true);
    expect(reach('a/**/x.env\n', 'a/b/c')).toBe(true);
    expect(reach('**/.env\n', 'node_modules')).toBe(false);
    expect(reach('# comment\n!node_modules\n\n', 'node_modules')).toBe(false);
    expect(globMatch('*.env', 'app.env')).toBe(true);
    expect(globMatch('?.env', 'ab.env')).toBe(false);
    expect(globMatch('[!a]x', 'bx')).toBe(true);
  });

  it('never writes through a symbolic link in the new worktree', async () => {
    write(join(repo, '.worktreeinclude'), '.env\n');
    const target = join(root, 'elsewhere');
    mkdirSync(target);
    symlinkSync(target, join(repo, 'config'));
    commitAll(repo, 'config is a link in this commit');
    const base = sh(repo, 'rev-parse', 'HEAD').trim();
    // In the main checkout, config/ is now a real folder holding an ignored .env.
    rmSync(join(repo, 'config'));
    write(join(repo, 'config', '.env'), 'SECRET=1\n');
    write(join(repo, '.env'), 'TOP=1\n');

    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'linked', base });
    expect(made.included.copied).toEqual(['.env']);
    expect(made.included.skipped.map((s) => s.path)).toEqual(['config/.env']);
    expect(existsSync(join(target, '.env'))).toBe(false);
  });
});

describe('setup command', () => {
  const writeSetup = (argv: string[]) => write(join(repo, '.baton', 'setup.json'), JSON.stringify({ command: argv }));
  const script = (text: string) => [
    'node',
    '-e',
    `require('fs').writeFileSync('setup-ran.txt', ${JSON.stringify(text)}); console.log('installed')`,
  ];

  it('runs in a new worktree only once the user approved that exact command', async () => {
    expect(await wt.setupCommandOf(repo)).toBeNull();
    writeSetup(script('v1'));
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });

    const command = await wt.setupCommandOf(repo);
    expect(command?.argv).toEqual(script('v1'));
    expect(await wt.isApproved(command?.hash ?? '')).toBe(false);
    await refused(wt.runSetup(made.worktreePath), 'not-approved');
    expect(existsSync(join(made.worktreePath, 'setup-ran.txt'))).toBe(false);

    await wt.approve(command?.hash ?? '');
    const seen: string[] = [];
    const ran = await wt.runSetup(made.worktreePath, (text) => seen.push(text));
    expect(ran).toMatchObject({ ok: true, exitCode: 0 });
    expect(ran?.output).toContain('installed');
    expect(seen.join('')).toContain('installed');
    expect(readFileSync(join(made.worktreePath, 'setup-ran.txt'), 'utf8')).toBe('v1');
    // Remembered in the data directory: another core knows the approval.
    expect(await new Worktrees({ dataDir, baseDir, env }).isApproved(command?.hash ?? '')).toBe(true);
    expect(statSync(join(dataDir, 'worktree-approvals.json')).mode & 0o777).toBe(0o600);

    // The command text changed: asked again, not run.
    rmSync(join(made.worktreePath, 'setup-ran.txt'));
    writeSetup(script('v2'));
    const changed = await wt.setupCommandOf(repo);
    expect(changed?.hash).not.toBe(command?.hash);
    expect(await wt.isApproved(changed?.hash ?? '')).toBe(false);
    await refused(wt.runSetup(made.worktreePath), 'not-approved');
    expect(existsSync(join(made.worktreePath, 'setup-ran.txt'))).toBe(false);
  });

  it('takes an argv, never a shell line, and only in a worktree Baton created', async () => {
    writeFileSync(join(root, 'marker'), '');
    writeSetup(['echo hi; touch pwned']);
    const command = await wt.setupCommandOf(repo);
    await wt.approve(command?.hash ?? '');
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    const ran = await wt.runSetup(made.worktreePath);
    expect(ran?.ok).toBe(false);
    expect(existsSync(join(made.worktreePath, 'pwned'))).toBe(false);
    await refused(wt.runSetup(repo), 'not-owned');

    write(join(repo, '.baton', 'setup.json'), '{"command": "npm ci"}');
    await refused(wt.setupCommandOf(repo), 'invalid');
  });
});
