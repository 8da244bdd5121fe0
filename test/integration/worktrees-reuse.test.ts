// Each agent in its own git worktree, on real repositories in temp directories: what a user would check afterwards
// is asserted (files on disk, branches, `git status`, `git worktree list`), never timings.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Worktrees, type CreatedWorktree } from '../../electron/core/worktrees/index.js';
import {
  root,
  repo,
  baseDir,
  dataDir,
  env,
  wt,
  sh,
  branches,
  worktreeList,
  write,
  commitAll,
  refused,
  useScratchRepository,
} from './worktrees-helpers.js';

useScratchRepository();

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
