// The Codex adapter: facts, argv, resume planning, and the rollout store (local-time folders, parsing, listing).
// Discovery of the thread id: codex-follow.test.ts.
import { readFile, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, VendorAdapter, VendorEnv } from '../../electron/core/vendors/adapter.js';
import { localDayFolders } from '../../electron/core/vendors/codex/days.js';
import { CODEX_NO_DAEMON_ARGS } from '../../electron/core/vendors/codex/index.js';
import { parseRolloutHead, ROLLOUT_HEAD_BYTES } from '../../electron/core/vendors/codex/rollout.js';
import { codexHome, displayCodexHome, type CodexStore } from '../../electron/core/vendors/codex/store.js';
import { readHeadLines } from '../../electron/core/vendors/kit/head.js';
import { resolveBin, type Vendors } from '../../electron/core/vendors/registry.js';
import type { VendorName } from '../../shared/words.js';
import { SAMPLE_ID, codexVendors, sampleStore, writeRolloutIn } from './codex-fixture.js';

const SAMPLE_REL = 'sessions/2026/11/25/rollout-2026-11-25T21-47-05-019abcde-1234-7def-8abc-0123456789ab.jsonl';
const PERMISSION_SKIPPING = ['--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto', '--approve-for-me'];

let tmp: string;
let store: string;
let env: Record<string, string>;
let vendors: Vendors;
let codexAdapter: VendorAdapter;
let rollouts: CodexStore;
const getAdapter = (vendor: VendorName) => vendors.get(vendor);
const findRollout = (id: string, e: VendorEnv, opts?: Parameters<CodexStore['findRollout']>[2]) =>
  rollouts.findRollout(id, e, opts);
const writeRollout = (id: string, cwd: string, opts?: Parameters<typeof writeRolloutIn>[4]) =>
  writeRolloutIn(store, env, id, cwd, opts);

beforeEach(async () => {
  ({ tmp, store, env } = await sampleStore());
  ({ vendors, codexAdapter, rollouts } = codexVendors());
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'coder', cwd: '/home/u/proj', args: [], command: null, ...over };
}

describe('codex adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(codexAdapter.vendor).toBe('codex');
    const re = codexAdapter.sessionIdPattern!;
    expect(re.test(SAMPLE_ID)).toBe(true);
    expect(re.test('7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b')).toBe(true); // any lowercase UUID
    expect(re.test(SAMPLE_ID.toUpperCase())).toBe(false);
    expect(re.test(SAMPLE_ID.slice(0, 30))).toBe(false); // a truncated id is a name to codex: refused
    expect(re.test(`${SAMPLE_ID}x`)).toBe(false);
    expect(re.test('my-session')).toBe(false);
    expect(re.test('--last')).toBe(false);
    expect(codexAdapter.submitDelayMs).toBe(800);
    expect(
      codexAdapter.resumeErrorTexts.some((r) =>
        r.test(
          `ERROR: No saved session found with ID ${SAMPLE_ID}. Run \`codex resume\` without an ID to choose from existing sessions.`,
        ),
      ),
    ).toBe(true);
    expect(codexAdapter.binEnvVar).toBe('BATON_CODEX_BIN');
    expect(codexAdapter.defaultBin({})).toBe('codex');
    expect(codexAdapter.versionArgs).toEqual(['--version']);
    expect(codexAdapter.resumeCommand(SAMPLE_ID)).toEqual(['codex', 'resume', SAMPLE_ID]);
    expect(getAdapter('codex')).toBe(codexAdapter);
  });

  it('finds the store from CODEX_HOME, else ~/.codex', () => {
    expect(codexHome({ HOME: '/h' })).toBe('/h/.codex');
    expect(codexHome({ HOME: '/h', CODEX_HOME: '/c' })).toBe('/c');
    expect(displayCodexHome({ HOME: '/h' })).toBe('~/.codex');
    expect(displayCodexHome({ HOME: '/h', CODEX_HOME: '/c' })).toBe('/c');
  });
});

