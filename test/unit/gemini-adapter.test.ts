import { cp, mkdir, mkdtemp, readFile, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation } from '../../electron/core/vendors/adapter.js';
import { geminiAdapter, GEMINI_FACTS } from '../../electron/core/vendors/gemini.js';
import {
  findGeminiSessionFiles,
  geminiCacheSize,
  geminiChatFileName,
  geminiDir,
  geminiProjectDirs,
  geminiProjectHash,
  parseGeminiChatJson,
  parseGeminiChatJsonl,
} from '../../electron/core/vendors/gemini-store.js';
import { getAdapter, resolveBin } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/gemini/.gemini', import.meta.url));
const SAMPLE_ID = '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b';
const SAMPLE_FILE = 'tmp/proj/chats/session-2026-11-25T21-47-3b9e7c10.jsonl';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let tmp: string;
let gdir: string;
let env: Record<string, string>;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-gemini-')));
  env = { HOME: join(tmp, 'home'), GEMINI_CLI_HOME: join(tmp, 'ghome'), PATH: '/usr/bin:/bin' };
  gdir = join(tmp, 'ghome', '.gemini');
  await cp(FIXTURE, gdir, { recursive: true });
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'remember', cwd: '/home/u/proj', args: [], command: null, ...over };
}

const header = (sessionId: string) =>
  JSON.stringify({ sessionId, projectHash: 'x', startTime: '2026-11-25T21:47:05.000Z', lastUpdated: '2026-11-25T21:47:05.000Z', kind: 'main' });
const userLine = (text: string, id = 'm1') => JSON.stringify({ id, timestamp: '2026-11-25T21:47:05.100Z', type: 'user', content: [{ text }] });

async function addProject(cwd: string, slug: string): Promise<string> {
  const projects = JSON.parse(await readFile(join(gdir, 'projects.json'), 'utf8')) as { projects: Record<string, string> };
  projects.projects[cwd] = slug;
  await writeFile(join(gdir, 'projects.json'), JSON.stringify(projects));
  await mkdir(join(gdir, 'tmp', slug, 'chats'), { recursive: true });
  await writeFile(join(gdir, 'tmp', slug, '.project_root'), cwd);
  return join(gdir, 'tmp', slug, 'chats');
}

describe('gemini adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(geminiAdapter.vendor).toBe('gemini');
    expect(getAdapter('gemini')).toBe(geminiAdapter);
    const p = geminiAdapter.sessionIdPattern!;
    expect(p.test(SAMPLE_ID)).toBe(true);
    expect(p.test('not-a-uuid')).toBe(true); // Gemini takes any id; a leading "-" never
    expect(p.test('--yolo')).toBe(false);
    expect(p.test('-x')).toBe(false);
    expect(p.test('a/b')).toBe(false);
    expect(p.test('a b')).toBe(false);
    expect(p.test('')).toBe(false);
    expect(p.test('a'.repeat(129))).toBe(false);
    expect(geminiAdapter.submitDelayMs).toBe(800);
    expect(geminiAdapter.binEnvVar).toBe('BATON_GEMINI_BIN');
    expect(geminiAdapter.defaultBin({})).toBe('gemini');
    expect(geminiAdapter.versionArgs).toEqual(['--version']);
    expect(geminiAdapter.resumeCommand(SAMPLE_ID)).toEqual(['gemini', '--resume', SAMPLE_ID]);
    expect(GEMINI_FACTS.sessionErrorExitCode).toBe(42);
  });

  it('recognises the real error texts', () => {
    const texts = [
      `Error resuming session: Invalid session identifier "${SAMPLE_ID}".\n  Searched for sessions in /home/u/.gemini/tmp/proj/chats.`,
      'No previous sessions found for this project',
      `Error starting session: Session ID "${SAMPLE_ID}" already exists. Use --resume to resume it, or provide a different ID.`,
    ];
    for (const t of texts) expect(geminiAdapter.resumeErrorTexts.some((r) => r.test(t)), t).toBe(true);
    expect(geminiAdapter.resumeErrorTexts.some((r) => r.test('Type your message or @path/to/file'))).toBe(false);
  });

  it('names files and hashes projects like the CLI', () => {
    expect(geminiChatFileName(SAMPLE_ID, new Date('2026-11-25T21:47:59.999Z'))).toBe('session-2026-11-25T21-47-3b9e7c10.jsonl');
    expect(geminiChatFileName('not-a-uuid', new Date('2026-01-02T03:04:05Z'))).toBe('session-2026-01-02T03-04-not-a-uu.jsonl');
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
    expect(parseGeminiChatJsonl(`${header('s1')}\n${JSON.stringify({ $set: { lastUpdated: 'x' } })}\n`)).toMatchObject({ hasMessages: false, firstPrompt: null });
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
      messages: [{ id: 'a', type: 'user', content: [{ text: 'hello there' }] }, { id: 'b', type: 'gemini', content: 'hi' }],
    });
    expect(parseGeminiChatJson(legacy)).toMatchObject({ sessionId: 's-old', hasMessages: true, firstPrompt: 'hello there', summary: null });
    expect(parseGeminiChatJson('[')).toBeNull();
  });
});

