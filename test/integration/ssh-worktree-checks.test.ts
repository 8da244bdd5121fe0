// What this machine asks a host about the worktrees of its remote agents, against a real sshd on 127.0.0.1
// (test/helpers/sshd.ts): the resume preview shows the worktree as the host finds it (there, to be re-created there,
// gone, or not asked: the host is out of reach), and a delete that would remove a worktree with uncommitted work on
// the host is refused before anything is stopped. A connected host's leftover worktrees are listed here and removed
// through its core.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { type ServerProcess } from '../helpers/server.js';
import { BASH, IDENTITY, endSshMachines, git, localCore, remoteCore } from './ssh-hosts-helpers.js';

describe.skipIf(!sshdAvailable())('worktrees of remote agents, checked on their host', () => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;
  let repo: string;

  beforeAll(async () => {
    sshd = await startSshd({ env: IDENTITY });
    repo = join(sshd.remoteHome, 'src', 'app');
    mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README.md'), 'app\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'first');
    ({ server, client } = await localCore(sshd, 'baton-ssh-wtc-'));
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  it('shows a remote agent’s worktree in the resume preview as its host finds it, and says when it cannot ask', async () => {
    const run = await client.call('run.start', {
      name: 'Preview there',
      agents: [{ vendor: 'shell', label: 'far', cwd: repo, command: BASH, host: 'devbox', worktree: 'new' }],
    });
    const agent = run.agents[0]!;
    expect(agent, agent.warning ?? '').toMatchObject({ host: 'devbox', status: 'running' });
    const { worktreePath, branch } = agent.worktree!;
    await client.call('run.stop', { run: run.id });
    const { handle } = await client.call('run.handle', { run: run.id });
    const worktreeRow = async (hostMap?: Record<string, string>) =>
      (await client.call('handle.inspect', { handle, ...(hostMap ? { hostMap } : {}) })).agents[0]!.worktree;

    expect(await worktreeRow()).toEqual({ branch, state: 'existing', reason: null });
    // Its folder gone from the host, its branch kept: it will be re-created there.
    git(repo, 'worktree', 'remove', '--force', worktreePath);
    expect(await worktreeRow()).toEqual({
      branch,
      state: 'recreate',
      reason: `its worktree on devbox is gone: it will be re-created there from branch ${branch}`,
    });
    // The branch gone too: it cannot come back.
    git(repo, 'branch', '-D', branch);
    expect(await worktreeRow()).toEqual({
      branch,
      state: 'failed',
      reason: `its worktree and its branch ${branch} are gone from devbox`,
    });
    // A host that cannot be reached: a row that says so, and no verdict.
    const unreachable = await worktreeRow({ devbox: '127.0.0.1:1' });
    expect(unreachable).toMatchObject({ branch, state: 'unknown' });
    expect(unreachable?.reason).toMatch(/^127\.0\.0\.1:1 cannot be reached now \(.+\): it is checked there at resume$/);
    await client.call('run.delete', { run: run.id });
  }, 120_000);

  it('refuses a delete that removes worktrees while one on the host has uncommitted work, stopping nothing', async () => {
    const run = await client.call('run.start', {
      name: 'Dirty there',
      agents: [{ vendor: 'shell', label: 'far', cwd: repo, command: BASH, host: 'devbox', worktree: 'new' }],
    });
    const agent = run.agents[0]!;
    expect(agent, agent.warning ?? '').toMatchObject({ host: 'devbox', status: 'running' });
    const worktreePath = agent.worktree!.worktreePath;
    writeFileSync(join(worktreePath, 'notes.txt'), 'not committed\n');

    const refused = await client.call('run.delete', { run: run.id, removeWorktrees: true }).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(refused).toContain(`agent 'far' has uncommitted changes in its worktree ${worktreePath} on devbox (1 file)`);
    expect(refused).toContain('nothing was deleted');
    // Nothing was stopped or deleted, here or there.
    const after = await client.call('run.get', { run: run.id });
    expect(after.agents[0]!.status).toBe('running');
    const remote = await remoteCore(sshd);
    const there = (await remote.call('run.list', {})).find((r) => r.name === run.id);
    expect((await remote.call('run.get', { run: there!.id })).agents[0]!.status).toBe('running');
    remote.close();
    expect(existsSync(join(worktreePath, 'notes.txt'))).toBe(true);

    // Committed, the delete goes through and removes the worktree there.
    git(worktreePath, 'add', '-A');
    git(worktreePath, 'commit', '-qm', 'notes');
    await client.call('run.delete', { run: run.id, removeWorktrees: true });
    expect(existsSync(worktreePath)).toBe(false);
  }, 120_000);
  it('lists a connected host’s leftover worktrees with the host, and removes them through its core', async () => {
    const run = await client.call('run.start', {
      name: 'Left there',
      agents: [{ vendor: 'shell', label: 'far', cwd: repo, command: BASH, host: 'devbox', worktree: 'new' }],
    });
    const agent = run.agents[0]!;
    expect(agent, agent.warning ?? '').toMatchObject({ host: 'devbox', status: 'running' });
    const { worktreePath, branch } = agent.worktree!;
    // Deleted without its worktrees: the worktree stays on the host, owned by no run there.
    await client.call('run.delete', { run: run.id });
    expect(existsSync(worktreePath)).toBe(true);

    const listed = await client.call('worktrees.orphans', {});
    expect(listed.find((o) => o.worktreePath === worktreePath)).toEqual({
      worktreePath,
      repoRoot: repo,
      branch,
      dirty: false,
      host: 'devbox',
    });
    const cleaned = await client.call('worktrees.cleanup', { paths: [worktreePath], host: 'devbox' });
    expect(cleaned).toMatchObject([{ worktreePath, removed: true }]);
    expect(existsSync(worktreePath)).toBe(false);
    expect((await client.call('worktrees.orphans', {})).some((o) => o.worktreePath === worktreePath)).toBe(false);
  }, 120_000);
});