describe('codex adapter: spawnFresh', () => {
  it('asks for no id, turns the daemon off, adds no permission flag, user args last as their own elements', async () => {
    const plan = await codexAdapter.spawnFresh(ctx({ args: ['-m', 'o3', 'a b; rm -rf /'] }), env);
    expect(plan).toEqual({
      argv: ['codex', '--no-daemon', '-c', 'features.daemon_auto_start=false', '-m', 'o3', 'a b; rm -rf /'],
      env: {},
      sessionId: null,
      chosenBy: null,
      outcome: 'fresh',
      warning: null,
    });
    expect([...CODEX_NO_DAEMON_ARGS]).toEqual(['--no-daemon', '-c', 'features.daemon_auto_start=false']);
    for (const flag of PERMISSION_SKIPPING) expect(plan.argv).not.toContain(flag);
  });

  it('runs BATON_CODEX_BIN when set, the same as resolveBin', async () => {
    const e = { ...env, BATON_CODEX_BIN: '/opt/fake codex' };
    const plan = await codexAdapter.spawnFresh(ctx(), e);
    expect(plan.argv[0]).toBe('/opt/fake codex');
    expect(plan.argv[0]).toBe(resolveBin(codexAdapter, e));
    expect(resolveBin(codexAdapter, env)).toBe('codex');
  });
});

describe('codex store: rollouts', () => {
  it('parses the sample: session_meta id and cwd, first prompt after <environment_context>', async () => {
    const text = await readFile(join(store, SAMPLE_REL), 'utf8');
    expect(parseRolloutHead(text)).toEqual({
      sessionId: SAMPLE_ID,
      cwd: '/home/u/proj',
      startedAt: '2026-11-25T21:47:05.001Z',
      modelProvider: 'openai',
      firstPrompt: 'remember the number 777',
    });
  });

  it('tolerates a torn last line, refuses a file that does not start with session_meta', async () => {
    const text = await readFile(join(store, SAMPLE_REL), 'utf8');
    const firstTwo = text.split('\n').slice(0, 4).join('\n');
    expect(parseRolloutHead(`${firstTwo}\n{"timestamp":"2026-11-25T21:4`)?.sessionId).toBe(SAMPLE_ID);
    expect(parseRolloutHead(`${firstTwo}\n{"timestamp":"2026-11-25T21:4`)?.firstPrompt).toBeNull();
    expect(parseRolloutHead(text.split('\n').slice(1).join('\n'))).toBeNull();
    expect(parseRolloutHead('')).toBeNull();
    expect(parseRolloutHead('{"type":"session_meta","payload":{"id":"../../etc/passwd"}}\n')).toBeNull();
    // Without an <environment_context> item: the first user message that is not a <…> block.
    const noEnv = [
      { type: 'session_meta', payload: { id: SAMPLE_ID, cwd: '/x' } },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sys' }] },
      },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<user_instructions>x</user_instructions>' }],
        },
      },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] },
      },
    ];
    expect(parseRolloutHead(noEnv.map((l) => JSON.stringify(l)).join('\n'))?.firstPrompt).toBe('fix the bug');
  });

  it('reads at most 64 KiB of a rollout, cut at a line end', async () => {
    const file = join(tmp, 'big.jsonl');
    const meta = JSON.stringify({ type: 'session_meta', payload: { id: SAMPLE_ID, cwd: '/x' } });
    const filler = JSON.stringify({ type: 'event_msg', payload: { type: 'x', pad: 'y'.repeat(1000) } });
    const late = JSON.stringify({
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'too late' }] },
    });
    await writeFile(file, [meta, ...Array(100).fill(filler), late].join('\n') + '\n');
    const head = (await readHeadLines(file, ROLLOUT_HEAD_BYTES))!;
    expect(Buffer.byteLength(head)).toBeLessThanOrEqual(ROLLOUT_HEAD_BYTES);
    expect(head.endsWith('\n')).toBe(true);
    expect(parseRolloutHead(head)).toMatchObject({ sessionId: SAMPLE_ID, firstPrompt: null });
  });

  it('exists: the sample is found (full scan), unknown and malformed ids are not', async () => {
    expect(await codexAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await codexAdapter.exists(SAMPLE_ID, '/anywhere/else', env)).toBe(true);
    expect(await codexAdapter.exists('019abcde-1234-7def-8abc-000000000000', '/home/u/proj', env)).toBe(false);
    expect(await codexAdapter.exists(SAMPLE_ID.toUpperCase(), '/home/u/proj', env)).toBe(false);
    expect(await codexAdapter.exists('*', '/home/u/proj', env)).toBe(false);
    expect(await codexAdapter.exists(SAMPLE_ID, '/home/u/proj', { HOME: join(tmp, 'nohome') })).toBe(false);
    await unlink(join(store, SAMPLE_REL));
    expect(await codexAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(false);
  });

  it('lists sessions: id, cwd, first prompt, mtime as last activity; cached by path, mtime and size', async () => {
    const file = join(store, SAMPLE_REL);
    const mtime = new Date('2026-11-25T21:48:11.500Z');
    await utimes(file, mtime, mtime);
    const list = await codexAdapter.listSessions!(env);
    expect(list).toEqual([
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: null,
        firstPrompt: 'remember the number 777',
        lastActivity: mtime.toISOString(),
      },
    ]);

    // Same size and mtime: the cached result stands (the file is not read again).
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('remember the number 777', 'remember the number 778'));
    await utimes(file, mtime, mtime);
    expect((await codexAdapter.listSessions!(env))[0]!.firstPrompt).toBe('remember the number 777');
    // A change of mtime: read again.
    const later = new Date('2026-11-25T22:00:00.000Z');
    await utimes(file, later, later);
    expect(await codexAdapter.listSessions!(env)).toEqual([
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: null,
        firstPrompt: 'remember the number 778',
        lastActivity: later.toISOString(),
      },
    ]);

    // Newest first; files that are not rollouts are ignored; a newer rollout of another cwd comes first.
    const other = '019abcdf-0000-7000-8000-000000000001';
    const otherFile = await writeRollout(other, '/home/u/other', { folder: '2026/11/26', prompt: 'second' });
    const newest = new Date('2026-11-26T09:00:00.000Z');
    await utimes(otherFile, newest, newest);
    await writeFile(join(store, 'sessions', '2026', '11', '26', 'notes.txt'), 'x');
    const both = await codexAdapter.listSessions!(env);
    expect(both.map((s) => [s.sessionId, s.cwd, s.firstPrompt])).toEqual([
      [other, '/home/u/other', 'second'],
      [SAMPLE_ID, '/home/u/proj', 'remember the number 778'],
    ]);
    expect(await codexAdapter.listSessions!({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });
});

