// The worktree verbs of the `baton` command line as a user types them, against a real `baton serve` and real git
// repositories: what they print, their exit codes, and what the repository holds afterwards.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { runCli } from '../helpers/core.js';
import { branchesOf, commitAll, GIT_ENV, gitStatus, makeRepo, writeFile } from '../helpers/git-repo.js';
import { agentByLabel, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

let root: string;
let env: Record<string, string>;
let server: ServerProcess;
let client: RpcClient;
let repo: string;
let data: string[];

beforeAll(async () => {
  root = realpathSync(tempDir('baton-worktree-cli-'));
  env = testEnv(join(root, 'home'), { ...GIT_ENV });
  server = await startServer(join(root, 'data'), env);
  client = await server.connect();
  repo = makeRepo(join(root, 'app'));
  data = ['--data-dir', server.dataDir];
}, 40_000);

afterAll(async () => {
  client?.close();
  await endServerAndRemove(server, root);
});

describe('baton and worktrees', () => {
  it('documents the verbs: help lists them, start explains --worktree and --base', async () => {
    const help = await runCli(['help'], env);
    expect(help.code).toBe(0);
    for (const line of [/^ {2}changes <run> <label>/m, /^ {2}merge <run> <label>/m, /^ {2}worktrees /m])
      expect(help.stdout).toMatch(line);
    const start = await runCli(['start', '--help'], env);
    expect(start.stdout).toMatch(/--worktree\s+after an --agent: that agent works in a new git worktree/);
    expect(start.stdout).toMatch(/--base BRANCH/);
    expect(start.stdout).toContain('--agent claude:planner@~/src/app --worktree');
    expect((await runCli(['delete', '--help'], env)).stdout).toContain('--remove-worktrees');
    expect((await runCli(['worktrees', '--help'], env)).stdout).toContain('--prune');
    expect((await runCli(['changes', '--help'], env)).stdout).toContain('--patch');
  });

  it('refuses --worktree before any --agent, and --base without --worktree (usage, exit 2)', async () => {
    const before = await runCli(['start', 'x', '--worktree', '--agent', `shell:a@${repo}`, ...data], env);
    expect(before.code).toBe(2);
    expect(before.stderr).toMatch(/^baton start: --worktree belongs to the --agent before it/);
    const base = await runCli(['start', 'x', '--agent', `shell:a@${repo}`, '--base', 'main', ...data], env);
    expect(base.code).toBe(2);
    expect(base.stderr).toMatch(/--base is for a new worktree: add --worktree/);
  });

  it('start --worktree gives only that agent a worktree; changes, merge, delete, worktrees --prune', async () => {
    const started = await runCli(
      [
        'start',
        'cli',
        '--agent',
        `shell:iso@${repo}`,
        '--worktree',
        '--base',
        'main',
        '--agent',
        `shell:shared@${repo}`,
        ...data,
      ],
      env,
    );
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^iso \(shell\) running in .*\/app\/cli-iso \(worktree on baton\/cli\/iso\)$/m);
    expect(started.stdout).toMatch(/^shared \(shell\) running$/m);
    const run = await client.call('run.get', { run: 'cli' });
    const iso = agentByLabel(run.agents, 'iso');
    expect(agentByLabel(run.agents, 'shared').worktree).toBeNull();
    const wt = iso.worktree!.worktreePath;

    // The agent's work: a new file, committed on its branch, and one more file not yet committed.
    writeFile(join(wt, 'feature.txt'), 'feature\n');
    commitAll(wt, 'feature');
    writeFile(join(wt, 'draft.txt'), 'draft\n');

    const changes = await runCli(['changes', 'cli', 'iso', ...data], env);
    expect(changes.code, changes.stderr).toBe(0);
    expect(changes.stdout).toMatch(/^iso: branch baton\/cli\/iso, since [0-9a-f]{8}: 2 files changed \(\+2 -0\)$/m);
    expect(changes.stdout).toContain('feature.txt');
    expect(changes.stdout).toContain('draft.txt | new, untracked');
    const patch = await runCli(['changes', 'cli', 'iso', '--patch', ...data], env);
    expect(patch.stdout).toContain('+feature');
    expect(patch.stdout).toContain('+draft');

    const merged = await runCli(['merge', 'cli', 'iso', ...data], env);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(
      /^merged baton\/cli\/iso into main \([0-9a-f]{8}\); the agent's worktree also has uncommitted changes/,
    );
    expect(readFileSync(join(repo, 'feature.txt'), 'utf8')).toBe('feature\n');
    expect(existsSync(join(repo, 'draft.txt'))).toBe(false);
    expect(gitStatus(repo)).toBe('');

    const noWorktree = await runCli(['merge', 'cli', 'shared', ...data], env);
    expect(noWorktree.code).toBe(1);
    expect(noWorktree.stderr).toMatch(/^baton: agent 'shared' has no worktree of its own/);

    // Deleted without its worktrees: the worktree is left over, and listed.
    const deleted = await runCli(['delete', 'cli', ...data], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    const listed = await runCli(['worktrees', ...data], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(`${wt}\tbaton/cli/iso\t${repo}\tuncommitted changes\n`);

    // Uncommitted work is never pruned: kept, said so, exit 1; once committed, pruned.
    const kept = await runCli(['worktrees', '--prune', ...data], env);
    expect(kept.code).toBe(1);
    expect(kept.stdout).toMatch(/^kept .*uncommitted changes/);
    expect(existsSync(wt)).toBe(true);
    commitAll(wt, 'draft');
    const pruned = await runCli(['worktrees', '--prune', ...data], env);
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(
      /^removed the worktree .*; kept branch baton\/cli\/iso: branch baton\/cli\/iso has unmerged commits/,
    );
    expect(existsSync(wt)).toBe(false);
    expect((await runCli(['worktrees', ...data], env)).stdout).toMatch(/^No worktrees left over/);
    expect(branchesOf(repo)).toContain('baton/cli/iso');
  });

  it('delete --remove-worktrees removes the run’s worktrees and their merged branches', async () => {
    const started = await runCli(['start', 'gone', '--agent', `shell:a@${repo}`, '--worktree', ...data], env);
    expect(started.code, started.stderr).toBe(0);
    const wt = agentByLabel((await client.call('run.get', { run: 'gone' })).agents, 'a').worktree!.worktreePath;
    const deleted = await runCli(['delete', 'gone', '--remove-worktrees', ...data], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe("deleted 'gone' and 1 worktree\n");
    expect(existsSync(wt)).toBe(false);
    expect(branchesOf(repo)).not.toContain('baton/gone/a');
  });

  it('worktrees --approve-setup prints the setup command and approves it', async () => {
    writeFile(join(repo, '.baton', 'setup.json'), JSON.stringify({ command: ['npm', 'ci'] }));
    commitAll(repo, 'setup');
    const approved = await runCli(['worktrees', '--approve-setup', repo, ...data], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toBe(
      `setup command of ${repo}: npm ci\napproved: new worktrees of this repository run it before their agent starts\n`,
    );
    expect((await client.call('worktree.inspect', { cwd: repo }))!.setup).toMatchObject({
      command: ['npm', 'ci'],
      approved: true,
    });
  });
});
