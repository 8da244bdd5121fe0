// What only Gemini does (docs/vendors.md §3): project slugs and markers, chat files and their stubs, the legacy form.
// The cases it shares with the other minted-id vendors are in minted-id-adapters.test.ts.
import { cp, mkdtemp, readFile, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { parseGeminiChatJson, parseGeminiChatJsonl } from '../../electron/core/vendors/gemini/chat.js';
import {
  GEMINI_STORE,
  geminiChatFileName,
  geminiDir,
  geminiProjectDirs,
  geminiProjectHash,
  type GeminiStore,
} from '../../electron/core/vendors/gemini/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { addGeminiProject } from './minted-id-vendors.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/gemini/.gemini', import.meta.url));
const SAMPLE_ID = '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b';
const SAMPLE_FILE = 'tmp/proj/chats/session-2026-11-25T21-47-3b9e7c10.jsonl';
let tmp: string;
let gdir: string;
let env: Record<string, string>;
let geminiAdapter: VendorAdapter;
let store: GeminiStore;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-gemini-')));
  env = { HOME: join(tmp, 'home'), GEMINI_CLI_HOME: join(tmp, 'ghome'), PATH: '/usr/bin:/bin' };
  gdir = join(tmp, 'ghome', '.gemini');
  await cp(FIXTURE, gdir, { recursive: true });
  const vendors = createVendors();
  geminiAdapter = vendors.get('gemini')!;
  store = vendors.context.state(GEMINI_STORE);
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'remember', cwd: '/home/u/proj', args: [], command: null, ...over };
}

const header = (sessionId: string) =>
  JSON.stringify({
    sessionId,
    projectHash: 'x',
    startTime: '2026-11-25T21:47:05.000Z',
    lastUpdated: '2026-11-25T21:47:05.000Z',
    kind: 'main',
  });
const userLine = (text: string, id = 'm1') =>
  JSON.stringify({ id, timestamp: '2026-11-25T21:47:05.100Z', type: 'user', content: [{ text }] });

const addProject = (cwd: string, slug: string) => addGeminiProject(gdir, cwd, slug);

describe('gemini adapter: facts', () => {
  it('names files and hashes projects like the CLI', () => {
    expect(geminiChatFileName(SAMPLE_ID, new Date('2026-11-25T21:47:59.999Z'))).toBe(
      'session-2026-11-25T21-47-3b9e7c10.jsonl',
    );
    expect(geminiChatFileName('not-a-uuid', new Date('2026-01-02T03:04:05Z'))).toBe(
      'session-2026-01-02T03-04-not-a-uu.jsonl',
    );
    expect(geminiProjectHash('/home/u/proj')).toBe('9c09f8055a26c27736ddcc04b4e693afbffd826da1d5a8e76081fdc9244e4c09');
    expect(geminiDir({ HOME: '/h' })).toBe('/h/.gemini');
    expect(geminiDir({ HOME: '/h', GEMINI_CLI_HOME: '/g' })).toBe('/g/.gemini');
  });
});

