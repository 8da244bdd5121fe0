// Each agent in its own git worktree, on real repositories in temp directories: what a user would check afterwards
// is asserted (files on disk, branches, `git status`, `git worktree list`), never timings.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globMatch, parsePatterns, reaches } from '../../electron/core/worktrees/include.js';
import { WorktreeError, Worktrees, type CreatedWorktree } from '../../electron/core/worktrees/index.js';
import { tempDir } from '../helpers/server.js';

let root: string;
let repo: string;
let baseDir: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let wt: Worktrees;

/** git as a user would run it, with the test's identity and none of the developer's configuration. */
function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
const status = (cwd: string) => sh(cwd, 'status', '--porcelain').replace(/\n$/, '');
const branches = (cwd: string) =>
  sh(cwd, 'branch', '--format=%(refname:short)').trim().split('\n').filter(Boolean).sort();
const worktreeList = (cwd: string) =>
  sh(cwd, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .sort();
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const commitAll = (cwd: string, message: string) => {
  sh(cwd, 'add', '-A');
  sh(cwd, 'commit', '-q', '-m', message);
};

async function refused(promise: Promise<unknown>, code: string): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(WorktreeError);
    expect((err as WorktreeError).code).toBe(code);
    return (err as Error).message;
  }
  throw new Error(`expected a refusal (${code})`);
}

beforeEach(() => {
  root = realpathSync(tempDir('baton-worktrees-'));
  const home = join(root, 'home');
  mkdirSync(home);
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Baton Test',
    GIT_AUTHOR_EMAIL: 'test@baton.invalid',
    GIT_COMMITTER_NAME: 'Baton Test',
    GIT_COMMITTER_EMAIL: 'test@baton.invalid',
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

describe('changes', () => {
  it('counts committed, uncommitted and untracked changes against the base, and caps the patch', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    const w = made.worktreePath;
    write(join(w, 'committed.txt'), 'a\nb\n');
    commitAll(w, 'agent commit');
    write(join(w, 'src', 'app.txt'), 'line 1\nline two\n');
    write(join(w, 'new', 'untracked.txt'), 'fresh\n');
    write(join(w, 'node_modules', 'x.js'), 'ignored\n');

    const c = await wt.changes(w, made.baseCommit);
    expect(c.filesChanged).toBe(3);
    expect(c.untracked).toEqual(['new/untracked.txt']);
    expect(c.insertions).toBe(4);
    expect(c.deletions).toBe(1);
    expect(c.stat).toContain('committed.txt');
    expect(c.stat).toContain('src/app.txt');
    expect(c.stat).toContain('new/untracked.txt | new, untracked');
    expect(c.stat).toContain(' 3 files changed, 4 insertions(+), 1 deletion(-)');
    expect(c.patch).toContain('+line two');
    expect(c.patch).toContain('+++ b/new/untracked.txt');
    expect(c.patch).not.toContain('node_modules');
    expect(c.truncated).toBe(false);
    // Read-only: the worktree is exactly as before.
    expect(status(w).split('\n').sort()).toEqual([' M src/app.txt', '?? new/']);

    const small = await wt.changes(w, made.baseCommit, 100);
    expect(small.truncated).toBe(true);
    expect(small.patch.length).toBeLessThanOrEqual(100);
    expect(small.filesChanged).toBe(3);
  });
});

describe('merge', () => {
  it("merges an agent's branch into the main checkout with a merge commit", async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'feature.txt'), 'done\n');
    commitAll(made.worktreePath, 'feature');

    const result = await wt.merge({ repoRoot: repo, branch: made.branch ?? '' });
    expect(result).toMatchObject({ merged: true, alreadyUpToDate: false, uncommittedInWorktree: false });
    expect(readFileSync(join(repo, 'feature.txt'), 'utf8')).toBe('done\n');
    expect(sh(repo, 'rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ')).toHaveLength(3);
    expect(status(repo)).toBe('');
  });

  it('reports a conflict, aborts it, and leaves the main checkout clean', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'src', 'app.txt'), 'line 1\nagent\n');
    commitAll(made.worktreePath, 'agent edit');
    write(join(repo, 'src', 'app.txt'), 'line 1\nuser\n');
    commitAll(repo, 'user edit');
    const head = sh(repo, 'rev-parse', 'HEAD').trim();

    const result = await wt.merge({ repoRoot: repo, branch: made.branch ?? '', into: 'main' });
    expect(result.merged).toBe(false);
    if (!result.merged) {
      expect(result.conflicts).toEqual(['src/app.txt']);
      expect(result.message).toContain('aborted');
    }
    expect(status(repo)).toBe('');
    expect(sh(repo, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(readFileSync(join(repo, 'src', 'app.txt'), 'utf8')).toBe('line 1\nuser\n');
    expect(existsSync(join(repo, '.git', 'MERGE_HEAD'))).toBe(false);
  });

  it('refuses while the main checkout has uncommitted changes', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'feature.txt'), 'done\n');
    commitAll(made.worktreePath, 'feature');
    write(join(repo, 'README.md'), 'edited, not committed\n');
    const message = await refused(wt.merge({ repoRoot: repo, branch: made.branch ?? '' }), 'dirty');
    expect(message).toContain('README.md');
    expect(existsSync(join(repo, 'feature.txt'))).toBe(false);
    expect(status(repo)).toBe(' M README.md');
  });
});