describe('codex store: local-time day folders', () => {
  it('today and yesterday in the CLI time zone, never UTC', () => {
    const at = new Date('2026-11-26T02:30:00Z');
    expect(localDayFolders(at, { TZ: 'America/New_York' })).toEqual(['2026/11/25', '2026/11/24']);
    expect(localDayFolders(at, { TZ: 'Asia/Tokyo' })).toEqual(['2026/11/26', '2026/11/25']);
    expect(localDayFolders(at, { TZ: 'UTC' })).toEqual(['2026/11/26', '2026/11/25']);
    expect(localDayFolders(new Date('2027-01-01T03:00:00Z'), { TZ: 'America/Los_Angeles' })).toEqual([
      '2026/12/31',
      '2026/12/30',
    ]);
    expect(localDayFolders(new Date('2028-03-01T12:00:00Z'), { TZ: 'Europe/Berlin' })).toEqual([
      '2028/03/01',
      '2028/02/29',
    ]);
    // The day after a 25-hour DST day (New York, 2026-11-01): calendar arithmetic, not "24 h ago".
    expect(localDayFolders(new Date('2026-11-02T04:30:00Z'), { TZ: 'America/New_York' })).toEqual([
      '2026/11/01',
      '2026/10/31',
    ]);
  });

  it('without TZ (or a TZ Intl does not know) it is the local time of this process', () => {
    const at = new Date('2026-11-26T02:30:00Z');
    const p = (n: number) => String(n).padStart(2, '0');
    const local = `${at.getFullYear()}/${p(at.getMonth() + 1)}/${p(at.getDate())}`;
    expect(localDayFolders(at, {})[0]).toBe(local);
    expect(localDayFolders(at, { TZ: ':/etc/localtime' })[0]).toBe(local);
    expect(localDayFolders(at, { TZ: 'Not/AZone' })[0]).toBe(local);
  });

  it('looks in the local-date folders: at 02:30 UTC on the 27th New York is still on the 26th', async () => {
    const id = '019abcdf-1111-7000-8000-000000000002';
    await writeRollout(id, '/home/u/proj', { folder: '2026/11/25' });
    const at = new Date('2026-11-27T02:30:00Z');
    // In Tokyo (and in UTC) it is the 27th: today and yesterday are the 27th and the 26th.
    expect(await findRollout(id, { ...env, TZ: 'Asia/Tokyo' }, { now: at, recentOnly: true })).toBeNull();
    expect(await findRollout(id, { ...env, TZ: 'UTC' }, { now: at, recentOnly: true })).toBeNull();
    // In New York it is the 26th: yesterday is the 25th.
    expect(await findRollout(id, { ...env, TZ: 'America/New_York' }, { now: at, recentOnly: true })).toMatch(
      /2026\/11\/25\/rollout-/,
    );
    // Anywhere else, the full scan finds it.
    const other = '019abcdf-2222-7000-8000-000000000003';
    await writeRollout(other, '/home/u/proj', { folder: '2025/02/03' });
    expect(await findRollout(other, { ...env, TZ: 'Europe/Paris' }, { now: at, recentOnly: true })).toBeNull();
    expect(await findRollout(other, { ...env, TZ: 'Europe/Paris' }, { now: at })).toMatch(/2025\/02\/03\/rollout-/);
  });
});

