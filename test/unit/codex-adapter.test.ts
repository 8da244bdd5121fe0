// The Codex adapter: facts, argv, resume planning, the rollout store (local-time folders, parsing, listing) and
// discovery of the thread id (the writer lock held in /proc, and snapshot-and-claim when /proc shows nothing).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation } from '../../electron/core/vendors/adapter.js';
import { CODEX_FOLLOW, CODEX_NO_DAEMON_ARGS, codexAdapter } from '../../electron/core/vendors/codex.js';
import {
  codexHome,
  displayCodexHome,
  findRollout,
  localDayFolders,
  parseRolloutHead,
  processTree,
  readHead,
  ROLLOUT_HEAD_BYTES,
} from '../../electron/core/vendors/codex-store.js';
import { getAdapter, resolveBin } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/codex/.codex', import.meta.url));
const FAKE = fileURLToPath(new URL('../fakes/codex.mjs', import.meta.url));
const SAMPLE_ID = '019abcde-1234-7def-8abc-0123456789ab';
const SAMPLE_REL = 'sessions/2026/11/25/rollout-2026-11-25T21-47-05-019abcde-1234-7def-8abc-0123456789ab.jsonl';
const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PERMISSION_SKIPPING = ['--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto', '--approve-for-me'];

let tmp: string;
let store: string;
let env: Record<string, string>;
const children: ChildProcess[] = [];
const savedFollow = { ...CODEX_FOLLOW };

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-codex-')));
  store = join(tmp, 'codex-home');
  await cp(FIXTURE, store, { recursive: true });
  env = { HOME: join(tmp, 'home'), CODEX_HOME: store, PATH: '/usr/bin:/bin' };
});

afterEach(async () => {
  Object.assign(CODEX_FOLLOW, savedFollow);
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'coder', cwd: '/home/u/proj', args: [], command: null, ...over };
}

async function until<T>(get: () => T | undefined, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A rollout in the store's day folder for `at` (local time of `tz`-less env: this process's). */
async function writeRollout(id: string, cwd: string, opts: { folder?: string; at?: Date; prompt?: string } = {}): Promise<string> {
  const at = opts.at ?? new Date();
  const folder = opts.folder ?? localDayFolders(at, env)[0];
  const dir = join(store, 'sessions', folder);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `rollout-2026-01-01T00-00-00-${id}.jsonl`);
  const lines = [
    { timestamp: at.toISOString(), ordinal: 0, type: 'session_meta', payload: { session_id: id, id, timestamp: at.toISOString(), cwd, source: 'cli', model_provider: 'openai' } },
    { timestamp: at.toISOString(), ordinal: 1, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n</environment_context>' }] } },
    { timestamp: at.toISOString(), ordinal: 2, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: opts.prompt ?? 'hello' }] } },
  ];
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

function uuid7(): string {
  const h = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${Date.now().toString(16).padStart(12, '0').slice(0, 8)}-${Date.now().toString(16).padStart(12, '0').slice(8, 12)}-7${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
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
        r.test(`ERROR: No saved session found with ID ${SAMPLE_ID}. Run \`codex resume\` without an ID to choose from existing sessions.`),
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
      { type: 'response_item', payload: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sys' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_instructions>x</user_instructions>' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] } },
    ];
    expect(parseRolloutHead(noEnv.map((l) => JSON.stringify(l)).join('\n'))?.firstPrompt).toBe('fix the bug');
  });

  it('reads at most 64 KiB of a rollout, cut at a line end', async () => {
    const file = join(tmp, 'big.jsonl');
    const meta = JSON.stringify({ type: 'session_meta', payload: { id: SAMPLE_ID, cwd: '/x' } });
    const filler = JSON.stringify({ type: 'event_msg', payload: { type: 'x', pad: 'y'.repeat(1000) } });
    const late = JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'too late' }] } });
    await writeFile(file, [meta, ...Array(100).fill(filler), late].join('\n') + '\n');
    const head = (await readHead(file))!;
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
      { sessionId: SAMPLE_ID, cwd: '/home/u/proj', title: null, firstPrompt: 'remember the number 777', lastActivity: mtime.toISOString() },
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
      { sessionId: SAMPLE_ID, cwd: '/home/u/proj', title: null, firstPrompt: 'remember the number 778', lastActivity: later.toISOString() },
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
    expect(localDayFolders(new Date('2027-01-01T03:00:00Z'), { TZ: 'America/Los_Angeles' })).toEqual(['2026/12/31', '2026/12/30']);
    expect(localDayFolders(new Date('2028-03-01T12:00:00Z'), { TZ: 'Europe/Berlin' })).toEqual(['2028/03/01', '2028/02/29']);
    // The day after a 25-hour DST day (New York, 2026-11-01): calendar arithmetic, not "24 h ago".
    expect(localDayFolders(new Date('2026-11-02T04:30:00Z'), { TZ: 'America/New_York' })).toEqual(['2026/11/01', '2026/10/31']);
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
    expect(await findRollout(id, { ...env, TZ: 'America/New_York' }, { now: at, recentOnly: true })).toMatch(/2026\/11\/25\/rollout-/);
    // Anywhere else, the full scan finds it.
    const other = '019abcdf-2222-7000-8000-000000000003';
    await writeRollout(other, '/home/u/proj', { folder: '2025/02/03' });
    expect(await findRollout(other, { ...env, TZ: 'Europe/Paris' }, { now: at, recentOnly: true })).toBeNull();
    expect(await findRollout(other, { ...env, TZ: 'Europe/Paris' }, { now: at })).toMatch(/2025\/02\/03\/rollout-/);
  });
});