describe('gemini adapter: exists', () => {
  it('finds the sample through projects.json although /home/u/proj does not exist here', async () => {
    expect(await geminiAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await geminiProjectDirs('/home/u/proj', env)).toContain(join(gdir, 'tmp', 'proj'));
  });

  it('is per project: the same id from another directory is not found', async () => {
    expect(await geminiAdapter.exists(SAMPLE_ID, '/home/u/other', env)).toBe(false);
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

  it('finds a session under the realpath of a cwd given through a symlink', async () => {
    const real = join(tmp, 'real-proj');
    await mkdir(real);
    const { symlink } = await import('node:fs/promises');
    await symlink(real, join(tmp, 'link'));
    const chats = await addProject(real, 'real-proj');
    const id = '11111111-2222-4333-8444-555555555555';
    await writeFile(join(chats, geminiChatFileName(id, new Date())), `${header(id)}\n${userLine('hi')}\n`);
    expect(await geminiAdapter.exists(id, join(tmp, 'link'), env)).toBe(true);
  });

  it('is false for stubs, unknown ids, a mismatched id8, bad ids and a missing store', async () => {
    const chats = join(gdir, 'tmp', 'proj', 'chats');
    const stub = '22222222-3333-4444-8555-666666666666';
    await writeFile(join(chats, geminiChatFileName(stub, new Date())), `${header(stub)}\n{"$set":{"lastUpdated":"x"}}\n`);
    expect(await geminiAdapter.exists(stub, '/home/u/proj', env)).toBe(false);
    expect((await findGeminiSessionFiles(stub, '/home/u/proj', env)).map((f) => f.chat.hasMessages)).toEqual([false]);
    // A file named for the id but holding another session is not it.
    const other = '3b9e7c10-0000-4000-8000-000000000000';
    expect(await geminiAdapter.exists(other, '/home/u/proj', env)).toBe(false);
    expect(await geminiAdapter.exists('00000000-0000-4000-8000-000000000000', '/home/u/proj', env)).toBe(false);
    expect(await geminiAdapter.exists('../../projects', '/home/u/proj', env)).toBe(false);
    expect(await geminiAdapter.exists('--resume', '/home/u/proj', env)).toBe(false);
    expect(await geminiAdapter.exists(SAMPLE_ID, '/home/u/proj', { HOME: join(tmp, 'nohome') })).toBe(false);
  });
});

describe('gemini adapter: listSessions', () => {
  it('lists the sample with its cwd, summary, first prompt and mtime', async () => {
    const when = new Date('2026-11-25T21:48:11.000Z');
    await utimes(join(gdir, SAMPLE_FILE), when, when);
    expect(await geminiAdapter.listSessions!(env)).toEqual([
      { sessionId: SAMPLE_ID, cwd: '/home/u/proj', title: 'Remember the number 777', firstPrompt: 'remember the number 777', lastActivity: when.toISOString() },
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
    await writeFile(f2, `${header(id2)}\n${userLine('<session_context>ctx</session_context>', 'c')}\n${userLine('second project prompt', 'u')}\n`);
    await utimes(f2, t2, t2);
    const list = await geminiAdapter.listSessions!(env);
    expect(list).toEqual([
      { sessionId: id2, cwd: '/home/u/second', title: null, firstPrompt: 'second project prompt', lastActivity: t2.toISOString() },
      { sessionId: SAMPLE_ID, cwd: '/home/u/proj', title: 'Remember the number 777', firstPrompt: 'remember the number 777', lastActivity: t1.toISOString() },
    ]);
  });

  it('re-reads only files whose mtime or size changed', async () => {
    const file = join(gdir, SAMPLE_FILE);
    const when = new Date('2026-11-25T21:48:11.000Z');
    await utimes(file, when, when);
    const first = await geminiAdapter.listSessions!(env);
    expect(first[0]?.firstPrompt).toBe('remember the number 777');
    expect(geminiCacheSize()).toBeGreaterThan(0);
    // Same size, same mtime: the cached parse is used, the file is not read again.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('remember the number 777', 'remember the number 778'));
    await utimes(file, when, when);
    expect((await geminiAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
    // A new mtime: read again.
    const later = new Date(when.getTime() + 5000);
    await utimes(file, later, later);
    expect((await geminiAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 778');
  });

  it('reads only the head of a large transcript, and the summary from its tail', async () => {
    const chats = join(gdir, 'tmp', 'proj', 'chats');
    const id = '55555555-6666-4777-8888-999999999999';
    const filler = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: `g${i}`, type: 'gemini', content: 'x'.repeat(100) })).join('\n');
    const file = join(chats, geminiChatFileName(id, new Date()));
    await writeFile(file, `${header(id)}\n${userLine('the very first prompt')}\n${filler}\n${JSON.stringify({ $set: { summary: 'A long chat' } })}\n`);
    expect((await stat(file)).size).toBeGreaterThan(200_000);
    const found = (await geminiAdapter.listSessions!(env)).find((s) => s.sessionId === id);
    expect(found).toMatchObject({ firstPrompt: 'the very first prompt', title: 'A long chat', cwd: '/home/u/proj' });
  });
});

describe('gemini adapter: spawnFresh', () => {
  it('mints a UUIDv4 and passes it as its own argv element, user args last, no shell strings', async () => {
    const plan = await geminiAdapter.spawnFresh(ctx({ args: ['-m', 'gemini-pro', 'a b; rm -rf /'] }), env);
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.argv).toEqual(['gemini', '--session-id', plan.sessionId, '-m', 'gemini-pro', 'a b; rm -rf /']);
    expect(plan).toMatchObject({ env: {}, chosenBy: 'baton', outcome: 'fresh', warning: null, hints: { sessionId: plan.sessionId } });
    expect((await geminiAdapter.spawnFresh(ctx(), env)).sessionId).not.toBe(plan.sessionId);
  });

  it('runs BATON_GEMINI_BIN when set, the same as resolveBin', async () => {
    const e = { ...env, BATON_GEMINI_BIN: '/opt/fake gemini' };
    expect((await geminiAdapter.spawnFresh(ctx(), e)).argv[0]).toBe('/opt/fake gemini');
    expect(resolveBin(geminiAdapter, e)).toBe('/opt/fake gemini');
    expect(resolveBin(geminiAdapter, env)).toBe('gemini');
  });
});

describe('gemini adapter: planResume', () => {
  it('resumes a transcript that exists, with --resume <uuid>', async () => {
    const plan = await geminiAdapter.planResume(ctx({ args: ['-m', 'x'] }), { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true }, env);
    expect(plan).toEqual({
      argv: ['gemini', '--resume', SAMPLE_ID, '-m', 'x'],
      env: {},
      sessionId: SAMPLE_ID,
      chosenBy: 'baton',
      outcome: 'resumed',
      warning: null,
      hints: { sessionId: SAMPLE_ID },
    });
  });

  it('respawns under the same id when Baton chose it and nothing was ever said', async () => {
    const id = '66666666-7777-4888-8999-aaaaaaaaaaaa';
    const plan = await geminiAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
    expect(plan).toMatchObject({ argv: ['gemini', '--session-id', id], sessionId: id, outcome: 'resumed', warning: null });
  });

  it('resumes a metadata-only file rather than reuse its id (Gemini refuses a reused one)', async () => {
    const id = '77777777-8888-4999-8aaa-bbbbbbbbbbbb';
    await writeFile(join(gdir, 'tmp', 'proj', 'chats', geminiChatFileName(id, new Date())), `${header(id)}\n`);
    const plan = await geminiAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
    expect(plan).toMatchObject({ argv: ['gemini', '--resume', id], sessionId: id, outcome: 'resumed' });
  });

  it('starts fresh with a warning when a confirmed transcript is gone', async () => {
    await rm(join(gdir, SAMPLE_FILE));
    const plan = await geminiAdapter.planResume(ctx(), { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true }, env);
    expect(plan.outcome).toBe('fresh');
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.sessionId).not.toBe(SAMPLE_ID);
    expect(plan.argv).toEqual(['gemini', '--session-id', plan.sessionId]);
    expect(plan.warning).toBe(
      `gemini: session 3b9e7c10… is not in ${gdir}/tmp/proj/chats any more; starting a fresh conversation in /home/u/proj`,
    );
    expect(plan.warning).not.toContain(SAMPLE_ID);
  });

  it('starts fresh with a warning when the vendor chose a now-missing id, and says the path as ~ when under HOME', async () => {
    const id = '88888888-9999-4aaa-8bbb-cccccccccccc';
    const e = { HOME: join(tmp, 'ghome') };
    const plan = await geminiAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, e);
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toBe('gemini: session 88888888… is not in ~/.gemini/tmp/proj/chats any more; starting a fresh conversation in /home/u/proj');
  });

  it('never puts an invalid id into argv', async () => {
    for (const bad of ['--yolo', '-r', 'a/b', '']) {
      const plan = await geminiAdapter.planResume(ctx(), { sessionId: bad, chosenBy: 'baton', confirmed: true }, env);
      expect(plan.outcome).toBe('fresh');
      expect(plan.warning).toMatch(/starting a fresh conversation in \/home\/u\/proj$/);
      if (bad !== '') expect(plan.argv).not.toContain(bad);
      expect(plan.argv).not.toContain('--resume');
      expect(plan.sessionId).toMatch(UUID);
    }
  });
});

describe('gemini adapter: follow', () => {
  it('reports the chosen id, then its confirmation once the chat file has a message, then stops', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const id = '99999999-aaaa-4bbb-8ccc-dddddddddddd';
    const seen: SessionObservation[] = [];
    const stop = geminiAdapter.follow({ pid: 1, cwd, hints: { sessionId: id }, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    try {
      await until(() => seen.length >= 1);
      expect(seen).toEqual([{ sessionId: id, confirmed: false }]);
      const chats = await addProject(cwd, 'proj-1');
      const file = join(chats, geminiChatFileName(id, new Date()));
      await writeFile(file, `${header(id)}\n`);
      await new Promise((r) => setTimeout(r, 700));
      expect(seen).toHaveLength(1); // a stub does not confirm
      await writeFile(file, `${header(id)}\n${userLine('hi')}\n`);
      await until(() => seen.length >= 2);
      expect(seen[1]).toEqual({ sessionId: id, confirmed: true });
      await new Promise((r) => setTimeout(r, 700));
      expect(seen).toHaveLength(2);
    } finally {
      stop();
    }
    const none = geminiAdapter.follow({ pid: 1, cwd, hints: {}, spawnedAt: Date.now() }, env, () => {
      throw new Error('no id to follow');
    });
    none();
  });
});

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
