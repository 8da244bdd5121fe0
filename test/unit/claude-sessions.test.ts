// Claude's listSessions (session import): the sample store, the head-only parser and the path+mtime+size cache.
import { appendFile, cp, mkdir, mkdtemp, readFile, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VendorAdapter, VendorEnv } from '../../electron/core/vendors/adapter.js';
import { parseClaudeHead } from '../../electron/core/vendors/claude/head.js';
import { CLAUDE_HEAD_BYTES } from '../../electron/core/vendors/claude/sessions.js';
import { CLAUDE_STORE, type ClaudeStore } from '../../electron/core/vendors/claude/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/claude/.claude', import.meta.url));
const SAMPLE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
const SAMPLE_FILE = `projects/-home-u-proj/${SAMPLE_ID}.jsonl`;

let tmp: string;
let cdir: string;
let env: Record<string, string>;
// A new vendor context per test: its listing cache starts empty.
let claudeAdapter: VendorAdapter;
let store: ClaudeStore;
const listClaudeSessions = (e: VendorEnv) => store.list(e);
const claudeSessionsCacheStats = () => store.sessions.stats();

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-claude-sessions-')));
  cdir = join(tmp, 'config');
  env = { HOME: join(tmp, 'home'), CLAUDE_CONFIG_DIR: cdir, PATH: '/usr/bin:/bin' };
  await cp(FIXTURE, cdir, { recursive: true });
  const vendors = createVendors();
  claudeAdapter = vendors.get('claude')!;
  store = vendors.context.state(CLAUDE_STORE);
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content },
    uuid: 'u',
    timestamp: '2026-11-25T21:47:05.120Z',
    cwd: '/work/a b',
    sessionId: 's',
    ...extra,
  });
const assistant = (text: string) =>
  JSON.stringify({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    cwd: '/work/a b',
    sessionId: 's',
  });

async function transcript(dir: string, id: string, lines: string[], at?: Date): Promise<string> {
  const folder = join(cdir, 'projects', dir);
  await mkdir(folder, { recursive: true });
  const file = join(folder, `${id}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  if (at) await utimes(file, at, at);
  return file;
}

describe('claude listSessions: the sample store', () => {
  it('lists the sample with the cwd from the transcript, its custom title, first prompt and mtime', async () => {
    const when = new Date('2026-11-25T21:48:12.000Z');
    await utimes(join(cdir, SAMPLE_FILE), when, when);
    expect(await claudeAdapter.listSessions!(env)).toEqual([
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: 'task-42 remember',
        firstPrompt: 'remember the number 777',
        lastActivity: when.toISOString(),
      },
    ]);
  });

  it('finds the store under HOME without CLAUDE_CONFIG_DIR, and lists nothing for a home without one', async () => {
    await cp(FIXTURE, join(tmp, 'home2', '.claude'), { recursive: true });
    expect((await listClaudeSessions({ HOME: join(tmp, 'home2') })).map((s) => s.sessionId)).toEqual([SAMPLE_ID]);
    expect(await listClaudeSessions({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });

  it('lists newest first, reads the cwd from the file (the folder name is lossy), and skips files that are not sessions', async () => {
    const t1 = new Date('2026-11-26T08:00:00.000Z');
    const t2 = new Date('2026-11-26T09:00:00.000Z');
    await utimes(join(cdir, SAMPLE_FILE), new Date('2026-11-25T00:00:00Z'), new Date('2026-11-25T00:00:00Z'));
    const a = '11111111-2222-4333-8444-555555555555';
    const b = '22222222-3333-4444-8555-666666666666';
    await transcript('-work-a-b', a, [user('first in a b'), assistant('ok')], t1);
    await transcript(
      '-work-a-b',
      b,
      [
        JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId: b }),
        user([{ type: 'text', text: 'block text' }], { cwd: '/elsewhere' }),
      ],
      t2,
    );
    // Not sessions: a non-uuid name, a subagent folder below a session, a bookkeeping-only file.
    await transcript('-work-a-b', 'agent-1234abcd', [user('sidechain')], t2);
    await mkdir(join(cdir, 'projects', '-work-a-b', a, 'subagents'), { recursive: true });
    await writeFile(join(cdir, 'projects', '-work-a-b', a, 'subagents', 'agent-x.jsonl'), `${user('sub')}\n`);
    await transcript(
      '-work-a-b',
      '33333333-4444-4555-8666-777777777777',
      [JSON.stringify({ type: 'permission-mode', permissionMode: 'default' })],
      t2,
    );
    const list = await listClaudeSessions(env);
    expect(list.map((s) => [s.sessionId, s.cwd, s.firstPrompt, s.lastActivity])).toEqual([
      [b, '/elsewhere', 'block text', t2.toISOString()],
      [a, '/work/a b', 'first in a b', t1.toISOString()],
      [SAMPLE_ID, '/home/u/proj', 'remember the number 777', '2026-11-25T00:00:00.000Z'],
    ]);
  });
});

describe('claude listSessions: the head parser', () => {
  const head = (lines: string[]) => parseClaudeHead(Buffer.from(`${lines.join('\n')}\n`), true);

  it('skips isMeta, sidechain, tool results and slash-command records for the first prompt', () => {
    const parsed = head([
      user('<local-command-caveat>Caveat: …</local-command-caveat>', { isMeta: true }),
      user('<command-name>/model</command-name>\n<command-message>model</command-message>'),
      user('side', { isSidechain: true }),
      user([{ type: 'tool_result', tool_use_id: 't', content: 'x' }]),
      user('  the real prompt  ', { cwd: '/real/cwd' }),
      user('a later prompt'),
    ]);
    expect(parsed).toEqual({ cwd: '/real/cwd', title: null, firstPrompt: 'the real prompt', hasMessages: true });
  });

  it('cuts the first prompt to 200 characters, and takes the last custom title (else a summary)', () => {
    const long = 'word '.repeat(100);
    const parsed = head([
      JSON.stringify({ type: 'summary', summary: 'A summary', leafUuid: 'x' }),
      JSON.stringify({ type: 'custom-title', customTitle: 'old name', sessionId: 's' }),
      user(long),
      JSON.stringify({ type: 'custom-title', customTitle: 'new name', sessionId: 's' }),
    ]);
    expect(parsed.firstPrompt!.length).toBeLessThanOrEqual(200);
    expect(parsed.firstPrompt!.endsWith('…')).toBe(true);
    expect(parsed.title).toBe('new name');
    expect(head([JSON.stringify({ type: 'summary', summary: 'A summary', leafUuid: 'x' }), user('p')]).title).toBe(
      'A summary',
    );
  });

  it('takes the start of a first prompt that is longer than the head, and never a torn line of a complete file', () => {
    const text = 'remember the number 4242 ' + 'é'.repeat(CLAUDE_HEAD_BYTES);
    const full = Buffer.from(
      `${JSON.stringify({ type: 'permission-mode' })}\n${JSON.stringify({ type: 'user', cwd: '/c', message: { role: 'user', content: text } })}\n`,
    );
    const cut = full.subarray(0, CLAUDE_HEAD_BYTES);
    const parsed = parseClaudeHead(cut, false);
    expect(parsed.firstPrompt?.startsWith('remember the number 4242 éé')).toBe(true);
    expect(parsed.firstPrompt!.length).toBeLessThanOrEqual(200);
    expect(parsed.cwd).toBe('/c'); // written before the message here
    expect(parseClaudeHead(Buffer.from(`${user('ok')}\n{"type":"user","mess`), true).firstPrompt).toBe('ok');
  });
});