describe('gemini store: parsers', () => {
  it('parses the sample chat: id, first prompt, summary', async () => {
    const chat = parseGeminiChatJsonl(await readFile(join(gdir, SAMPLE_FILE), 'utf8'));
    expect(chat).toEqual({
      sessionId: SAMPLE_ID,
      startTime: '2026-11-25T21:47:05.000Z',
      kind: 'main',
      hasMessages: true,
      firstPrompt: 'remember the number 777',
      summary: 'Remember the number 777',
    });
  });

  it('skips the <session_context> turn, follows $rewindTo and $set.messages, and ignores a torn line', () => {
    const text = [
      header('s1'),
      userLine('<session_context>\nThis is the Gemini CLI…</session_context>', 'c0'),
      userLine('first real', 'u1'),
      JSON.stringify({ id: 'g1', type: 'gemini', content: 'ok' }),
      JSON.stringify({ $rewindTo: 'u1' }),
      userLine('second try', 'u2'),
      '{"id":"torn","type":"us',
    ].join('\n');
    expect(parseGeminiChatJsonl(text)).toMatchObject({ sessionId: 's1', hasMessages: true, firstPrompt: 'second try' });
    const reset = [header('s2'), userLine('a', 'u1'), JSON.stringify({ $set: { messages: [] } })].join('\n');
    expect(parseGeminiChatJsonl(reset)).toMatchObject({ hasMessages: false, firstPrompt: null });
  });

  it('tells metadata-only stubs from transcripts, and rejects non-chat files', () => {
    expect(parseGeminiChatJsonl(`${header('s1')}\n${JSON.stringify({ $set: { lastUpdated: 'x' } })}\n`)).toMatchObject({
      hasMessages: false,
      firstPrompt: null,
    });
    expect(parseGeminiChatJsonl('')).toBeNull();
    expect(parseGeminiChatJsonl('{"projects":{}}')).toBeNull();
    expect(parseGeminiChatJsonl('garbage')).toBeNull();
  });

  it('reads the legacy single-object form', () => {
    const legacy = JSON.stringify({
      sessionId: 's-old',
      projectHash: 'h',
      startTime: '2025-01-01T00:00:00.000Z',
      lastUpdated: '2025-01-01T00:00:01.000Z',
      messages: [
        { id: 'a', type: 'user', content: [{ text: 'hello there' }] },
        { id: 'b', type: 'gemini', content: 'hi' },
      ],
    });
    expect(parseGeminiChatJson(legacy)).toMatchObject({
      sessionId: 's-old',
      hasMessages: true,
      firstPrompt: 'hello there',
      summary: null,
    });
    expect(parseGeminiChatJson('[')).toBeNull();
  });
});

