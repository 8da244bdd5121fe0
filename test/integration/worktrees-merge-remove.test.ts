// Each agent in its own git worktree, on real repositories in temp directories: what a user would check afterwards
// is asserted (files on disk, branches, `git status`, `git worktree list`), never timings.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  repo,
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
