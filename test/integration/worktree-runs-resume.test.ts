// Each agent in its own git worktree, through a real `baton serve` on real repositories in temp directories: what a
// user would check afterwards is asserted (files on disk, branches, `git status`, the pane, the outcome), never timings.

import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchesOf, git, makeRepo } from '../helpers/git-repo.js';
import { agentByLabel, ask, startServer } from '../helpers/server.js';
import { root, env, client, shell, done, worktreeOf, useWorktreeRunsServer } from './worktree-runs-server.js';
import { refusal } from '../helpers/refusal.js';

useWorktreeRunsServer();

describe('resuming agents whose worktree is gone', () => {
  it('re-creates a deleted worktree from its branch: the conversation continues there, and the outcome says so', async () => {
    const repo = makeRepo(join(root, 'recreate-repo'));
    const run = await client.call('run.start', {
      name: 'recreate',
      agents: [{ vendor: 'claude', label: 'a', cwd: repo, worktree: 'new' }],
    });
    const a = agentByLabel(run.agents, 'a');
    const { worktreePath, branch } = worktreeOf(a);
    await ask(client, a.id, 'remember the number 4711', 'OK, I will remember 4711.');
    git(worktreePath, 'commit', '-q', '--allow-empty', '-m', 'agent work');
    await client.call('run.stop', { run: run.id });
    rmSync(worktreePath, { recursive: true, force: true });

    const { handle } = await client.call('run.handle', { run: run.id });
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents[0]!.worktree).toMatchObject({ branch, state: 'recreate' });
    expect(preview.agents[0]!.cwdProblem).toBeNull();
    // The preview writes nothing.
    expect(existsSync(worktreePath)).toBe(false);

    const { outcomes, run: resumed } = await client.call('run.resume', { handle });
    expect(outcomes[0]).toMatchObject({ outcome: 'resumed' });
    expect(outcomes[0]!.message).toContain(`re-created from branch ${branch}`);
    expect(git(worktreePath, 'log', '-1', '--format=%s').trim()).toBe('agent work');
    expect(agentByLabel(resumed.agents, 'a')).toMatchObject({ cwd: worktreePath, status: 'running' });
    await ask(client, a.id, 'what number did I ask you to remember', 'The number is 4711.');
    await client.call('run.stop', { run: run.id });
  });

  it('fails the agent with the reason when its branch is gone too', async () => {
    const repo = makeRepo(join(root, 'gone-repo'));
    const run = await client.call('run.start', { name: 'gone', agents: [shell('a', repo, 'true')] });
    const a = agentByLabel(run.agents, 'a');
    await done(a);
    await client.call('run.stop', { run: run.id });
    rmSync(worktreeOf(a).worktreePath, { recursive: true, force: true });
    git(repo, 'worktree', 'prune');
    git(repo, 'branch', '-D', worktreeOf(a).branch);

    const { handle } = await client.call('run.handle', { run: run.id });
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents[0]!.worktree).toMatchObject({ state: 'failed' });
    const { outcomes } = await client.call('run.resume', { handle, confirmShell: [0] });
    expect(outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(outcomes[0]!.message).toMatch(/its worktree and its branch baton\/gone\/a are both gone/);
  });
});