describe('remove', () => {
  it('refuses while uncommitted changes exist, and removes with force', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'wip.txt'), 'work in progress\n');
    const message = await refused(wt.remove({ worktreePath: made.worktreePath }), 'dirty');
    expect(message).toContain('wip.txt');
    expect(existsSync(join(made.worktreePath, 'wip.txt'))).toBe(true);

    const result = await wt.remove({ worktreePath: made.worktreePath, force: true });
    expect(existsSync(made.worktreePath)).toBe(false);
    expect(worktreeList(repo)).toEqual([repo]);
    // Nothing was committed on it: merged by definition, so deleted.
    expect(result).toMatchObject({ branchDeleted: true });
    expect(branches(repo)).toEqual(['main']);
    expect(await wt.listOwned()).toEqual([]);
  });

  it('keeps a branch with unmerged commits and says so; deletes it when asked', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'feature.txt'), 'done\n');
    commitAll(made.worktreePath, 'feature');
    const result = await wt.remove({ worktreePath: made.worktreePath });
    expect(existsSync(made.worktreePath)).toBe(false);
    expect(result.branchDeleted).toBe(false);
    expect(result.branchKept).toContain('branch baton/demo/coder has unmerged commits');
    expect(branches(repo)).toEqual(['baton/demo/coder', 'main']);

    const again = await wt.create({ repoRoot: repo, runName: 'demo', label: 'other' });
    write(join(again.worktreePath, 'x.txt'), 'x\n');
    commitAll(again.worktreePath, 'x');
    expect(await wt.remove({ worktreePath: again.worktreePath, deleteUnmergedBranch: true })).toMatchObject({
      branchDeleted: true,
    });
    expect(branches(repo)).toEqual(['baton/demo/coder', 'main']);
  });

  it('deletes the branch once it is merged', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'feature.txt'), 'done\n');
    commitAll(made.worktreePath, 'feature');
    await wt.merge({ repoRoot: repo, branch: made.branch ?? '' });
    expect(await wt.remove({ worktreePath: made.worktreePath })).toMatchObject({ branchDeleted: true });
    expect(branches(repo)).toEqual(['main']);
  });
});