describe('claude listSessions: cost', () => {
  it('reads only the first 64 KiB of a large transcript', async () => {
    const id = '44444444-5555-4666-8777-888888888888';
    const filler = Array.from({ length: 3000 }, (_, i) => assistant(`answer ${i} ${'x'.repeat(100)}`));
    const file = await transcript('-big', id, [
      user('the very first prompt'),
      ...filler,
      JSON.stringify({ type: 'custom-title', customTitle: 'beyond the head' }),
    ]);
    expect((await stat(file)).size).toBeGreaterThan(300_000);
    const found = (await listClaudeSessions(env)).find((s) => s.sessionId === id);
    expect(found).toMatchObject({ firstPrompt: 'the very first prompt', cwd: '/work/a b', title: null });
  });

  it('two listings at once read into their own buffers and agree', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `${String(i).padStart(8, '0')}-2222-4333-8444-555555555555`);
    for (const [i, id] of ids.entries())
      await transcript(`-p${i % 4}`, id, [
        user(`prompt ${i} ${'y'.repeat(i * 1000)}`, { cwd: `/p/${i}` }),
        assistant('ok'),
      ]);
    const [a, b, c] = await Promise.all([listClaudeSessions(env), listClaudeSessions(env), listClaudeSessions(env)]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    for (const [i, id] of ids.entries()) {
      const found = a.find((s) => s.sessionId === id);
      expect(found?.cwd).toBe(`/p/${i}`);
      expect(found?.firstPrompt).toMatch(new RegExp(`^prompt ${i}( y+…?)?$`));
    }
  });

  it('re-reads only files whose mtime or size changed, and forgets removed files', async () => {
    const sample = join(cdir, SAMPLE_FILE);
    const when = new Date('2026-11-25T21:48:12.000Z');
    await utimes(sample, when, when);
    const other = await transcript('-work-a-b', '11111111-2222-4333-8444-555555555555', [user('first in a b')], when);
    await listClaudeSessions(env);
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 2, reads: 2, hits: 0 });

    await listClaudeSessions(env);
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 2, reads: 2, hits: 2 });

    // Same size and mtime: the cached head stands, the file is not read.
    const text = await readFile(sample, 'utf8');
    await writeFile(sample, text.replace('remember the number 777', 'remember the number 778'));
    await utimes(sample, when, when);
    expect((await listClaudeSessions(env)).find((s) => s.sessionId === SAMPLE_ID)?.firstPrompt).toBe(
      'remember the number 777',
    );
    expect(claudeSessionsCacheStats().reads).toBe(2);

    // Appended to (size and mtime change): that file alone is read again.
    await appendFile(other, `${assistant('more')}\n`);
    const later = new Date(when.getTime() + 60_000);
    await utimes(other, later, later);
    let list = await listClaudeSessions(env);
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 2, reads: 3 });
    expect(list[0]?.sessionId).toBe('11111111-2222-4333-8444-555555555555');
    expect(list.find((s) => s.sessionId === SAMPLE_ID)?.firstPrompt).toBe('remember the number 777');

    // A new mtime alone: read again, and the edit shows.
    const latest = new Date(when.getTime() + 120_000);
    await utimes(sample, latest, latest);
    list = await listClaudeSessions(env);
    expect(claudeSessionsCacheStats()).toMatchObject({ entries: 2, reads: 4 });
    expect(list[0]).toMatchObject({
      sessionId: SAMPLE_ID,
      firstPrompt: 'remember the number 778',
      lastActivity: latest.toISOString(),
    });

    await rm(other);
    await listClaudeSessions(env);
    expect(claudeSessionsCacheStats().entries).toBe(1);
  });
});
