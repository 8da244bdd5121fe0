// The dashboard's worktree parts that need no page (docs/worktrees.md): what the New run dialog asks the core for
// each isolation choice, which setup commands it approves, how a patch is drawn, which repositories a pasted handle
// names, and the pane header's count following the core's `agent.changes` event through the real store.
import { afterEach, describe, expect, it } from 'vitest';
import { handleRepoRoots, reposToMap, usableRepoMap } from '../../renderer/components/handle-repos.js';
import { patchLines, visibleRange, widestLine } from '../../renderer/components/patch-lines.js';
import {
  DEFAULT_WORKTREE_CHOICE,
  setupApprovedHere,
  setupsToApprove,
  toggleSetup,
  worktreeError,
  worktreeSpec,
  type RepoState,
  type WorktreeChoice,
} from '../../renderer/components/worktree-spec.js';
import { useBaton } from '../../renderer/state/store.js';
import type { Method, Params, Result } from '../../shared/contract.js';
import { fakeClient } from '../helpers/fake-client.js';

const repo = (over: Partial<Extract<RepoState, { state: 'repo' }>['repo']> = {}): RepoState => ({
  state: 'repo',
  repo: {
    repoRoot: '/home/u/app',
    currentBranch: 'main',
    headCommit: 'a'.repeat(40),
    branches: ['main', 'dev'],
    setup: null,
    ...over,
  },
});
const choice = (over: Partial<WorktreeChoice> = {}): WorktreeChoice => ({ ...DEFAULT_WORKTREE_CHOICE, ...over });

describe('New run: the isolation an agent is started with', () => {
  it('is its own new worktree by default inside a repository, and nothing (its directory) outside one', () => {
    expect(worktreeSpec(choice(), repo())).toEqual({ worktree: 'new' });
    expect(worktreeSpec(choice(), { state: 'none' })).toEqual({});
    expect(worktreeSpec(choice(), undefined)).toEqual({});
    expect(worktreeSpec(choice(), { state: 'error', message: 'x' })).toEqual({});
  });

  it('shares the directory, takes another base, or reuses a branch or a worktree when the user says so', () => {
    expect(worktreeSpec(choice({ isolation: 'share' }), repo())).toEqual({ worktree: 'none' });
    expect(worktreeSpec(choice({ base: 'dev' }), repo())).toEqual({ worktree: 'new', base: 'dev' });
    // The current branch is the default: the core takes HEAD as it is at start.
    expect(worktreeSpec(choice({ base: 'main' }), repo())).toEqual({ worktree: 'new' });
    expect(worktreeSpec(choice({ reuse: 'branch', existingBranch: 'dev', base: 'main' }), repo())).toEqual({
      worktree: { existingBranch: 'dev' },
    });
    expect(worktreeSpec(choice({ reuse: 'worktree', existingWorktree: '/home/u/app-x' }), repo())).toEqual({
      worktree: { existingWorktree: '/home/u/app-x' },
    });
  });

  it('asks for the branch or path to reuse before Start', () => {
    expect(worktreeError(choice({ reuse: 'branch' }), repo())).toBe('Choose the branch to use');
    expect(worktreeError(choice({ reuse: 'worktree' }), repo())).toMatch(/path of the worktree/);
    expect(worktreeError(choice({ reuse: 'worktree', existingWorktree: 'rel/x' }), repo())).toMatch(
      /^Worktree path must be an absolute path/,
    );
    expect(worktreeError(choice({ reuse: 'branch' }), { state: 'none' })).toBeNull();
    expect(worktreeError(choice({ reuse: 'branch', isolation: 'share' }), repo())).toBeNull();
  });

  it('approves a setup command only where the user checked it and a new worktree is made, once per repository', () => {
    const setup = { command: ['npm', 'ci'], hash: 'h1', approved: false };
    const withSetup = repo({ setup });
    let approved = toggleSetup(new Set(), withSetup, true);
    expect(setupApprovedHere(approved, withSetup)).toBe(true);
    const rows = [
      { choice: choice(), state: withSetup },
      { choice: choice(), state: withSetup },
      { choice: choice({ isolation: 'share' }), state: repo({ repoRoot: '/other', setup: { ...setup, hash: 'h2' } }) },
    ];
    expect(setupsToApprove(rows, approved)).toEqual([{ repoRoot: '/home/u/app', hash: 'h1' }]);
    expect(
      setupsToApprove([{ choice: choice({ reuse: 'worktree', existingWorktree: '/x' }), state: withSetup }], approved),
    ).toEqual([]);
    expect(
      setupsToApprove([{ choice: choice(), state: repo({ setup: { ...setup, approved: true } }) }], approved),
    ).toEqual([]);
    approved = toggleSetup(approved, withSetup, false);
    expect(setupsToApprove(rows, approved)).toEqual([]);
  });
});