describe('codex adapter: planResume', () => {
  it('resumes a rollout that exists, with the daemon off and the user args last', async () => {
    const plan = await codexAdapter.planResume(ctx({ args: ['-m', 'o3'] }), { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true }, env);
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
      warning: 'codex: session 0199abcd… is not in ~/.codex/sessions any more; starting a fresh conversation in /home/u/proj',
    });
    const never = await codexAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, env);
    expect(never.outcome).toBe('fresh');
    expect(never.warning).toBe(`codex: session 0199abcd… was never saved in ${store}/sessions (no prompt was answered in it); starting a fresh conversation in /home/u/proj`);
    for (const p of [plan, never]) {
      expect(p.warning).not.toContain(id);
      expect(p.argv).not.toContain(id);
      expect(p.argv).not.toContain('resume');
    }
  });

  it('never passes an id that is not a UUID (codex would take it as a name and start a new session)', async () => {
    for (const bad of ['my-session', SAMPLE_ID.slice(0, 13), SAMPLE_ID.toUpperCase(), '--dangerously-bypass-approvals-and-sandbox', '']) {
      const plan = await codexAdapter.planResume(ctx(), { sessionId: bad, chosenBy: 'vendor', confirmed: true }, env);
      expect(plan.outcome).toBe('fresh');
      expect(plan.sessionId).toBeNull();
      expect(plan.argv).toEqual(['codex', '--no-daemon', '-c', 'features.daemon_auto_start=false']);
      expect(plan.warning).toMatch(/^codex: (the saved session id is not a Codex session id|no Codex session was recorded for this agent); starting a fresh conversation in \/home\/u\/proj$/);
    }
  });
});

