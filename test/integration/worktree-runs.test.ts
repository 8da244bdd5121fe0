// Each agent in its own git worktree, through a real `baton serve` on real repositories in temp directories: what a
// user would check afterwards is asserted (files on disk, branches, `git status`, the pane, the outcome), never timings.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { BatonError, type AgentView, type EventPayload, type RunView } from '../../shared/contract.js';
import { branchesOf, commitAll, git, GIT_ENV, gitStatus, makeRepo, writeFile } from '../helpers/git-repo.js';
import {
  agentByLabel,
  ask,
  screenText,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';

let root: string;
let home: string;
let env: Record<string, string>;
let server: ServerProcess;
let client: RpcClient;
const changeEvents: EventPayload<'agent.changes'>[] = [];

/** A shell agent that runs `script` in its directory, then stays until stopped. */
const shell = (label: string, cwd: string, script: string, extra: Record<string, unknown> = { worktree: 'new' }) => ({
  vendor: 'shell' as const,
  label,
  cwd,
  command: ['/bin/sh', '-c', `${script}; echo "${label} is done"; exec sleep 600`],
  ...extra,
});

async function refusal(promise: Promise<unknown>): Promise<BatonError> {
  const err = await promise.then(
    () => {
      throw new Error('the request was accepted');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BatonError);
  return err as BatonError;
}

async function done(agent: AgentView): Promise<void> {
  await waitFor(
    async () => (await screenText(client, agent.id)).includes(`${agent.label} is done`),
    `${agent.label} to finish its script`,
  );
}

function worktreeOf(agent: AgentView): NonNullable<AgentView['worktree']> {
  expect(agent.worktree).not.toBeNull();
  return agent.worktree!;
}

beforeAll(async () => {
  root = realpathSync(tempDir('baton-worktree-runs-'));
  home = join(root, 'home');
  env = testEnv(home, { ...GIT_ENV });
  server = await startServer(join(root, 'data'), env);
  client = await server.connect();
  client.on('agent.changes', (e) => changeEvents.push(e));
}, 40_000);

afterAll(async () => {
  client?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

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
