// Each agent in its own git worktree, through a real `baton serve` on real repositories in temp directories: what a
// user would check afterwards is asserted (files on disk, branches, `git status`, the pane, the outcome), never timings.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunView } from '../../shared/contract.js';
import { branchesOf, commitAll, git, gitStatus, makeRepo, writeFile } from '../helpers/git-repo.js';
import { agentByLabel, screenText, waitFor } from '../helpers/server.js';
import {
  root,
  server,
  client,
  changeEvents,
  shell,
  done,
  worktreeOf,
  useWorktreeRunsServer,
} from './worktree-runs-server.js';
import { refusal } from '../helpers/refusal.js';

useWorktreeRunsServer();

describe('agents of one run in one repository, each in its own worktree', () => {
  let repo: string;
  let run: RunView;

  beforeAll(async () => {
    repo = makeRepo(join(root, 'shared-repo'));
    run = await client.call('run.start', {
      name: 'two-worktrees',
      agents: [
        shell('a', join(repo, 'src'), 'printf "from a\\n" > app.txt'),
        shell('b', join(repo, 'src'), 'printf "from b\\n" > app.txt'),
      ],
    });
    for (const a of run.agents) await done(a);
  });

  it('writes the same file in each worktree, and neither agent (nor the main checkout) sees the other’s edit', () => {
    const [a, b] = [agentByLabel(run.agents, 'a'), agentByLabel(run.agents, 'b')];
    const [wa, wb] = [worktreeOf(a), worktreeOf(b)];
    expect(wa.worktreePath).not.toBe(wb.worktreePath);
    expect(wa).toMatchObject({ repoRoot: repo, branch: 'baton/two-worktrees/a', created: true });
    expect(wb.branch).toBe('baton/two-worktrees/b');
    expect(wa.baseCommit).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    // The folder the user chose inside the repository, in the agent's worktree.
    expect(a.cwd).toBe(join(wa.worktreePath, 'src'));
    expect(readFileSync(join(wa.worktreePath, 'src', 'app.txt'), 'utf8')).toBe('from a\n');
    expect(readFileSync(join(wb.worktreePath, 'src', 'app.txt'), 'utf8')).toBe('from b\n');
    expect(readFileSync(join(repo, 'src', 'app.txt'), 'utf8')).toBe('line 1\nline 2\n');
    expect(gitStatus(repo)).toBe('');
    expect(branchesOf(repo)).toEqual(['baton/two-worktrees/a', 'baton/two-worktrees/b', 'main']);
  });

  it('shows what each agent changed, and announces its changed-file count while it runs', async () => {
    const a = agentByLabel(run.agents, 'a');
    const changes = await client.call('agent.changes', { agentId: a.id });
    expect(changes).toMatchObject({
      branch: 'baton/two-worktrees/a',
      files: 1,
      insertions: 1,
      deletions: 2,
      truncated: false,
    });
    expect(changes.patch).toContain('+from a');
    expect(changes.patch).not.toContain('from b');
    await waitFor(() => changeEvents.some((e) => e.agentId === a.id && e.files === 1), 'an agent.changes event for a');
    // A new untracked file: the count follows within a few seconds.
    writeFileSync(join(worktreeOf(a).worktreePath, 'notes.md'), 'more\n');
    await waitFor(() => changeEvents.some((e) => e.agentId === a.id && e.files === 2), 'the count to reach 2', 10_000);
  });

  it('refuses agent.changes for an agent without a worktree, naming it', async () => {
    const plain = await client.call('run.start', { name: 'no-worktree', agents: [shell('plain', repo, 'true', {})] });
    const agent = agentByLabel(plain.agents, 'plain');
    expect(agent.worktree).toBeNull();
    expect(agent.cwd).toBe(repo);
    const err = await refusal(client.call('agent.changes', { agentId: agent.id }));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain("agent 'plain' has no worktree");
    await client.call('run.delete', { run: plain.id });
  });

  it('refuses a worktree for a folder that is not in a repository, naming the agent and the path', async () => {
    const plainDir = join(root, 'not-a-repo');
    mkdirSync(plainDir, { mode: 0o755 });
    const err = await refusal(client.call('run.start', { name: 'no-repo', agents: [shell('x', plainDir, 'true')] }));
    expect(err).toMatchObject({ code: 'invalid', field: 'agents[0].worktree' });
    expect(err.message).toContain(`agent 'x' (shell): ${plainDir} is not inside a git repository`);
    expect((await client.call('run.list', {})).map((r) => r.name)).not.toContain('no-repo');
  });

  it('stops watching a worktree once its agent stops', async () => {
    const b = agentByLabel(run.agents, 'b');
    await waitFor(() => changeEvents.some((e) => e.agentId === b.id), 'a first count for b');
    await client.call('agent.stop', { agentId: b.id });
    const seen = changeEvents.filter((e) => e.agentId === b.id).length;
    writeFileSync(join(worktreeOf(b).worktreePath, 'after-stop.md'), 'late\n');
    await new Promise((r) => setTimeout(r, 4500));
    // At most the last count taken at its exit, never the file written after it.
    expect(changeEvents.filter((e) => e.agentId === b.id && e.files === 2)).toEqual([]);
    expect(changeEvents.filter((e) => e.agentId === b.id).length).toBeLessThanOrEqual(seen + 1);
  });

  afterAll(async () => {
    await client.call('run.stop', { run: run.id });
  });
});