describe('paths that escape', () => {
  it('refuses `..` segments, links out of the worktree folder, and worktrees Baton did not create', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    await refused(wt.remove({ worktreePath: `${made.worktreePath}/../../../my-app` }), 'escape');
    await refused(
      wt.create({
        repoRoot: repo,
        runName: 'demo',
        label: 'x',
        existingWorktree: `${made.worktreePath}/../demo-coder`,
      }),
      'escape',
    );
    await refused(wt.remove({ worktreePath: repo }), 'not-owned');

    // A link to Baton's worktree is not the worktree.
    const link = join(root, 'link-to-worktree');
    symlinkSync(made.worktreePath, link);
    await refused(wt.remove({ worktreePath: link }), 'escape');
    expect(existsSync(made.worktreePath)).toBe(true);

    // The repository's folder under the base directory replaced by a link to elsewhere: nothing is created there.
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const otherBase = join(root, 'base2');
    mkdirSync(otherBase);
    symlinkSync(elsewhere, join(otherBase, 'my-app'));
    const linked = new Worktrees({ dataDir, baseDir: otherBase, env });
    await refused(linked.create({ repoRoot: repo, runName: 'demo', label: 'y' }), 'escape');
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(worktreeList(repo)).toEqual([repo, made.worktreePath].sort());
  });

  it('refuses a base directory inside the repository', async () => {
    const inside = new Worktrees({ dataDir, baseDir: join(repo, '.worktrees'), env });
    await refused(inside.create({ repoRoot: repo, runName: 'demo', label: 'a' }), 'invalid');
  });
});

describe('reuse', () => {
  it('checks out an existing branch in a new worktree, and never deletes that branch', async () => {
    sh(repo, 'switch', '-q', '-c', 'feature');
    write(join(repo, 'feature.txt'), 'from the user\n');
    commitAll(repo, 'user feature');
    // Checked out in the main checkout: refused, with the way out.
    const message = await refused(
      wt.create({ repoRoot: repo, runName: 'demo', label: 'coder', existingBranch: 'feature' }),
      'conflict',
    );
    expect(message).toContain('already checked out');
    sh(repo, 'switch', '-q', 'main');

    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder', existingBranch: 'feature' });
    expect(made).toMatchObject({ branch: 'feature', created: true, branchCreated: false });
    expect(made.baseCommit).toBe(sh(repo, 'rev-parse', 'main').trim());
    expect(readFileSync(join(made.worktreePath, 'feature.txt'), 'utf8')).toBe('from the user\n');
    expect(sh(made.worktreePath, 'branch', '--show-current').trim()).toBe('feature');

    const removed = await wt.remove({ worktreePath: made.worktreePath });
    expect(removed.branchDeleted).toBe(false);
    expect(branches(repo)).toEqual(['feature', 'main']);
    await refused(wt.create({ repoRoot: repo, runName: 'demo', label: 'coder', existingBranch: 'nope' }), 'invalid');
  });

  it('uses an existing worktree of the repository as it is, and refuses one of another repository', async () => {
    const userWt = join(root, 'my-own-worktree');
    sh(repo, 'worktree', 'add', '-q', '-b', 'mine', userWt);
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder', existingWorktree: userWt });
    expect(made).toMatchObject({ worktreePath: userWt, branch: 'mine', created: false, branchCreated: false });
    expect(await wt.listOwned()).toEqual([]);
    await refused(wt.remove({ worktreePath: userWt }), 'not-owned');

    const plain = join(root, 'plain');
    mkdirSync(plain);
    await refused(wt.create({ repoRoot: repo, runName: 'demo', label: 'c', existingWorktree: plain }), 'invalid');
    const other = join(root, 'other-repo');
    mkdirSync(other);
    sh(other, 'init', '-q', '-b', 'main');
    write(join(other, 'f'), 'f\n');
    commitAll(other, 'other');
    await refused(wt.create({ repoRoot: repo, runName: 'demo', label: 'c', existingWorktree: other }), 'invalid');
  });

  it('re-creates a worktree from its branch after its directory was deleted', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    write(join(made.worktreePath, 'work.txt'), 'committed work\n');
    commitAll(made.worktreePath, 'work');
    const record = { repoRoot: repo, worktreePath: made.worktreePath, branch: made.branch ?? '' };
    expect(await wt.reopen(record)).toMatchObject({ outcome: 'existing', worktreePath: made.worktreePath });

    rmSync(made.worktreePath, { recursive: true, force: true });
    // The preview says what a resume will do, and does nothing.
    expect(await wt.probe(record)).toEqual({ outcome: 'recreate', worktreePath: made.worktreePath });
    expect(existsSync(made.worktreePath)).toBe(false);
    const reopened = await wt.reopen(record);
    expect(reopened).toMatchObject({
      outcome: 'recreated',
      worktreePath: made.worktreePath,
      branch: 'baton/demo/coder',
    });
    expect(readFileSync(join(made.worktreePath, 'work.txt'), 'utf8')).toBe('committed work\n');
    expect(worktreeList(repo)).toEqual([repo, made.worktreePath].sort());

    // The same through create: an existing branch whose worktree directory is gone (git's stale record dropped).
    rmSync(made.worktreePath, { recursive: true, force: true });
    const again: CreatedWorktree = await wt.create({
      repoRoot: repo,
      runName: 'demo',
      label: 'coder',
      existingBranch: 'baton/demo/coder',
    });
    expect(again).toMatchObject({
      worktreePath: made.worktreePath,
      branch: 'baton/demo/coder',
      created: true,
      branchCreated: true,
    });
    expect(readFileSync(join(again.worktreePath, 'work.txt'), 'utf8')).toBe('committed work\n');

    // Branch gone too: failed, with the reason.
    await wt.remove({ worktreePath: again.worktreePath, deleteUnmergedBranch: true });
    expect((await wt.probe(record)).outcome).toBe('failed');
    const failed = await wt.reopen(record);
    expect(failed.outcome).toBe('failed');
    if (failed.outcome === 'failed') expect(failed.reason).toContain('both gone');
  });
});

