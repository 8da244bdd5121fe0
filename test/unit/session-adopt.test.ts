// Session import in the core: adoptSessions turns found sessions into a Baton handle and resumes it as a new run;
// its conflicts (a name in use, a session a run already holds) and its errors naming the request's own sessions.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatonError, type ResumeOutcome, type RunView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { decodeHandle } from '../../electron/core/handle/codec.js';
import { adoptSessions } from '../../electron/core/runs/session-import.js';
import { RunStore } from '../../electron/core/store/run-store.js';
import { createVendors, type Vendors } from '../../electron/core/vendors/registry.js';
import { CLAUDE_ID, CODEX_ID, stoppedRun } from '../helpers/session-fixtures.js';

let tmp: string;
let store: RunStore;
let vendors: Vendors;
const getAdapter = (vendor: VendorName) => vendors.get(vendor);

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-session-adopt-')));
  store = await RunStore.open(join(tmp, 'data'));
  vendors = createVendors();
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('adoptSessions', () => {
  const outcome = (label: string): ResumeOutcome => ({
    agentId: `agt_${'d'.repeat(16)}`,
    label,
    vendor: 'claude',
    outcome: 'resumed',
    sessionId: null,
    message: null,
  });

  const rules = { sessionIdPattern: (v: VendorName) => getAdapter(v)?.sessionIdPattern };

  /** A stand-in for RunService.resume: decodes the handle as the real one does first, then answers. */
  function fakeService(fail?: BatonError) {
    const handles: string[] = [];
    return {
      handles,
      async resume(handle: string): Promise<{ run: RunView; outcomes: ResumeOutcome[] }> {
        handles.push(handle);
        decodeHandle(handle, rules); // what the real resume does first
        if (fail) throw fail;
        const at = new Date().toISOString();
        return {
          run: { id: `run_${'e'.repeat(16)}`, name: 'x', createdAt: at, updatedAt: at, agents: [], lastSnapshot: null },
          outcomes: [outcome('claude')],
        };
      },
    };
  }

  it('resumes a Baton handle with a new run id, new agent ids and the chosen sessions', async () => {
    const service = fakeService();
    const result = await adoptSessions(service, store, {
      name: 'imported',
      sessions: [
        { vendor: 'claude', sessionId: CLAUDE_ID, cwd: '/home/u/proj' },
        { vendor: 'codex', sessionId: CODEX_ID, cwd: '/home/u/proj', label: 'reviewer' },
      ],
    });
    expect(result.outcomes).toHaveLength(1);
    expect(service.handles).toHaveLength(1);
    const decoded = decodeHandle(service.handles[0]!, rules);
    expect(decoded.kind).toBe('run');
    expect(decoded.run?.name).toBe('imported');
    expect(decoded.run?.id).toMatch(/^run_[0-9a-z]{16}$/);
    expect(decoded.agents.map((a) => [a.label, a.vendor, a.sessionId, a.cwd])).toEqual([
      ['claude', 'claude', CLAUDE_ID, '/home/u/proj'],
      ['reviewer', 'codex', CODEX_ID, '/home/u/proj'],
    ]);
    expect(new Set(decoded.agents.map((a) => a.id)).size).toBe(2);
  });

  it('refuses a run name in use and a session a run already holds, as conflicts, before resuming anything', async () => {
    await store.save(stoppedRun('task 42', 'claude', CLAUDE_ID));
    const service = fakeService();
    await expect(
      adoptSessions(service, store, {
        name: 'task 42',
        sessions: [{ vendor: 'codex', sessionId: CODEX_ID, cwd: '/x' }],
      }),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: "a run named 'task 42' already exists",
    });
    await expect(
      adoptSessions(service, store, {
        name: 'new',
        sessions: [
          { vendor: 'codex', sessionId: CODEX_ID, cwd: '/x' },
          { vendor: 'claude', sessionId: CLAUDE_ID, cwd: '/x' },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'conflict',
      field: 'sessions[1]',
    });
    await expect(
      adoptSessions(service, store, {
        name: 'new',
        sessions: [
          { vendor: 'codex', sessionId: CODEX_ID, cwd: '/x' },
          { vendor: 'codex', sessionId: CODEX_ID, cwd: '/y' },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'invalid',
      field: 'sessions[1]',
    });
    expect(service.handles).toEqual([]);
  });

  it("names the request's sessions[i] in errors about the handle's agents[i]", async () => {
    await expect(
      adoptSessions(fakeService(), store, {
        name: 'n',
        sessions: [
          { vendor: 'codex', sessionId: CODEX_ID, cwd: '/x' },
          { vendor: 'claude', sessionId: 'not-a-uuid', cwd: '/x' },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'invalid',
      field: 'sessions[1].sessionId',
      message: 'sessions[1].sessionId: does not match the claude session id format',
    });
    const fromResume = new BatonError({
      code: 'invalid',
      field: 'agents[0].cwd',
      message: 'agents[0].cwd: directory does not exist',
    });
    await expect(
      adoptSessions(fakeService(fromResume), store, {
        name: 'n',
        sessions: [{ vendor: 'claude', sessionId: CLAUDE_ID, cwd: '/gone' }],
      }),
    ).rejects.toMatchObject({
      code: 'invalid',
      field: 'sessions[0].cwd',
      message: 'sessions[0].cwd: directory does not exist',
    });
  });
});
