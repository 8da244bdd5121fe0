// A fork of a run whose agent works in its own git worktree (docs/bundles.md §1): through a real `baton serve`, a real
// repository in a temp directory and the fake Claude Code CLI. The fork of a snapshot gets a new branch from the
// commit the source's worktree had then (not its later one), and its conversation, copied into the new worktree's
// directory and cut at the snapshot, goes on there.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { commitAll, git, GIT_ENV, makeRepo, writeFile } from '../helpers/git-repo.js';
import {
  agentByLabel,
  ask,
  randomNumber,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const QUESTION = 'what number did I ask you to remember';
const WAIT_MS = 20_000;
let root = '';
let server: ServerProcess | null = null;
let client: RpcClient;

beforeAll(async () => {
  root = realpathSync(tempDir('baton-fork-wt-'));
  server = await startServer(
    join(root, 'data'),
    testEnv(join(root, 'home'), { ...GIT_ENV, FAKE_CLAUDE_DELAY_MS: '20' }),
  );
  client = await server.connect();
}, 40_000);

afterAll(async () => {
  client?.close();
  await endServerAndRemove(server, root);
});

describe('fork of an agent in a worktree', () => {
  it('branches from the commit of the snapshot, in a worktree of its own, with the conversation as it was', async () => {
    const repo = makeRepo(join(root, 'app'));
    const run = await client.call('run.start', {
      name: 'wt',
      agents: [{ vendor: 'claude', label: 'a', cwd: repo, worktree: 'new' }],
    });
    const source = agentByLabel(run.agents, 'a');
    const tree = source.worktree!.worktreePath;
    const n = randomNumber();
    await ask(client, source.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    writeFile(join(tree, 'one.txt'), 'one\n');
    commitAll(tree, 'one');
    const atSnapshot = git(tree, 'rev-parse', 'HEAD').trim();
    await waitFor(
      async () => (await client.call('run.get', { run: 'wt' })).agents[0]!.sessionIds.at(-1)?.confirmed,
      'the session confirmed',
      WAIT_MS,
    );
    const snap = await client.call('run.snapshot', { run: 'wt' });
    expect(snap.agents[0]!.fork?.headCommit).toBe(atSnapshot);
    expect(snap.agents[0]!.fork?.transcriptBytes).toBeGreaterThan(0);
    // The source goes on: a later commit and a later number.
    writeFile(join(tree, 'two.txt'), 'two\n');
    commitAll(tree, 'two');
    const later = randomNumber([n]);
    await ask(client, source.id, `remember the number ${later}`, `OK, I will remember ${later}.`, WAIT_MS);

    const forked = await client.call('run.fork', { run: 'wt', snapshot: snap.id });
    const [outcome] = forked.outcomes;
    expect([outcome!.method, outcome!.from, outcome!.outcome]).toEqual(['copy', 'snapshot', 'resumed']);
    const copy = agentByLabel(forked.run.agents, 'a');
    const newTree = copy.worktree!.worktreePath;
    expect(newTree).not.toBe(tree);
    expect(copy.worktree!.branch).not.toBe(source.worktree!.branch);
    expect(git(newTree, 'rev-parse', 'HEAD').trim()).toBe(atSnapshot);
    expect(copy.cwd).toBe(newTree);
    await ask(client, copy.id, QUESTION, `The number is ${n}.`, WAIT_MS);
    // The source's worktree and branch are as they were.
    expect(git(tree, 'log', '--format=%s', '-1').trim()).toBe('two');
  });
});

describe('bundle of an agent in a worktree', () => {
  it('restores its branch in the repository the map names, and its worktree is made again from it', async () => {
    const repo = makeRepo(join(root, 'bundled'));
    const run = await client.call('run.start', {
      name: 'wtb',
      agents: [{ vendor: 'claude', label: 'a', cwd: repo, worktree: 'new' }],
    });
    const source = agentByLabel(run.agents, 'a');
    const tree = source.worktree!.worktreePath;
    await ask(client, source.id, 'remember the number 4242', 'OK, I will remember 4242.', WAIT_MS);
    writeFile(join(tree, 'work.txt'), 'work\n');
    commitAll(tree, 'work');
    const head = git(tree, 'rev-parse', 'HEAD').trim();
    await waitFor(
      async () => (await client.call('run.get', { run: 'wtb' })).agents[0]!.sessionIds.at(-1)?.confirmed,
      'the session confirmed',
      WAIT_MS,
    );
    const { bundle, agents } = await client.call('bundle.export', { run: 'wtb', passphrase: 'worktree passphrase' });
    expect(agents[0]!.transcript).toBe(true);

    // Another machine's copy of the repository: the same history, without the agent's branch.
    const clone = join(root, 'clone');
    git(root, 'clone', '-q', repo, clone);
    expect(() => git(clone, 'rev-parse', '--verify', '-q', `refs/heads/${source.worktree!.branch}`)).toThrow();
    const preview = await client.call('bundle.inspect', {
      bundle,
      passphrase: 'worktree passphrase',
      map: { [repo]: clone },
    });
    expect(preview.agents[0]!.branch).toBe(source.worktree!.branch);
    expect(preview.agents[0]!.mappedCwd).toBe(clone);
    const imported = await client.call('bundle.import', {
      bundle,
      passphrase: 'worktree passphrase',
      map: { [repo]: clone },
      name: 'wtb moved',
    });
    expect(imported.outcomes[0]!.outcome).not.toBe('failed');
    expect(git(clone, 'rev-parse', `refs/heads/${source.worktree!.branch}`).trim()).toBe(head);
    const agent = imported.run.agents[0]!;
    expect(agent.worktree!.repoRoot).toBe(clone);
    expect(git(agent.worktree!.worktreePath, 'rev-parse', 'HEAD').trim()).toBe(head);
  }, 120_000);
});