describe('ledger and clean-up', () => {
  it("cleans up only Baton's own worktrees: a user's worktree of the same repository survives", async () => {
    const kept = await wt.create({ repoRoot: repo, runName: 'demo', label: 'planner' });
    const orphan = await wt.create({ repoRoot: repo, runName: 'old run', label: 'coder' });
    const userWt = join(root, 'user-worktree');
    sh(repo, 'worktree', 'add', '-q', '-b', 'user-branch', userWt);

    // Remembered across cores, in a file only its owner can read.
    const later = new Worktrees({ dataDir, baseDir, env });
    expect((await later.listOwned()).map((e) => e.path)).toEqual([kept.worktreePath, orphan.worktreePath]);
    expect(statSync(join(dataDir, 'worktrees.json')).mode & 0o777).toBe(0o600);

    const orphans = await later.orphans(new Set([kept.worktreePath]));
    expect(orphans.map((o) => o.path)).toEqual([orphan.worktreePath]);

    const results = await later.cleanup([...orphans.map((o) => o.path), userWt]);
    expect(results.map((r) => r.ok)).toEqual([true, false]);
    expect(results[1]).toMatchObject({ ok: false });
    expect(existsSync(orphan.worktreePath)).toBe(false);
    expect(existsSync(userWt)).toBe(true);
    expect(existsSync(kept.worktreePath)).toBe(true);
    expect(worktreeList(repo)).toEqual([repo, kept.worktreePath, userWt].sort());
    expect(branches(repo)).toEqual(['baton/demo/planner', 'main', 'user-branch']);

    // A worktree with uncommitted work is not cleaned up without force.
    write(join(kept.worktreePath, 'wip.txt'), 'wip\n');
    const dirty = await later.cleanup([kept.worktreePath]);
    expect(dirty[0]).toMatchObject({ ok: false });
    expect(existsSync(join(kept.worktreePath, 'wip.txt'))).toBe(true);
  });

  it('forgets a worktree whose directory a user deleted, when cleaned up', async () => {
    const made = await wt.create({ repoRoot: repo, runName: 'demo', label: 'coder' });
    rmSync(made.worktreePath, { recursive: true, force: true });
    expect(await wt.listOwned()).toMatchObject([{ path: made.worktreePath, exists: false }]);
    const [result] = await wt.cleanup([made.worktreePath]);
    expect(result).toMatchObject({ ok: true });
    expect(worktreeList(repo)).toEqual([repo]);
    expect(branches(repo)).toEqual(['main']);
    expect(await wt.listOwned()).toEqual([]);
  });
});
