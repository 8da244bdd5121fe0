// Planning a bundle's import (electron/core/runs/bundle-plan.ts): what an opened bundle may ask for, checked before
// anything is written. A transcript goes only where the vendor's CLI looks for it, under the directory the map gives;
// a path escape in the handle, a branch the handle does not name, or an agent with no directory here is refused.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealBundle } from '../../electron/core/bundle/crypto.js';
import { packPayload, type BundlePayload } from '../../electron/core/bundle/payload.js';
import { encodeHandle } from '../../electron/core/handle/codec.js';
import { importPlan } from '../../electron/core/runs/bundle-import.js';
import { openChecked, planBundle } from '../../electron/core/runs/bundle-plan.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { BatonError } from '../../shared/contract.js';

const vendors = createVendors();
const PASS = 'unit test passphrase';
const ID = '0b5d2f3e-8c1a-4d6e-9f70-1a2b3c4d5e6f';
const COMMIT = 'a'.repeat(40);
let tmp: string;
let env: Record<string, string>;

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'baton-bplan-')));
  env = { HOME: join(tmp, 'home') };
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function handleText(cwd: string, worktree?: { repoRoot: string; worktreePath: string; branch: string }): string {
  return encodeHandle({
    run: { name: 'demo', id: 'run_0123456789abcdef' },
    createdAt: new Date().toISOString(),
    agents: [
      {
        id: 'agt_0123456789abcdef',
        label: 'a',
        vendor: 'claude',
        sessionId: ID,
        cwd,
        ...(worktree ? { worktree: { ...worktree, baseCommit: COMMIT } } : {}),
      },
    ],
  });
}

async function sealed(p: Omit<BundlePayload, 'v' | 'createdAt' | 'snapshotId'>): Promise<Buffer> {
  return sealBundle(packPayload({ v: 1, createdAt: new Date().toISOString(), snapshotId: null, ...p }), PASS);
}

const line = (cwd: string) =>
  Buffer.from(JSON.stringify({ sessionId: ID, cwd, type: 'user', message: { content: 'hi' } }) + '\n').toString(
    'base64',
  );

async function refused(p: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BatonError);
  expect((err as BatonError).message).toMatch(message);
}

describe('planning an import', () => {
  it("places the transcript under the vendor's home, for the directory the map gives, with a new id", async () => {
    const here = join(tmp, 'here', 'proj');
    mkdirSync(here, { recursive: true });
    const file = await sealed({
      handle: handleText('/home/ana/proj'),
      agents: [{ index: 0, args: [], transcript: 'agents/0/transcript.jsonl', note: null, branch: null }],
      files: { 'agents/0/transcript.jsonl': line('/home/ana/proj') },
    });
    const plan = await planBundle(
      await openChecked(file, PASS, vendors),
      { '/home/ana': join(tmp, 'here') },
      vendors,
      env,
    );
    const [a] = plan.agents;
    expect(a!.cwd).toBe(here);
    expect(a!.transcript!.newId).not.toBe(ID);
    expect(a!.transcript!.target.startsWith(join(env.HOME!, '.claude', 'projects') + '/')).toBe(true);
    expect(a!.transcript!.text).toContain(here);
    expect(a!.transcript!.text).not.toContain('/home/ana');
  });

  it('refuses a handle path with "..", a branch the handle does not name, and a transcript that is not JSON Lines', async () => {
    const bad = Buffer.from(
      JSON.stringify({
        v: 1,
        run: { name: 'x', id: 'run_0123456789abcdef' },
        createdAt: new Date().toISOString(),
        agents: [
          { id: 'agt_0123456789abcdef', label: 'a', vendor: 'claude', sessionId: ID, cwd: '/home/ana/../../etc' },
        ],
      }),
    ).toString('base64url');
    const escape = await sealed({
      handle: `baton1.${bad}`,
      agents: [{ index: 0, args: [], transcript: null, note: null, branch: null }],
      files: {},
    });
    await refused(openChecked(escape, PASS, vendors), /handle is not valid: .*normalised/);

    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    const worktree = { repoRoot: repo, worktreePath: join(tmp, 'wt'), branch: 'baton/demo/a' };
    const otherBranch = await sealed({
      handle: handleText(join(tmp, 'wt'), worktree),
      agents: [
        {
          index: 0,
          args: [],
          transcript: null,
          note: null,
          branch: { name: '--upload-pack=evil', commit: COMMIT, file: 'agents/0/branch.bundle' },
        },
      ],
      files: { 'agents/0/branch.bundle': Buffer.from('x').toString('base64') },
    });
    await refused(
      planBundle(await openChecked(otherBranch, PASS, vendors), {}, vendors, env),
      /branch its handle does not name/,
    );

    mkdirSync(join(tmp, 'proj'));
    const notJson = await sealed({
      handle: handleText(join(tmp, 'proj')),
      agents: [{ index: 0, args: [], transcript: 'agents/0/transcript.jsonl', note: null, branch: null }],
      files: { 'agents/0/transcript.jsonl': Buffer.from('not json\n').toString('base64') },
    });
    await refused(planBundle(await openChecked(notJson, PASS, vendors), {}, vendors, env), /not JSON Lines/);
  });

  it('an agent with no directory here refuses the whole import before anything is written', async () => {
    const file = await sealed({
      handle: handleText('/nowhere/proj'),
      agents: [{ index: 0, args: [], transcript: 'agents/0/transcript.jsonl', note: null, branch: null }],
      files: { 'agents/0/transcript.jsonl': line('/nowhere/proj') },
    });
    const plan = await planBundle(await openChecked(file, PASS, vendors), {}, vendors, env);
    expect(plan.agents[0]!.cwdProblem).not.toBeNull();
    let resumed = false;
    await refused(
      importPlan(plan, {
        env,
        isTaken: () => false,
        resume: async () => ((resumed = true), Promise.reject(new Error())),
      }),
      /map its directory/,
    );
    expect(resumed).toBe(false);
    expect(() => realpathSync(join(env.HOME!, '.claude'))).toThrow();
  });
});