describe('Changes: the patch as drawn', () => {
  const patch = [
    'diff --git a/a.txt b/a.txt',
    'new file mode 100644',
    'index 0000000..7898192',
    '--- /dev/null',
    '+++ b/a.txt',
    '@@ -0,0 +1,2 @@',
    '+a',
    '+++ not a header inside a hunk',
    '-gone',
    ' same',
    '\\ No newline at end of file',
    '',
  ].join('\n');

  it('colours additions, deletions, hunks and file headers, and reads +++ inside a hunk as content', () => {
    expect(patchLines(patch).map((l) => l.kind)).toEqual([
      'file',
      'meta',
      'meta',
      'meta',
      'meta',
      'hunk',
      'add',
      'add',
      'del',
      'context',
      'note',
    ]);
    expect(patchLines('')).toEqual([]);
  });

  it('draws only the rows in view of a large patch, with a margin', () => {
    expect(visibleRange(100_000, 0, 360, 18, 10)).toEqual({ first: 0, last: 30 });
    expect(visibleRange(100_000, 18 * 5000, 360, 18, 10)).toEqual({ first: 4990, last: 5030 });
    expect(visibleRange(40, 18 * 1000, 360, 18, 10)).toEqual({ first: 990, last: 990 });
    expect(widestLine(patchLines(`+${'x'.repeat(5000)}\n`))).toBe(2000);
  });
});

describe('Resume: the repositories a handle names', () => {
  const body = {
    v: 1,
    agents: [
      {
        id: 'agt_1',
        worktree: { repoRoot: '/gone/app', worktreePath: '/w/a', branch: 'baton/x/a', baseCommit: 'b'.repeat(40) },
      },
      { id: 'agt_2' },
      { id: 'agt_3', worktree: { repoRoot: '/gone/app' } },
    ],
  };
  const handle = `baton1.${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}`;

  it('reads each agent’s repository root from a baton1 handle or its JSON, and nothing from anything else', () => {
    expect(handleRepoRoots(handle)).toEqual(['/gone/app', null, '/gone/app']);
    expect(handleRepoRoots(JSON.stringify(body))).toEqual(['/gone/app', null, '/gone/app']);
    expect(handleRepoRoots('baton1.@@@')).toEqual([]);
    expect(handleRepoRoots('0f2a…')).toEqual([]);
  });

  it('offers a new path for a repository whose worktree failed, once, and keeps the field once mapped', () => {
    const roots = handleRepoRoots(handle);
    expect(reposToMap(roots, ['failed', null, 'failed'], {})).toEqual(['/gone/app']);
    expect(reposToMap(roots, ['existing', null, 'existing'], {})).toEqual([]);
    expect(reposToMap(roots, ['existing', null, 'existing'], { '/gone/app': '/new/app' })).toEqual(['/gone/app']);
    expect(usableRepoMap({ '/gone/app': '/new/app', '/x': 'relative', '/y': '', '/z': '/z' })).toEqual({
      '/gone/app': '/new/app',
    });
  });
});

describe('the pane header’s changed-file count', () => {
  const initial = useBaton.getState();
  afterEach(() => useBaton.setState({ changes: {}, runDetails: {}, selectedRunId: null }));
  afterEach(() => initial.setConnection('connecting', null));

  /** A client whose events the test fires and whose answers it gives. */
  function answering(answers: Partial<{ [M in Method]: (p: Params<M>) => Result<M> }>) {
    return fakeClient(async <M extends Method>(method: M, params: Params<M>) => {
      const answer = answers[method] as ((p: Params<M>) => Result<M>) | undefined;
      if (!answer) throw new Error(`unexpected ${method}`);
      return answer(params);
    });
  }

  it('follows the agent.changes event, and counts events so an open Changes view refreshes', async () => {
    const changes = {
      branch: 'baton/r/one',
      baseCommit: 'c'.repeat(40),
      files: 3,
      insertions: 3,
      deletions: 0,
      stat: '',
      untracked: [],
      patch: '',
      truncated: false,
    };
    const { client, fire } = answering({
      'host.info': () => ({ version: 't', dataDir: '/d', vendors: [] }),
      'run.list': () => [],
      'agent.changes': () => changes,
    });
    useBaton.getState().setConnection('connected', client);
    expect(useBaton.getState().changes.agt_1).toBeUndefined();
    await useBaton.getState().loadChangeCount('agt_1');
    expect(useBaton.getState().changes.agt_1).toEqual({ files: 3, seq: 0 });
    fire('agent.changes', { runId: 'run_0000000000000001', agentId: 'agt_1', files: 1 });
    expect(useBaton.getState().changes.agt_1).toEqual({ files: 1, seq: 1 });
    fire('agent.changes', { runId: 'run_0000000000000001', agentId: 'agt_1', files: 1 });
    expect(useBaton.getState().changes.agt_1?.seq).toBe(2);
  });
});