describe('a handle carries each agent’s worktree', () => {
  it('is found again by a core on an empty data directory (the worktree is on disk and belongs to the repository)', async () => {
    const repo = makeRepo(join(root, 'carry-repo'));
    const run = await client.call('run.start', { name: 'carried', agents: [shell('a', join(repo, 'src'), 'true')] });
    const a = agentByLabel(run.agents, 'a');
    await done(a);
    await client.call('run.stop', { run: run.id });
    const { handle } = await client.call('run.handle', { run: run.id });
    const body = JSON.parse(Buffer.from(handle.slice('baton1.'.length), 'base64url').toString('utf8')) as {
      agents: { worktree?: unknown }[];
    };
    expect(body.agents[0]!.worktree).toEqual({
      repoRoot: repo,
      worktreePath: worktreeOf(a).worktreePath,
      branch: 'baton/carried/a',
      baseCommit: worktreeOf(a).baseCommit,
    });

    const other = await startServer(join(root, 'empty-data'), env);
    const otherClient = await other.connect();
    try {
      const preview = await otherClient.call('handle.inspect', { handle });
      expect(preview.knownRun).toBe(false);
      expect(preview.agents[0]).toMatchObject({
        cwd: a.cwd,
        worktree: { branch: 'baton/carried/a', state: 'existing', reason: null },
      });
      const { outcomes, run: resumed } = await otherClient.call('run.resume', { handle, confirmShell: [0] });
      // A shell agent has no conversation: it starts anew, in its worktree.
      expect(outcomes[0]!.outcome).toBe('fresh');
      const agent = agentByLabel(resumed.agents, 'a');
      expect(agent.cwd).toBe(a.cwd);
      // Not in this data directory's ledger: it is used, but never removed on a handle's word.
      expect(agent.worktree).toMatchObject({
        worktreePath: worktreeOf(a).worktreePath,
        branch: 'baton/carried/a',
        created: false,
      });
      await otherClient.call('run.stop', { run: resumed.id });
    } finally {
      otherClient.close();
      other.child.kill('SIGTERM');
      await other.exited;
    }
  });

  it('refuses a worktree path that escapes (.., a symbolic link), without echoing it', async () => {
    const repo = makeRepo(join(root, 'escape-repo'));
    const run = await client.call('run.start', { name: 'escape', agents: [shell('a', repo, 'true')] });
    const a = agentByLabel(run.agents, 'a');
    await done(a);
    await client.call('run.stop', { run: run.id });
    const { handle } = await client.call('run.handle', { run: run.id });
    const body = JSON.parse(Buffer.from(handle.slice('baton1.'.length), 'base64url').toString('utf8')) as {
      run: { id: string; name: string };
      agents: { id: string; cwd: string; worktree: { worktreePath: string } }[];
    };
    const reencode = (b: unknown) => `baton1.${Buffer.from(JSON.stringify(b), 'utf8').toString('base64url')}`;
    // Another run and agent id, so the store's own record does not decide where the agent runs.
    const fresh = (path: string, cwd = path) => {
      const b = structuredClone(body);
      b.run = { id: `run_${'e'.repeat(16)}`, name: `escape ${path.length}` };
      b.agents[0]!.id = `agt_${'e'.repeat(16)}`;
      b.agents[0]!.worktree.worktreePath = path;
      b.agents[0]!.cwd = cwd;
      return reencode(b);
    };

    const dotted = `${worktreeOf(a).worktreePath}/../../../etc`;
    const err1 = await refusal(
      client.call('run.resume', { handle: fresh(dotted, worktreeOf(a).worktreePath), confirmShell: [0] }),
    );
    expect(err1).toMatchObject({ code: 'invalid', field: 'agents[0].worktree.worktreePath' });
    expect(err1.message).not.toContain('/etc');

    // A link that leads to a real worktree of the repository, and one that leads out of it.
    const outside = join(root, 'outside');
    mkdirSync(outside, { mode: 0o755 });
    for (const target of [worktreeOf(a).worktreePath, outside]) {
      const link = join(root, `link-${target.length}`);
      symlinkSync(target, link);
      const h = fresh(link);
      const preview = await client.call('handle.inspect', { handle: h });
      expect(preview.agents[0]!.worktree?.state).toBe('failed');
      expect(preview.agents[0]!.cwdProblem).toMatch(/refused/);
      const err = await refusal(client.call('run.resume', { handle: h, confirmShell: [0] }));
      expect(err).toMatchObject({ code: 'invalid', field: 'agents[0].worktree.worktreePath' });
      expect(err.message).not.toContain(link);
      expect(err.message).not.toContain(target);
    }
    expect((await client.call('run.list', {})).map((r) => r.name).filter((n) => n.startsWith('escape '))).toEqual([]);
  });
});

