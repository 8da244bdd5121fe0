// A remote agent in a git worktree of its own on its host, against a real sshd on 127.0.0.1 (test/helpers/sshd.ts):
// the host's core makes the worktree there (branch and folder named after this machine's run, as for a local agent),
// the agent works in it, and every worktree action (changes, merge, removal) is answered there. A resume from the
// run's handle, into an empty local data directory, brings the agent back in that worktree on that host.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView } from '../../shared/contract.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { screenText, startServer, tempDir, waitFor, type ServerProcess } from '../helpers/server.js';
import { runCli } from '../helpers/core.js';
import { BASH, IDENTITY, endSshMachines, git, localCore, remoteCore } from './ssh-hosts-helpers.js';

describe.skipIf(!sshdAvailable())('a remote agent in its own git worktree on its host', () => {
  let sshd: TestSshd;
  let server: ServerProcess;
  let client: RpcClient;
  let env: Record<string, string>;
  let repo: string;
  let agent: AgentView;
  let runId = '';

  beforeAll(async () => {
    sshd = await startSshd({ env: IDENTITY });
    // A repository in the host's HOME, with a folder the agent is started in.
    repo = join(sshd.remoteHome, 'src', 'app');
    mkdirSync(join(repo, 'lib'), { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README.md'), 'app\n');
    writeFileSync(join(repo, 'lib', 'index.js'), 'export {};\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'first');
    ({ env, server, client } = await localCore(sshd, 'baton-ssh-wt-'));
  }, 60_000);

  afterAll(() => endSshMachines(sshd, server, client), 60_000);

  it('starts it in a new worktree there, on a branch named after this run, and counts its changes', async () => {
    const counts: number[] = [];
    client.on('agent.changes', (e) => counts.push(e.files));
    const run = await client.call('run.start', {
      name: 'Remote work',
      agents: [
        { vendor: 'shell', label: 'far', cwd: join(repo, 'lib'), command: BASH, host: 'devbox', worktree: 'new' },
      ],
    });
    runId = run.id;
    agent = run.agents[0]!;
    const worktreePath = join(sshd.remoteHome, '.baton', 'worktrees', 'app', 'remote-work-far');
    expect(agent, agent.warning ?? '').toMatchObject({
      host: 'devbox',
      status: 'running',
      cwd: join(worktreePath, 'lib'),
      worktree: { repoRoot: repo, worktreePath, branch: 'baton/remote-work/far', created: true },
    });
    // It is a worktree of that repository on the host, on its own branch, and the agent's shell is in it.
    expect(git(worktreePath, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('baton/remote-work/far');
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${worktreePath}\n`);
    await client.call('agent.write', { agentId: agent.id, data: 'echo "pwd=$PWD"\r' });
    await waitFor(async () => (await screenText(client, agent.id)).includes(`pwd=${worktreePath}/lib`), 'its pwd');

    // What it changes there is counted there and relayed here, as a local agent's watch would.
    await client.call('agent.write', { agentId: agent.id, data: 'echo hello > made.txt\r' });
    await waitFor(() => counts.at(-1) === 1, 'a changed-file count of 1 from the host', 20_000);
    const changes = await client.call('agent.changes', { agentId: agent.id });
    expect(changes).toMatchObject({ branch: 'baton/remote-work/far', files: 1, untracked: ['lib/made.txt'] });
    expect(changes.patch).toContain('+hello');
    await client.call('agent.write', {
      agentId: agent.id,
      data: 'git add -A && git commit -qm "agent work" && echo COMMITTED\r',
    });
    await waitFor(async () => (await screenText(client, agent.id)).includes('COMMITTED'), 'the commit');
    const committed = await client.call('agent.changes', { agentId: agent.id });
    expect(committed).toMatchObject({ files: 1, untracked: [], insertions: 1 });
  }, 180_000);

  it('brings it back in that worktree on that host from the run handle, in an empty local data directory', async () => {
    await client.call('run.stop', { run: runId });
    const { handle } = await client.call('run.handle', { run: runId });
    // While it is stopped, its worktree cannot be removed with uncommitted work in it; the message is the host's.
    writeFileSync(join(agent.worktree!.worktreePath, 'scratch.txt'), 'wip\n');
    await expect(client.call('agent.removeWorktree', { agentId: agent.id })).rejects.toThrow(/uncommitted/);
    client.close();
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startServer(join(tempDir('baton-ssh-wt-fresh-'), 'data'), env);
    client = await server.connect();
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => [a.label, a.host ?? null])).toEqual([['far', 'devbox']]);
    const { run, outcomes } = await client.call('run.resume', { handle, confirmShell: [0] });
    expect(outcomes.map((o) => [o.label, o.outcome === 'failed' ? o.message : 'ok'])).toEqual([['far', 'ok']]);
    const back = run.agents[0]!;
    expect(back).toMatchObject({
      host: 'devbox',
      status: 'running',
      cwd: agent.cwd,
      worktree: { worktreePath: agent.worktree!.worktreePath, branch: 'baton/remote-work/far', created: true },
    });
    await client.call('agent.write', { agentId: back.id, data: 'echo "again=$PWD $(git branch --show-current)"\r' });
    await waitFor(
      async () => (await screenText(client, back.id)).includes(`again=${agent.cwd} baton/remote-work/far`),
      'its shell in the worktree again',
    );
    agent = back;
  }, 180_000);

  it('merges its branch there, then removes its worktree and the merged branch there', async () => {
    const merged = await client.call('agent.merge', { agentId: agent.id });
    expect(merged).toMatchObject({ merged: true, into: 'main' });
    expect(readFileSync(join(repo, 'lib', 'made.txt'), 'utf8')).toBe('hello\n');
    // Removal waits for the agent to stop, and for its uncommitted work to be forced away.
    await expect(client.call('agent.removeWorktree', { agentId: agent.id })).rejects.toThrow(/stop it first/);
    await client.call('run.stop', { run: runId });
    await expect(client.call('agent.removeWorktree', { agentId: agent.id })).rejects.toThrow(/uncommitted/);
    const removed = await client.call('agent.removeWorktree', { agentId: agent.id, force: true });
    expect(removed).toMatchObject({ removed: true, branchKept: false });
    expect(existsSync(agent.worktree!.worktreePath)).toBe(false);
    expect(git(repo, 'branch', '--list', 'baton/*')).toBe('');
  }, 120_000);

  it('does the same from the command line: --worktree after an --agent on a host', async () => {
    const cli = { ...env, BATON_URL: server.url, BATON_TOKEN: server.token };
    const started = await runCli(
      ['start', 'from-cli', '--agent', `shell:cli@devbox:${repo}`, '--worktree', '--json'],
      cli,
    );
    expect(started.code, started.stderr).toBe(0);
    const run = JSON.parse(started.stdout) as { id: string; agents: AgentView[] };
    const worktreePath = join(sshd.remoteHome, '.baton', 'worktrees', 'app', 'from-cli-cli');
    expect(run.agents[0]).toMatchObject({
      host: 'devbox',
      status: 'running',
      cwd: worktreePath,
      worktree: { worktreePath, branch: 'baton/from-cli/cli' },
    });
    expect(git(worktreePath, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('baton/from-cli/cli');
    // Deleting the run with its worktrees removes the one on the host too (its branch had nothing new: deleted).
    const deleted = await runCli(['delete', 'from-cli', '--remove-worktrees'], cli);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(existsSync(worktreePath)).toBe(false);
    expect(git(repo, 'branch', '--list', 'baton/from-cli/*')).toBe('');
  }, 120_000);
});