describe('codex adapter: planResume', () => {
  it('resumes a rollout that exists, with the daemon off and the user args last', async () => {
    const plan = await codexAdapter.planResume(
      ctx({ args: ['-m', 'o3'] }),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan).toEqual({
      argv: ['codex', 'resume', SAMPLE_ID, '--no-daemon', '-c', 'features.daemon_auto_start=false', '-m', 'o3'],
      env: {},
      sessionId: SAMPLE_ID,
      chosenBy: 'vendor',
      outcome: 'resumed',
      warning: null,
      hints: { sessionId: SAMPLE_ID },
    });
  });

  it('starts fresh (no id: discovered again) with a warning naming at most 8 characters of the id', async () => {
    const id = '0199abcd-0000-7000-8000-000000000000';
    const e = { ...env, CODEX_HOME: join(env.HOME!, '.codex') };
    const plan = await codexAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: true }, e);
    expect(plan).toEqual({
      argv: ['codex', '--no-daemon', '-c', 'features.daemon_auto_start=false'],
      env: {},
      sessionId: null,
      chosenBy: null,
      outcome: 'fresh',
      warning:
        'codex: session 0199abcd… is not in ~/.codex/sessions any more; starting a fresh conversation in /home/u/proj',
    });
    const never = await codexAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, env);
    expect(never.outcome).toBe('fresh');
    expect(never.warning).toBe(
      `codex: session 0199abcd… was never saved in ${store}/sessions (no prompt was answered in it); starting a fresh conversation in /home/u/proj`,
    );
    for (const p of [plan, never]) {
      expect(p.warning).not.toContain(id);
      expect(p.argv).not.toContain(id);
      expect(p.argv).not.toContain('resume');
    }
  });

  it('never passes an id that is not a UUID (codex would take it as a name and start a new session)', async () => {
    for (const bad of [
      'my-session',
      SAMPLE_ID.slice(0, 13),
      SAMPLE_ID.toUpperCase(),
      '--dangerously-bypass-approvals-and-sandbox',
      '',
    ]) {
      const plan = await codexAdapter.planResume(ctx(), { sessionId: bad, chosenBy: 'vendor', confirmed: true }, env);
      expect(plan.outcome).toBe('fresh');
      expect(plan.sessionId).toBeNull();
      expect(plan.argv).toEqual(['codex', '--no-daemon', '-c', 'features.daemon_auto_start=false']);
      expect(plan.warning).toMatch(
        /^codex: (the saved session id is not a Codex session id|no Codex session was recorded for this agent); starting a fresh conversation in \/home\/u\/proj$/,
      );
    }
  });
});
