// Session import in the core: listFoundSessions over real vendor stores in a temp HOME (Claude, Gemini and Codex
// in their real formats), its cache, filters and adoptedBy marks. adoptSessions: session-adopt.test.ts.
import { appendFile, cp, mkdir, mkdtemp, realpath, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VendorName } from '../../shared/words.js';
import { listFoundSessions as listWith } from '../../electron/core/runs/session-import.js';
import { RunStore } from '../../electron/core/store/run-store.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { CLAUDE_STORE } from '../../electron/core/vendors/claude/store.js';
import { createVendors, type Vendors } from '../../electron/core/vendors/registry.js';
import {
  CLAUDE_FILE,
  CLAUDE_ID,
  CODEX_FILE,
  CODEX_ID,
  GEMINI_FILE,
  GEMINI_ID,
  stoppedRun,
} from '../helpers/session-fixtures.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
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
    await store.save(stoppedRun('task 42', 'claude', CLAUDE_ID));
    const { sessions } = await listFoundSessions(env, store, {});
    expect(sessions.find((s) => s.sessionId === CLAUDE_ID)?.adoptedBy).toEqual({
      runId: `run_${'a'.repeat(16)}`,
      runName: 'task 42',
    });
    expect(sessions.filter((s) => s.adoptedBy !== null)).toHaveLength(1);

    await store.save({ ...stoppedRun('wrong vendor', 'gemini', CODEX_ID), id: `run_${'c'.repeat(16)}` });
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
