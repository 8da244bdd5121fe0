// Session import in the core: listFoundSessions over real vendor stores in a temp HOME (Claude, Gemini and Codex
// in their real formats), its cache, filters and adoptedBy marks; adoptSessions' handle, conflicts and errors.
import { appendFile, cp, mkdir, mkdtemp, realpath, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatonError, type ResumeOutcome, type RunView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { decodeHandle } from '../../electron/core/handle/codec.js';
import { adoptSessions, listFoundSessions as listWith } from '../../electron/core/runs/session-import.js';
import { RunStore } from '../../electron/core/store/run-store.js';
import type { RunManifest } from '../../electron/core/store/types.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { CLAUDE_STORE } from '../../electron/core/vendors/claude/store.js';
import { createVendors, type Vendors } from '../../electron/core/vendors/registry.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
const CLAUDE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
const GEMINI_ID = '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b';
const CODEX_ID = '019abcde-1234-7def-8abc-0123456789ab';
const CLAUDE_FILE = `.claude/projects/-home-u-proj/${CLAUDE_ID}.jsonl`;
const GEMINI_FILE = '.gemini/tmp/proj/chats/session-2026-11-25T21-47-3b9e7c10.jsonl';
const CODEX_FILE = `.codex/sessions/2026/11/25/rollout-2026-11-25T21-47-05-${CODEX_ID}.jsonl`;
const MORE_CLAUDE = ['11111111-2222-4333-8444-555555555555', '22222222-3333-4444-8555-666666666666'];

const T = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));

let tmp: string;
let home: string;
// A new vendor context per test: the listing caches start empty.
let vendors: Vendors;
const getAdapter = (vendor: VendorName) => vendors.get(vendor);
const claudeSessionsCacheStats = () => vendors.context.state(CLAUDE_STORE).sessions.stats();
/** The core's listing over this test's vendors (the service passes its own the same way). */
type ListArgs = Parameters<typeof listWith>;
const listFoundSessions = (
  e: ListArgs[0],
  s: ListArgs[1],
  params: ListArgs[2],
  sources: ListArgs[3] = vendors.adapters,
) => listWith(e, s, params, sources);
let env: Record<string, string>;
let store: RunStore;

async function touch(path: string, at: Date): Promise<void> {
  await utimes(path, at, at);
}

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-session-import-')));
  home = join(tmp, 'home');
  env = { HOME: home, PATH: '/usr/bin:/bin' };
  for (const vendor of ['claude', 'gemini', 'codex']) await cp(join(SAMPLES, vendor), home, { recursive: true });
  // Two more Claude conversations in another project, in the CLI's own line format.
  const dir = join(home, '.claude', 'projects', '-work-two');
  await mkdir(dir, { recursive: true });
  for (const [i, id] of MORE_CLAUDE.entries()) {
    const file = join(dir, `${id}.jsonl`);
    await appendFile(
      file,
      `${JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId: id })}\n` +
        `${JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: `prompt number ${i}` }, uuid: `u${i}`, timestamp: T(i).toISOString(), cwd: '/work/two', sessionId: id })}\n`,
    );
    await touch(file, T(10 + i));
  }
  await touch(join(home, CLAUDE_FILE), T(5));
  await touch(join(home, GEMINI_FILE), T(20));
  await touch(join(home, CODEX_FILE), T(30));
  store = await RunStore.open(join(tmp, 'data'));
  vendors = createVendors();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(tmp, { recursive: true, force: true });
});

function manifest(name: string, vendor: VendorName, sessionId: string): RunManifest {
  const at = new Date().toISOString();
  return {
    v: 1,
    id: `run_${'a'.repeat(16)}`,
    name,
    createdAt: at,
    updatedAt: at,
    agents: [
      {
        id: `agt_${'b'.repeat(16)}`,
        label: vendor,
        vendor,
        cwd: '/home/u/proj',
        args: [],
        command: null,
        sessionIds: [{ id: sessionId, chosenBy: 'vendor', seenAt: at, confirmed: true }],
        status: 'stopped',
        exitCode: null,
        warning: null,
        startedAt: null,
      },
    ],
    lastSnapshot: null,
  };
}

