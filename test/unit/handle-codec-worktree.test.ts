import { describe, expect, it } from 'vitest';
import { BatonError } from '../../shared/contract.js';
import { decodeHandle, encodeHandle } from '../../electron/core/handle/codec.js';
import { rules, RUN, CREATED, agent, rawJson, b64json, refused } from './handle-codec-helpers.js';

describe('an agent’s worktree in a handle', () => {
  const WORKTREE = {
    repoRoot: '/home/me/app',
    worktreePath: '/home/me/.baton/worktrees/app/demo-planner',
    branch: 'baton/demo/planner',
    baseCommit: 'a'.repeat(40),
  };
  const inWorktree = (over: Partial<typeof WORKTREE> = {}, cwd = `${WORKTREE.worktreePath}/src`) =>
    agent(1, { cwd, worktree: { ...WORKTREE, ...over } });

  it('round-trips, and a handle without one is unchanged', () => {
    const decoded = decodeHandle(
      encodeHandle({ run: RUN, createdAt: CREATED, agents: [inWorktree(), agent(2)] }),
      rules,
    );
    expect(decoded.agents[0]!.worktree).toEqual(WORKTREE);
    expect(decoded.agents[1]).not.toHaveProperty('worktree');
    const plain = encodeHandle({ run: RUN, createdAt: CREATED, agents: [agent(2)] });
    expect(JSON.parse(Buffer.from(plain.slice(7), 'base64url').toString('utf8')).agents[0]).not.toHaveProperty(
      'worktree',
    );
  });

  it.each([
    [
      'a worktree path with ..',
      { worktreePath: '/home/me/.baton/worktrees/../../../etc' },
      'agents[0].worktree.worktreePath',
      'must be an absolute, normalised path',
    ],
    [
      'a relative worktree path',
      { worktreePath: 'worktrees/app' },
      'agents[0].worktree.worktreePath',
      'must be an absolute, normalised path',
    ],
    [
      'the root as worktree',
      { worktreePath: '/' },
      'agents[0].worktree.worktreePath',
      'must not be the root directory',
    ],
    [
      'a repository root with a trailing slash',
      { repoRoot: '/home/me/app/' },
      'agents[0].worktree.repoRoot',
      'must be an absolute, normalised path',
    ],
    ['a branch starting with -', { branch: '-f' }, 'agents[0].worktree.branch', 'is not a valid git branch name'],
    ['a branch with ..', { branch: 'baton/../main' }, 'agents[0].worktree.branch', 'is not a valid git branch name'],
    ['a branch with a space', { branch: 'my branch' }, 'agents[0].worktree.branch', 'is not a valid git branch name'],
    [
      'a branch ending in .lock',
      { branch: 'baton/x.lock' },
      'agents[0].worktree.branch',
      'is not a valid git branch name',
    ],
    ['a branch with @{', { branch: 'x@{1}' }, 'agents[0].worktree.branch', 'is not a valid git branch name'],
    ['a short commit', { baseCommit: 'abc1234' }, 'agents[0].worktree.baseCommit', 'must be a full commit id'],
    [
      'an upper-case commit',
      { baseCommit: 'A'.repeat(40) },
      'agents[0].worktree.baseCommit',
      'must be a full commit id',
    ],
  ])('refuses %s, naming the field, never the value', (_what, over, field, rule) => {
    const value = Object.values(over)[0]!;
    refused(b64json(rawJson({}, [inWorktree(over)])), field, `${field}: ${rule}`, value.length > 3 ? [value] : []);
  });

  it('refuses a cwd outside the worktree, unknown keys, and a worktree that is not an object', () => {
    refused(
      b64json(rawJson({}, [inWorktree({}, '/home/me/app')])),
      'agents[0].cwd',
      "must lie inside the agent's worktree",
      ['/home/me/app'],
    );
    refused(
      b64json(rawJson({}, [{ ...inWorktree(), worktree: { ...WORKTREE, setup: ['rm', '-rf'] } }])),
      'agents[0].worktree',
      'unknown field',
      ['rm -rf'],
    );
    refused(
      b64json(rawJson({}, [{ ...agent(1), worktree: 'new' }])),
      'agents[0].worktree',
      'worktree must be an object',
    );
  });

  it('Baton never encodes a worktree it would refuse to read back', () => {
    expect(() =>
      encodeHandle({ run: RUN, createdAt: CREATED, agents: [inWorktree({ branch: 'bad branch' })] }),
    ).toThrow(BatonError);
  });
});