describe('.worktreeinclude and the setup command', () => {
  it('copies .env (git-ignored, named by .worktreeinclude) into the new worktree', async () => {
    const repo = makeRepo(join(root, 'include-repo'));
    writeFile(join(repo, '.worktreeinclude'), '.env\n');
    commitAll(repo, 'include');
    writeFile(join(repo, '.env'), 'API_KEY=secret\n');
    const run = await client.call('run.start', { name: 'include', agents: [shell('a', repo, 'cat .env')] });
    const a = agentByLabel(run.agents, 'a');
    await done(a);
    expect(readFileSync(join(worktreeOf(a).worktreePath, '.env'), 'utf8')).toBe('API_KEY=secret\n');
    const screen = await screenText(client, a.id);
    expect(screen).toContain('API_KEY=secret');
    expect(screen).toMatch(/copied 1 file named by \.worktreeinclude: \.env/);
    await client.call('run.stop', { run: run.id });
  });

  it('runs the setup command only once the user approved it, its output in the pane', async () => {
    const repo = makeRepo(join(root, 'setup-repo'));
    writeFile(
      join(repo, '.baton', 'setup.json'),
      JSON.stringify({ command: ['/bin/sh', '-c', 'echo installing; echo ok > setup-ran.txt'] }),
    );
    commitAll(repo, 'setup');

    const inspected = await client.call('worktree.inspect', { cwd: repo });
    expect(inspected).toMatchObject({ repoRoot: repo, currentBranch: 'main', branches: ['main'] });
    expect(inspected!.setup).toMatchObject({
      command: ['/bin/sh', '-c', 'echo installing; echo ok > setup-ran.txt'],
      approved: false,
    });

    const first = await client.call('run.start', { name: 'setup-unapproved', agents: [shell('a', repo, 'true')] });
    const a = agentByLabel(first.agents, 'a');
    await done(a);
    expect(existsSync(join(worktreeOf(a).worktreePath, 'setup-ran.txt'))).toBe(false);
    expect(a.warning).toMatch(/the setup command \(.*\) of .* was not run: it has not been approved/);
    expect(a.warning).toContain(`baton worktrees --approve-setup ${repo}`);
    expect(await screenText(client, a.id)).toMatch(/not been approved/);

    // A hash that is not the command's own is refused; the right one approves it.
    const wrong = await refusal(client.call('worktree.approveSetup', { repoRoot: repo, hash: '0'.repeat(64) }));
    expect(wrong.code).toBe('conflict');
    await client.call('worktree.approveSetup', { repoRoot: repo, hash: inspected!.setup!.hash });
    expect((await client.call('worktree.inspect', { cwd: repo }))!.setup!.approved).toBe(true);
    expect(existsSync(join(server.dataDir, 'worktree-approvals.json'))).toBe(true);

    const second = await client.call('run.start', { name: 'setup-approved', agents: [shell('b', repo, 'true')] });
    const b = agentByLabel(second.agents, 'b');
    await done(b);
    expect(readFileSync(join(worktreeOf(b).worktreePath, 'setup-ran.txt'), 'utf8')).toBe('ok\n');
    expect(b.warning).toBeNull();
    const screen = await screenText(client, b.id);
    expect(screen).toContain('setup | installing');
    // The setup's output comes before the agent's own.
    expect(screen.indexOf('setup | installing')).toBeLessThan(screen.indexOf('b is done'));
    await client.call('run.stop', { run: first.id });
    await client.call('run.stop', { run: second.id });
  });
});

describe('merging an agent’s branch', () => {
  it('merges into the base branch in the main checkout; a conflict is reported and the checkout stays clean', async () => {
    const repo = makeRepo(join(root, 'merge-repo'));
    const run = await client.call('run.start', {
      name: 'merges',
      agents: [
        shell('good', repo, 'printf "new\\n" > added.txt && git add -A && git commit -qm "good work"'),
        shell('clash', repo, 'printf "clash\\n" > README.md && git add -A && git commit -qm "clashing work"'),
      ],
    });
    for (const a of run.agents) await done(a);
    const good = agentByLabel(run.agents, 'good');
    const clash = agentByLabel(run.agents, 'clash');

    const merged = await client.call('agent.merge', { agentId: good.id });
    expect(merged).toMatchObject({ merged: true, into: 'main', conflicts: [] });
    expect(merged.message).toContain('merged baton/merges/good into main');
    expect(readFileSync(join(repo, 'added.txt'), 'utf8')).toBe('new\n');
    expect(gitStatus(repo)).toBe('');

    // The main checkout moves on: the same file, changed differently.
    writeFile(join(repo, 'README.md'), 'main changed it\n');
    commitAll(repo, 'main work');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const conflicted = await client.call('agent.merge', { agentId: clash.id });
    expect(conflicted).toMatchObject({ merged: false, into: 'main', conflicts: ['README.md'] });
    expect(conflicted.message).toMatch(/conflicts in 1 file: README\.md: the merge was aborted/);
    expect(gitStatus(repo)).toBe('');
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('main changed it\n');
    await client.call('run.stop', { run: run.id });
  });
});