describe('codex adapter: follow', () => {
  /** The fake codex (wrapper + native child) on pipes, in `cwd`. */
  function startFake(cwd: string, args: string[] = [...CODEX_NO_DAEMON_ARGS]): ChildProcess {
    const child = spawn(process.execPath, [FAKE, ...args], { cwd, env: { ...process.env, ...env, FAKE_CODEX_DELAY_MS: '10' }, stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    return child;
  }

  async function type(child: ChildProcess, text: string): Promise<void> {
    child.stdin!.write(text);
    await sleep(150);
    child.stdin!.write('\r');
  }

  it('reads the id from the writer lock the native child holds, confirms it after the first turn, follows /new', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const child = startFake(cwd);
    const seen: SessionObservation[] = [];
    const stop = codexAdapter.follow({ pid: child.pid!, cwd, hints: {}, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    try {
      const first = await until(() => seen[0]);
      expect(first.sessionId).toMatch(UUID7);
      expect(first.confirmed).toBe(false);
      // The PTY child is only the wrapper: the lock is held by its child.
      expect(processTree(child.pid!).length).toBeGreaterThanOrEqual(2);

      await type(child, 'remember the number 5');
      await until(() => seen[1]);
      expect(seen[1]).toEqual({ sessionId: first.sessionId, confirmed: true });

      await type(child, '/new');
      await until(() => seen[2]);
      expect(seen[2]!.sessionId).toMatch(UUID7);
      expect(seen[2]!.sessionId).not.toBe(first.sessionId);
      expect(seen[2]!.confirmed).toBe(false);
    } finally {
      stop();
    }
    const count = seen.length;
    await type(child, 'remember the number 6');
    await sleep(800);
    expect(seen).toHaveLength(count);
  });

  it('confirms a resumed thread whose rollout lives in an old folder', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const child = startFake(cwd, ['resume', SAMPLE_ID, ...CODEX_NO_DAEMON_ARGS]);
    const seen: SessionObservation[] = [];
    const stop = codexAdapter.follow({ pid: child.pid!, cwd, hints: { sessionId: SAMPLE_ID }, spawnedAt: Date.now() }, { ...env, TZ: 'Asia/Tokyo' }, (s) =>
      seen.push(s),
    );
    try {
      await until(() => seen.find((s) => s.confirmed));
      expect(seen.at(-1)).toEqual({ sessionId: SAMPLE_ID, confirmed: true });
    } finally {
      stop();
    }
  });

  it('without the flags the daemon holds the lock: /proc under the terminal shows nothing', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    CODEX_FOLLOW.fallbackAfterMs = 60_000;
    const child = startFake(cwd, []);
    const seen: SessionObservation[] = [];
    const stop = codexAdapter.follow({ pid: child.pid!, cwd, hints: {}, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    let daemonPid: number | null = null;
    try {
      const log = await until(() => {
        try {
          return readFileSync(join(store, 'fake-daemon.log'), 'utf8');
        } catch {
          return undefined;
        }
      });
      daemonPid = Number(log.split(' ')[0]);
      await sleep(800);
      expect(seen).toEqual([]);
    } finally {
      stop();
      if (daemonPid) process.kill(daemonPid, 'SIGKILL');
    }
  });

  it('the fake takes text and Enter in one write as a paste (not submitted); Enter after a pause submits', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const child = startFake(cwd);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => (out.includes('? for shortcuts') ? true : undefined));
    child.stdin!.write('remember the number 9\r');
    await sleep(400);
    expect(out).not.toContain('OK, I will remember 9.');
    child.stdin!.write('\r');
    await until(() => (out.includes('OK, I will remember 9.') ? true : undefined));
  });

  it('the fake refuses to resume an unknown id with the real error text and exit 1', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const unknown = '019abcde-1234-7def-8abc-000000000000';
    const child = startFake(cwd, ['resume', unknown, ...CODEX_NO_DAEMON_ARGS]);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(1);
    expect(out).toContain(`ERROR: No saved session found with ID ${unknown}. Run \`codex resume\` without an ID to choose from existing sessions.`);
    expect(codexAdapter.resumeErrorTexts.some((re) => re.test(out))).toBe(true);
  });

  describe('snapshot-and-claim when /proc shows nothing', () => {
    let cwd: string;
    let quiet: ChildProcess;
    beforeEach(async () => {
      cwd = join(tmp, 'proj');
      await mkdir(cwd);
      CODEX_FOLLOW.fallbackAfterMs = 200;
      // A live process that holds no Codex file, standing in for a CLI whose lock /proc cannot show.
      quiet = spawn('sleep', ['60'], { stdio: 'ignore' });
      children.push(quiet);
    });

    function follow(spawnedAt = Date.now()) {
      const seen: SessionObservation[] = [];
      const stop = codexAdapter.follow({ pid: quiet.pid!, cwd, hints: {}, spawnedAt }, env, (s) => seen.push(s));
      return { seen, stop };
    }

    it('claims exactly one new rollout of this cwd; never an old one, never another cwd', async () => {
      const old = uuid7();
      await writeRollout(old, cwd, { at: new Date(Date.now() - 60_000) });
      await sleep(20);
      const f = follow();
      try {
        await writeRollout(uuid7(), join(tmp, 'elsewhere'));
        await sleep(700);
        expect(f.seen).toEqual([]);
        const mine = uuid7();
        await writeRollout(mine, cwd);
        await until(() => f.seen[0]);
        expect(f.seen).toEqual([{ sessionId: mine, confirmed: true }]);
      } finally {
        f.stop();
      }
    });

    it('waits while two new rollouts of this cwd fit', async () => {
      const f = follow();
      try {
        await writeRollout(uuid7(), cwd);
        await writeRollout(uuid7(), cwd);
        await sleep(800);
        expect(f.seen).toEqual([]);
      } finally {
        f.stop();
      }
    });

    it('gives one id to one agent only', async () => {
      const spawnedAt = Date.now();
      const a = follow(spawnedAt);
      const b = follow(spawnedAt);
      try {
        const x = uuid7();
        await writeRollout(x, cwd);
        const winner = await until(() => (a.seen[0] ? a : b.seen[0] ? b : undefined));
        const loser = winner === a ? b : a;
        expect(winner.seen).toEqual([{ sessionId: x, confirmed: true }]);
        await sleep(600);
        expect(loser.seen).toEqual([]);
        const y = uuid7();
        await writeRollout(y, cwd);
        await until(() => loser.seen[0]);
        expect(loser.seen).toEqual([{ sessionId: y, confirmed: true }]);
        expect(winner.seen).toHaveLength(1);
      } finally {
        a.stop();
        b.stop();
      }
    });

    it('a resumed terminal reports the id it was started with', async () => {
      const seen: SessionObservation[] = [];
      const stop = codexAdapter.follow({ pid: quiet.pid!, cwd, hints: { sessionId: SAMPLE_ID }, spawnedAt: Date.now() }, env, (s) => seen.push(s));
      try {
        await until(() => seen[0]);
        expect(seen).toEqual([{ sessionId: SAMPLE_ID, confirmed: true }]);
      } finally {
        stop();
      }
    });
  });
});