describe('cleaning up', () => {
  it('lists worktrees no run owns and removes only Baton’s own', async () => {
    const repo = makeRepo(join(root, 'cleanup-repo'));
    const own = join(root, 'users-own-worktree');
    git(repo, 'worktree', 'add', '-q', '-b', 'mine', own);
    const run = await client.call('run.start', { name: 'orphaned', agents: [shell('a', repo, 'true')] });
    const a = agentByLabel(run.agents, 'a');
    await done(a);
    const path = worktreeOf(a).worktreePath;
    expect((await client.call('worktrees.orphans', {})).map((o) => o.worktreePath)).not.toContain(path);
    await client.call('run.delete', { run: run.id });

    const orphans = await client.call('worktrees.orphans', {});
    expect(orphans).toContainEqual({ worktreePath: path, repoRoot: repo, branch: 'baton/orphaned/a', dirty: false });
    expect(orphans.map((o) => o.worktreePath)).not.toContain(own);

    const results = await client.call('worktrees.cleanup', { paths: [path, own] });
    expect(results[0]).toMatchObject({ worktreePath: path, removed: true });
    expect(results[1]).toMatchObject({ worktreePath: own, removed: false });
    expect(results[1]!.message).toMatch(/Baton did not create/);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(own)).toBe(true);
    expect(branchesOf(repo)).toEqual(['main', 'mine']);
  });

  it('deletes a run with its worktrees, and refuses while one has uncommitted changes', async () => {
    const repo = makeRepo(join(root, 'delete-repo'));
    const run = await client.call('run.start', {
      name: 'deleted',
      agents: [shell('a', repo, 'printf "wip\\n" > wip.txt')],
    });
    const a = agentByLabel(run.agents, 'a');
    await done(a);
    const err = await refusal(client.call('run.delete', { run: run.id, removeWorktrees: true }));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/agent 'a' has uncommitted changes in its worktree/);
    expect((await client.call('run.get', { run: run.id })).agents[0]!.status).toBe('running');

    const refused = await refusal(client.call('agent.removeWorktree', { agentId: a.id }));
    expect(refused.message).toMatch(/still running/);
    await client.call('run.stop', { run: run.id });
    const dirty = await refusal(client.call('agent.removeWorktree', { agentId: a.id }));
    expect(dirty.code).toBe('conflict');
    expect(dirty.message).toMatch(/uncommitted changes/);
    const removed = await client.call('agent.removeWorktree', { agentId: a.id, force: true });
    expect(removed).toMatchObject({ removed: true, branchKept: false });
    expect(existsSync(worktreeOf(a).worktreePath)).toBe(false);

    const second = await client.call('run.start', { name: 'deleted-clean', agents: [shell('b', repo, 'true')] });
    const b = agentByLabel(second.agents, 'b');
    await done(b);
    await client.call('run.delete', { run: second.id, removeWorktrees: true });
    expect(existsSync(worktreeOf(b).worktreePath)).toBe(false);
    expect(branchesOf(repo)).toEqual(['main']);
  });
});

describe('a repository that moved', () => {
  it('is followed through repoMap: the agent runs in its worktree, reconnected to the repository where it is now', async () => {
    const before = makeRepo(join(root, 'moving-repo'));
    const run = await client.call('run.start', {
      name: 'moved',
      agents: [shell('a', before, 'true'), shell('plain', join(before, 'src'), 'true', {})],
    });
    for (const a of run.agents) await done(a);
    const a = agentByLabel(run.agents, 'a');
    await client.call('run.stop', { run: run.id });
    const { handle } = await client.call('run.handle', { run: run.id });
    await client.call('run.delete', { run: run.id });
    const after = join(root, 'moved-repo');
    renameSync(before, after);

    const lost = await client.call('handle.inspect', { handle });
    expect(lost.agents[0]!.worktree).toMatchObject({ state: 'failed' });
    expect(lost.agents[0]!.worktree!.reason).toMatch(/repoMap/);

    const repoMap = { [before]: after };
    const preview = await client.call('handle.inspect', { handle, repoMap });
    expect(preview.agents[0]!.worktree).toMatchObject({ state: 'existing' });
    expect(preview.agents[1]!.cwd).toBe(join(after, 'src'));
    const { outcomes, run: resumed } = await client.call('run.resume', { handle, repoMap, confirmShell: [0, 1] });
    expect(outcomes.map((o) => o.outcome)).toEqual(['fresh', 'fresh']);
    const moved = agentByLabel(resumed.agents, 'a');
    expect(moved.worktree).toMatchObject({
      repoRoot: after,
      worktreePath: worktreeOf(a).worktreePath,
      branch: 'baton/moved/a',
    });
    expect(agentByLabel(resumed.agents, 'plain').cwd).toBe(join(after, 'src'));
    // git works in the worktree again: it knows the repository's new place.
    expect(git(worktreeOf(a).worktreePath, 'rev-parse', '--git-common-dir').trim()).toBe(join(after, '.git'));
    await client.call('run.stop', { run: resumed.id });
  });
});