describe('gemini adapter: exists', () => {
  it('finds the sample through projects.json although /home/u/proj does not exist here', async () => {
    expect(await geminiAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await geminiProjectDirs('/home/u/proj', env)).toContain(join(gdir, 'tmp', 'proj'));
  });

  it('finds a project by its .project_root marker when projects.json is gone', async () => {
    await rm(join(gdir, 'projects.json'));
    expect(await geminiAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
  });

  it('trusts the projects.json mapping over a stray marker, as the CLI does', async () => {
    await writeFile(join(gdir, 'projects.json'), JSON.stringify({ projects: { '/home/u/proj': 'proj-1' } }));
    expect(await geminiProjectDirs('/home/u/proj', env)).not.toContain(join(gdir, 'tmp', 'proj'));
    expect(await geminiAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(false);
    // A slug that would leave tmp/ is never used.
    await writeFile(join(gdir, 'projects.json'), JSON.stringify({ projects: { '/home/u/proj': '../..' } }));
    expect((await geminiProjectDirs('/home/u/proj', env)).every((d) => d.startsWith(join(gdir, 'tmp')))).toBe(true);
  });

  // Unknown ids, bad ids and a missing store: minted-id-adapters.test.ts.
  it('is false for stubs and a mismatched id8', async () => {
    const chats = join(gdir, 'tmp', 'proj', 'chats');
    const stub = '22222222-3333-4444-8555-666666666666';
    await writeFile(
      join(chats, geminiChatFileName(stub, new Date())),
      `${header(stub)}\n{"$set":{"lastUpdated":"x"}}\n`,
    );
    expect(await geminiAdapter.exists(stub, '/home/u/proj', env)).toBe(false);
    expect((await store.findSessionFiles(stub, '/home/u/proj', env)).map((f) => f.chat.hasMessages)).toEqual([false]);
    // A file named for the id but holding another session is not it.
    const other = '3b9e7c10-0000-4000-8000-000000000000';
    expect(await geminiAdapter.exists(other, '/home/u/proj', env)).toBe(false);
  });
});

describe('gemini adapter: listSessions', () => {
  it('lists the sample with its cwd, summary, first prompt and mtime', async () => {
    const when = new Date('2026-11-25T21:48:11.000Z');
    await utimes(join(gdir, SAMPLE_FILE), when, when);
    expect(await geminiAdapter.listSessions!(env)).toEqual([
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: 'Remember the number 777',
        firstPrompt: 'remember the number 777',
        lastActivity: when.toISOString(),
      },
    ]);
    expect(await geminiAdapter.listSessions!({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });

  it('folds a resume stub into its session (latest mtime wins), skips subagents, and lists newest first', async () => {
    const chats = join(gdir, 'tmp', 'proj', 'chats');
    const t0 = new Date('2026-11-25T21:48:11.000Z');
    const t1 = new Date('2026-11-26T08:00:00.000Z');
    const t2 = new Date('2026-11-26T09:00:00.000Z');
    await utimes(join(gdir, SAMPLE_FILE), t0, t0);
    const stub = join(chats, 'session-2026-11-26T08-00-3b9e7c10.jsonl');
    await writeFile(stub, `${header(SAMPLE_ID)}\n`);
    await utimes(stub, t1, t1);
    const sub = join(chats, 'session-2026-11-26T09-00-sub00000.jsonl');
    await writeFile(sub, `${JSON.stringify({ sessionId: 'sub00000', kind: 'subagent' })}\n${userLine('sub task')}\n`);
    const otherChats = await addProject('/home/u/second', 'second');
    const id2 = '44444444-5555-4666-8777-888888888888';
    const f2 = join(otherChats, geminiChatFileName(id2, t2));
    await writeFile(
      f2,
      `${header(id2)}\n${userLine('<session_context>ctx</session_context>', 'c')}\n${userLine('second project prompt', 'u')}\n`,
    );
    await utimes(f2, t2, t2);
    const list = await geminiAdapter.listSessions!(env);
    expect(list).toEqual([
      {
        sessionId: id2,
        cwd: '/home/u/second',
        title: null,
        firstPrompt: 'second project prompt',
        lastActivity: t2.toISOString(),
      },
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: 'Remember the number 777',
        firstPrompt: 'remember the number 777',
        lastActivity: t1.toISOString(),
      },
    ]);
  });

  it('reads only the head of a large transcript, and the summary from its tail', async () => {
    const chats = join(gdir, 'tmp', 'proj', 'chats');
    const id = '55555555-6666-4777-8888-999999999999';
    const filler = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ id: `g${i}`, type: 'gemini', content: 'x'.repeat(100) }),
    ).join('\n');
    const file = join(chats, geminiChatFileName(id, new Date()));
    await writeFile(
      file,
      `${header(id)}\n${userLine('the very first prompt')}\n${filler}\n${JSON.stringify({ $set: { summary: 'A long chat' } })}\n`,
    );
    expect((await stat(file)).size).toBeGreaterThan(200_000);
    const found = (await geminiAdapter.listSessions!(env)).find((s) => s.sessionId === id);
    expect(found).toMatchObject({ firstPrompt: 'the very first prompt', title: 'A long chat', cwd: '/home/u/proj' });
  });
});

describe('gemini adapter: planResume', () => {
  it('resumes a metadata-only file rather than reuse its id (Gemini refuses a reused one)', async () => {
    const id = '77777777-8888-4999-8aaa-bbbbbbbbbbbb';
    await writeFile(join(gdir, 'tmp', 'proj', 'chats', geminiChatFileName(id, new Date())), `${header(id)}\n`);
    const plan = await geminiAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
    expect(plan).toMatchObject({ argv: ['gemini', '--resume', id], sessionId: id, outcome: 'resumed' });
  });

  it('starts fresh with a warning when the vendor chose a now-missing id, and says the path as ~ when under HOME', async () => {
    const id = '88888888-9999-4aaa-8bbb-cccccccccccc';
    const e = { HOME: join(tmp, 'ghome') };
    const plan = await geminiAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, e);
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toBe(
      'gemini: session 88888888… is not in ~/.gemini/tmp/proj/chats any more; starting a fresh conversation in /home/u/proj',
    );
  });
});