describe('listFoundSessions over real vendor stores', () => {
  it('lists Claude, Gemini and Codex conversations with cwd, first prompt and last activity, newest first', async () => {
    const result = await listFoundSessions(env, store, {});
    expect(result.total).toBe(5);
    expect(result.scannedMs).toBeGreaterThanOrEqual(0);
    expect(result.sessions).toEqual([
      {
        vendor: 'codex',
        sessionId: CODEX_ID,
        cwd: '/home/u/proj',
        title: null,
        firstPrompt: 'remember the number 777',
        lastActivity: T(30).toISOString(),
        adoptedBy: null,
      },
      {
        vendor: 'gemini',
        sessionId: GEMINI_ID,
        cwd: '/home/u/proj',
        title: 'Remember the number 777',
        firstPrompt: 'remember the number 777',
        lastActivity: T(20).toISOString(),
        adoptedBy: null,
      },
      {
        vendor: 'claude',
        sessionId: MORE_CLAUDE[1],
        cwd: '/work/two',
        title: null,
        firstPrompt: 'prompt number 1',
        lastActivity: T(11).toISOString(),
        adoptedBy: null,
      },
      {
        vendor: 'claude',
        sessionId: MORE_CLAUDE[0],
        cwd: '/work/two',
        title: null,
        firstPrompt: 'prompt number 0',
        lastActivity: T(10).toISOString(),
        adoptedBy: null,
      },
      {
        vendor: 'claude',
        sessionId: CLAUDE_ID,
        cwd: '/home/u/proj',
        title: 'task-42 remember',
        firstPrompt: 'remember the number 777',
        lastActivity: T(5).toISOString(),
        adoptedBy: null,
      },
    ]);
  });

  it('a second listing after one file changed reads that file again and no other', async () => {
    await listFoundSessions(env, store, {});
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 3, reads: 3, hits: 0 });
    await listFoundSessions(env, store, {});
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 3, reads: 3, hits: 3 });

    const changed = join(home, '.claude', 'projects', '-work-two', `${MORE_CLAUDE[0]}.jsonl`);
    await appendFile(
      changed,
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, cwd: '/work/two' })}\n`,
    );
    await touch(changed, T(40));
    const result = await listFoundSessions(env, store, {});
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 3, reads: 4, hits: 5 });
    expect(result.sessions[0]).toMatchObject({
      vendor: 'claude',
      sessionId: MORE_CLAUDE[0],
      lastActivity: T(40).toISOString(),
    });
  });

  it('filters by vendor and by every word of the query, and cuts to the limit while counting every match', async () => {
    expect((await listFoundSessions(env, store, { vendor: 'gemini' })).sessions.map((s) => s.sessionId)).toEqual([
      GEMINI_ID,
    ]);
    const q = await listFoundSessions(env, store, { query: '  REMEMBER  777 ' });
    expect(q.sessions.map((s) => s.vendor)).toEqual(['codex', 'gemini', 'claude']);
    expect((await listFoundSessions(env, store, { query: 'task-42' })).sessions.map((s) => s.sessionId)).toEqual([
      CLAUDE_ID,
    ]);
    expect((await listFoundSessions(env, store, { query: '/work/two' })).total).toBe(2);
    expect(
      (await listFoundSessions(env, store, { query: CODEX_ID.slice(0, 13) })).sessions.map((s) => s.vendor),
    ).toEqual(['codex']);
    const limited = await listFoundSessions(env, store, { limit: 2 });
    expect(limited.total).toBe(5);
    expect(limited.sessions.map((s) => s.vendor)).toEqual(['codex', 'gemini']);
    expect((await listFoundSessions(env, store, { limit: 0 })).sessions).toEqual([]);
  });

  it('marks a session a run already holds, for its vendor only', async () => {
    await store.save(manifest('task 42', 'claude', CLAUDE_ID));
    const { sessions } = await listFoundSessions(env, store, {});
    expect(sessions.find((s) => s.sessionId === CLAUDE_ID)?.adoptedBy).toEqual({
      runId: `run_${'a'.repeat(16)}`,
      runName: 'task 42',
    });
    expect(sessions.filter((s) => s.adoptedBy !== null)).toHaveLength(1);

    await store.save({ ...manifest('wrong vendor', 'gemini', CODEX_ID), id: `run_${'c'.repeat(16)}` });
    const again = await listFoundSessions(env, store, {});
    expect(again.sessions.find((s) => s.sessionId === CODEX_ID)?.adoptedBy).toBeNull();
  });

  it('skips an adapter that throws and says so on stderr without the error text', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    const broken: VendorAdapter = {
      ...getAdapter('qwen')!,
      async listSessions() {
        throw Object.assign(new Error(`EACCES: permission denied, open '${home}/secret-${CLAUDE_ID}'`), {
          code: 'EACCES',
        });
      },
    };
    const sources = new Map([...vendors.adapters, ['qwen', broken] as const]);
    const result = await listFoundSessions(env, store, {}, sources);
    expect(result.total).toBe(5);
    expect(writes.join('')).toContain('could not list qwen sessions (EACCES)');
    expect(writes.join('')).not.toContain(home);
    expect(writes.join('')).not.toContain(CLAUDE_ID);
  });
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
    await store.save(manifest('task 42', 'claude', CLAUDE_ID));
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
