// The opencode adapter against the sample store (a real opencode 1.18.33 database, read with sql.js), a real WAL
// written by SQLite itself (test/fixtures/opencode-wal/make.py), and an in-process stand-in for the TUI's server.
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation } from '../../electron/core/vendors/adapter.js';
import {
  OPENCODE_FACTS,
  OPENCODE_FOLLOW,
  freePort,
  opencodeAdapter,
  parseEvent,
  parseServerSession,
} from '../../electron/core/vendors/opencode.js';
import {
  OPENCODE_SESSION_ID,
  displayDataDir,
  listOpencodeSessions,
  opencodeDataDir,
  opencodeSessions,
} from '../../electron/core/vendors/opencode-store.js';
import { applyWal, rows, withImage } from '../../electron/core/vendors/sqlite-image.js';
import { getAdapter, resolveBin } from '../../electron/core/vendors/registry.js';

const SAMPLE = fileURLToPath(new URL('../fixtures/vendor-samples/opencode/.local/share/opencode/opencode.db', import.meta.url));
const WAL_DIR = fileURLToPath(new URL('../fixtures/opencode-wal/', import.meta.url));
const SAMPLE_ID = 'ses_deb4a1b2c3ffQm7Lr2VxN9pK4s';
const WAL_ONE = 'ses_deb4a1b2c3feWalOneAbCdEfGh'; // /home/u/other, transaction 1 of the WAL
const WAL_TWO = 'ses_deb4a1b2c3fdWalTwoAbCdEfGh'; // /home/u/proj, transaction 2 of the WAL
const PAGE = 4096;
const FRAME = 24 + PAGE;

let tmp: string;
let env: Record<string, string>;
let dataDir: string;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-opencode-')));
  env = { HOME: join(tmp, 'home'), PATH: '/usr/bin:/bin' };
  dataDir = join(tmp, 'home', '.local', 'share', 'opencode');
  await mkdir(dataDir, { recursive: true });
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'planner', cwd: '/home/u/proj', args: [], command: null, ...over };
}

const useSample = () => copyFile(SAMPLE, join(dataDir, 'opencode.db'));
async function useWal(wal?: (bytes: Buffer) => Buffer): Promise<void> {
  await copyFile(join(WAL_DIR, 'opencode.db'), join(dataDir, 'opencode.db'));
  const bytes = await readFile(join(WAL_DIR, 'opencode.db-wal'));
  await writeFile(join(dataDir, 'opencode.db-wal'), wal ? wal(bytes) : bytes);
}

/** Changes the store through sql.js (as a test's own writer; the adapter never writes). */
async function editStore(sql: string, params: (string | number | null)[] = []): Promise<void> {
  const SQL = await initSqlJs({ locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm') });
  const path = join(dataDir, 'opencode.db');
  const db = new SQL.Database(await readFile(path));
  db.run(sql, params);
  await writeFile(path, db.export());
  db.close();
  const later = new Date(Date.now() + 5000);
  await utimes(path, later, later);
}

describe('opencode adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(opencodeAdapter.vendor).toBe('opencode');
    expect(getAdapter('opencode')).toBe(opencodeAdapter);
    expect(opencodeAdapter.submitDelayMs).toBe(300);
    expect(opencodeAdapter.binEnvVar).toBe('BATON_OPENCODE_BIN');
    expect(opencodeAdapter.defaultBin({})).toBe('opencode');
    expect(resolveBin(opencodeAdapter, { BATON_OPENCODE_BIN: '/opt/oc' })).toBe('/opt/oc');
    expect(opencodeAdapter.versionArgs).toEqual(['--version']);
    expect(opencodeAdapter.resumeCommand(SAMPLE_ID)).toEqual(['opencode', '-s', SAMPLE_ID]);
    expect(opencodeAdapter.sessionIdPattern).toBe(OPENCODE_SESSION_ID);
  });

  it('accepts only opencode session ids', () => {
    const p = OPENCODE_SESSION_ID;
    for (const id of [SAMPLE_ID, WAL_ONE, 'ses_0123456789abZZZZZZZZZZZZZZ']) expect(p.test(id), id).toBe(true);
    for (const id of ['ses_deb4a1b2c3ff', 'ses_DEB4A1B2C3FFQm7Lr2VxN9pK4s', 'msg_214b5c3d4001AbCdEfGhIjKlMn', '-s', `${SAMPLE_ID}x`, ` ${SAMPLE_ID}`, 'ses_deb4a1b2c3ffQm7Lr2VxN9pK4-'])
      expect(p.test(id), id).toBe(false);
  });

  it('recognises the real "no such session" text, and nothing else', () => {
    const hit = (t: string) => OPENCODE_FACTS.resumeErrorTexts.some((r) => r.test(t));
    expect(hit(`Error: Session not found: ${SAMPLE_ID}`)).toBe(true);
    expect(hit('Error: Session not found')).toBe(true);
    expect(hit('┃ Ask anything…   tab agents  ctrl+p commands')).toBe(false);
  });

  it('finds the data folder like the CLI', () => {
    expect(opencodeDataDir({ HOME: '/h' })).toBe('/h/.local/share/opencode');
    expect(opencodeDataDir({ HOME: '/h', XDG_DATA_HOME: '/x' })).toBe('/x/opencode');
    expect(opencodeDataDir({ HOME: '/h', XDG_DATA_HOME: 'relative' })).toBe('/h/.local/share/opencode');
    expect(displayDataDir({ HOME: '/h' })).toBe('~/.local/share/opencode');
    expect(displayDataDir({ HOME: '/h', XDG_DATA_HOME: '/x' })).toBe('/x/opencode');
  });
});

describe('opencode store: the sample database', () => {
  it('exists() finds the sample session in its own directory only', async () => {
    await useSample();
    expect(await opencodeAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await opencodeAdapter.exists(SAMPLE_ID, '/home/u/other', env)).toBe(false);
    expect(await opencodeAdapter.exists(WAL_ONE, '/home/u/proj', env)).toBe(false);
    expect(await opencodeAdapter.exists('not-an-id', '/home/u/proj', env)).toBe(false);
    expect(await opencodeAdapter.exists(SAMPLE_ID, '/home/u/proj', { ...env, XDG_DATA_HOME: join(tmp, 'elsewhere') })).toBe(false);
  });

  it('exists() compares the directory the CLI recorded with the cwd as written and as resolved', async () => {
    await useSample();
    const real = join(tmp, 'proj');
    await mkdir(real);
    await symlink(real, join(tmp, 'link'));
    await editStore('UPDATE session SET directory = ? WHERE id = ?', [real, SAMPLE_ID]);
    expect(await opencodeAdapter.exists(SAMPLE_ID, real, env)).toBe(true);
    expect(await opencodeAdapter.exists(SAMPLE_ID, join(tmp, 'link'), env)).toBe(true);
    expect(await opencodeAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(false);
  });

  it('listSessions() gives id, cwd, title, first prompt and last activity; sub-agent sessions are left out', async () => {
    await useSample();
    expect(await listOpencodeSessions(env)).toEqual([
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: 'Remember the number 777',
        firstPrompt: 'remember the number 777',
        lastActivity: new Date(1795643291100).toISOString(),
      },
    ]);
    await editStore(
      "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 's', '/home/u/proj', 'child', '1.18.33', 1, 1)",
      ['ses_deb4a1b2c3f0ChildAbCdEfGhI', SAMPLE_ID],
    );
    const listed = await opencodeAdapter.listSessions!(env);
    expect(listed.map((s) => s.sessionId)).toEqual([SAMPLE_ID]);
    expect((await opencodeSessions(env)).get('ses_deb4a1b2c3f0ChildAbCdEfGhI')?.parentId).toBe(SAMPLE_ID);
  });

  it('caches a listing until the database changes, and reads the change', async () => {
    await useSample();
    const first = await listOpencodeSessions(env);
    expect(await listOpencodeSessions(env)).toBe(first);
    await editStore('UPDATE session SET title = ? WHERE id = ?', ['A new title', SAMPLE_ID]);
    const second = await listOpencodeSessions(env);
    expect(second).not.toBe(first);
    expect(second[0]?.title).toBe('A new title');
  });

  it('with no database there is nothing, and nothing is created', async () => {
    expect(await listOpencodeSessions(env)).toEqual([]);
    expect(await opencodeAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(false);
    await expect(stat(join(dataDir, 'opencode.db'))).rejects.toThrow();
  });
});

describe('opencode store: a database in WAL mode', () => {
  it('applies the committed transactions a real SQLite left in the WAL (what a live or killed opencode leaves)', async () => {
    await useWal();
    expect(await opencodeAdapter.exists(WAL_TWO, '/home/u/proj', env)).toBe(true);
    expect(await opencodeAdapter.exists(WAL_ONE, '/home/u/other', env)).toBe(true);
    expect(await opencodeAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    const listed = await listOpencodeSessions(env);
    expect(listed.map((s) => [s.sessionId, s.title, s.firstPrompt])).toEqual([
      [WAL_TWO, 'in the wal, second', 'hello from in the wal, second'],
      [WAL_ONE, 'in the wal, first', 'hello from in the wal, first'],
      [SAMPLE_ID, 'Renamed in the WAL', 'remember the number 777'],
    ]);
  });

  it('never writes: the database and its WAL are byte-for-byte what they were', async () => {
    await useWal();
    const before = [await readFile(join(dataDir, 'opencode.db')), await readFile(join(dataDir, 'opencode.db-wal'))];
    await listOpencodeSessions(env);
    await opencodeAdapter.exists(WAL_TWO, '/home/u/proj', env);
    expect([await readFile(join(dataDir, 'opencode.db')), await readFile(join(dataDir, 'opencode.db-wal'))]).toEqual(before);
    await expect(stat(join(dataDir, 'opencode.db-shm'))).rejects.toThrow();
  });

  it('stops at a torn frame: the unfinished transaction is not seen, the earlier one is', async () => {
    await useWal((b) => b.subarray(0, b.length - 100));
    expect(await opencodeAdapter.exists(WAL_ONE, '/home/u/other', env)).toBe(true);
    expect(await opencodeAdapter.exists(WAL_TWO, '/home/u/proj', env)).toBe(false);
    expect((await opencodeSessions(env)).get(SAMPLE_ID)?.title).toBe('Remember the number 777');
  });

  it('stops at a frame whose checksum fails, and ignores frames of another salt (a restarted WAL)', async () => {
    const db = await readFile(join(WAL_DIR, 'opencode.db'));
    const wal = await readFile(join(WAL_DIR, 'opencode.db-wal'));
    const count = (bytes: Uint8Array) => withImage(bytes, (d) => rows(d, 'SELECT id FROM session').length);
    expect(await count(db)).toBe(1);
    expect(await count(applyWal(db, wal))).toBe(3);
    const frames = (wal.length - 32) / FRAME;
    // The last frame is transaction 2's commit: corrupt a byte of its page.
    const bad = Buffer.from(wal);
    bad[32 + (frames - 1) * FRAME + 24 + 100]! ^= 0xff;
    expect(await count(applyWal(db, bad))).toBe(2);
    // Frame 1 with another salt: nothing after the header is valid.
    const stale = Buffer.from(wal);
    stale[32 + 8]! ^= 0x01;
    expect(applyWal(db, stale)).toBe(db);
    // Not a WAL, or too short: the database as it is.
    expect(applyWal(db, Buffer.alloc(10))).toBe(db);
    expect(applyWal(db, Buffer.alloc(32 + FRAME))).toBe(db);
    // The header's own checksum is checked too.
    const header = Buffer.from(wal);
    header[12]! ^= 0x01;
    expect(applyWal(db, header)).toBe(db);
  });

  it('marks the image it builds as a rollback-journal database', async () => {
    const db = await readFile(join(WAL_DIR, 'opencode.db'));
    expect([db[18], db[19]]).toEqual([2, 2]);
    const image = applyWal(db, await readFile(join(WAL_DIR, 'opencode.db-wal')));
    expect([image[18], image[19]]).toEqual([1, 1]);
  });

  it('sees a WAL that grows while the cache holds an older state', async () => {
    const wal = await readFile(join(WAL_DIR, 'opencode.db-wal'));
    const frames = (wal.length - 32) / FRAME;
    // Find the end of transaction 1 (the first commit frame).
    let end = 32;
    for (let i = 0; i < frames; i++) {
      end += FRAME;
      if (wal.readUInt32BE(32 + i * FRAME + 4) !== 0) break;
    }
    await useWal((b) => b.subarray(0, end));
    expect(await opencodeAdapter.exists(WAL_TWO, '/home/u/proj', env)).toBe(false);
    await writeFile(join(dataDir, 'opencode.db-wal'), wal);
    const later = new Date(Date.now() + 5000);
    await utimes(join(dataDir, 'opencode.db-wal'), later, later);
    expect(await opencodeAdapter.exists(WAL_TWO, '/home/u/proj', env)).toBe(true);
    await truncate(join(dataDir, 'opencode.db-wal'), 0);
    expect(await opencodeAdapter.exists(WAL_TWO, '/home/u/proj', env)).toBe(false);
  });
});

describe('opencode adapter: spawn and resume plans (argv arrays, never shell strings)', () => {
  const portOf = (argv: string[]) => Number(argv[argv.indexOf('--port') + 1]);

  it('spawnFresh gives the TUI a free port of its own and tells follow() which', async () => {
    const plan = await opencodeAdapter.spawnFresh(ctx({ args: ['-m', 'mock/mock-model'] }), { BATON_OPENCODE_BIN: '/opt/oc' });
    expect(plan.argv).toEqual(['/opt/oc', '--port', expect.stringMatching(/^\d+$/), '-m', 'mock/mock-model']);
    expect(plan).toMatchObject({ sessionId: null, chosenBy: null, outcome: 'fresh', warning: null, env: {} });
    expect(plan.hints).toEqual({ port: String(portOf(plan.argv)) });
    // The port is free: it can be listened on.
    const server = createServer();
    await new Promise<void>((r) => server.listen(portOf(plan.argv), '127.0.0.1', r));
    await new Promise((r) => server.close(r));
  });

  it("keeps the user's own --port", async () => {
    const plan = await opencodeAdapter.spawnFresh(ctx({ args: ['--port', '4321'] }), {});
    expect(plan.argv).toEqual(['opencode', '--port', '4321']);
    expect(plan.hints).toEqual({ port: '4321' });
    const inline = await opencodeAdapter.spawnFresh(ctx({ args: ['--port=4322'] }), {});
    expect(inline.argv).toEqual(['opencode', '--port=4322']);
    expect(inline.hints).toEqual({ port: '4322' });
  });

  it('resumes a session of this directory with -s <id> and a new port', async () => {
    await useSample();
    const plan = await opencodeAdapter.planResume(ctx({ args: ['--agent', 'plan'] }), { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true }, env);
    expect(plan.argv).toEqual(['opencode', '-s', SAMPLE_ID, '--port', expect.stringMatching(/^\d+$/), '--agent', 'plan']);
    expect(plan).toMatchObject({ sessionId: SAMPLE_ID, chosenBy: 'vendor', outcome: 'resumed', warning: null });
    expect(plan.hints).toEqual({ sessionId: SAMPLE_ID, port: String(portOf(plan.argv)) });
  });

  it('starts fresh, with a warning that names the session by 8 characters, when the session is gone', async () => {
    await useSample();
    await editStore('DELETE FROM session WHERE id = ?', [SAMPLE_ID]);
    const plan = await opencodeAdapter.planResume(ctx(), { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true }, env);
    expect(plan.argv).toEqual(['opencode', '--port', expect.stringMatching(/^\d+$/)]);
    expect(plan).toMatchObject({ sessionId: null, chosenBy: null, outcome: 'fresh' });
    expect(plan.warning).toBe('opencode: session ses_deb4… is not in ~/.local/share/opencode any more; starting a fresh conversation in /home/u/proj');
    expect(plan.warning).not.toContain(SAMPLE_ID);
  });

  it('never resumes a session from another directory (the CLI would hang there)', async () => {
    await useSample();
    const plan = await opencodeAdapter.planResume(ctx({ cwd: '/home/u/other' }), { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true }, env);
    expect(plan.outcome).toBe('fresh');
    expect(plan.argv).not.toContain('-s');
    expect(plan.warning).toBe('opencode: session ses_deb4… belongs to /home/u/proj, not /home/u/other; starting a fresh conversation in /home/u/other');
  });

  it('never passes on an id that is not an opencode id, nor an empty one', async () => {
    await useSample();
    for (const bad of ['--help', '-c', 'ses_x', `${SAMPLE_ID} --fork`]) {
      const plan = await opencodeAdapter.planResume(ctx(), { sessionId: bad, chosenBy: 'vendor', confirmed: true }, env);
      expect(plan.outcome).toBe('fresh');
      expect(plan.argv).not.toContain(bad);
      expect(plan.warning).toContain('is not an opencode session id');
    }
    const none = await opencodeAdapter.planResume(ctx(), { sessionId: '', chosenBy: 'baton', confirmed: false }, env);
    expect(none.outcome).toBe('fresh');
    expect(none.warning).toContain('no session was saved');
  });
});

describe('opencode: what the TUI server says', () => {
  it('parses sessions from the list and the events', () => {
    const info = { id: SAMPLE_ID, directory: '/home/u/proj', title: 't', time: { created: 5, updated: 6 } };
    expect(parseServerSession(info)).toEqual({ id: SAMPLE_ID, directory: '/home/u/proj', parentId: null, created: 5 });
    expect(parseServerSession({ ...info, parentID: WAL_ONE })?.parentId).toBe(WAL_ONE);
    expect(parseServerSession({ ...info, id: 'nope' })).toBeNull();
    expect(parseServerSession(null)).toBeNull();

    const ev = (type: string, properties: unknown) => JSON.stringify({ type, properties });
    expect(parseEvent(ev('session.created', { info }))).toEqual({ kind: 'session', created: true, session: parseServerSession(info) });
    expect(parseEvent(ev('session.updated', { info }))).toMatchObject({ kind: 'session', created: false });
    expect(parseEvent(ev('message.updated', { info: { id: 'msg_1', sessionID: SAMPLE_ID, role: 'user' } }))).toEqual({ kind: 'prompt', sessionId: SAMPLE_ID });
    expect(parseEvent(ev('message.updated', { info: { id: 'msg_1', sessionID: SAMPLE_ID, role: 'assistant' } }))).toBeNull();
    expect(parseEvent(ev('server.connected', {}))).toBeNull();
    expect(parseEvent(JSON.stringify({ directory: '/home/u/proj', payload: { type: 'session.created', properties: { info } } }))).toMatchObject({ kind: 'session' });
    expect(parseEvent('not json')).toBeNull();
  });
});

// ---------- follow(), against an in-process stand-in for the TUI's server ----------

interface StandIn {
  port: number;
  sessions: Record<string, unknown>[];
  /** Sends an event to every open /event stream. */
  emit(type: string, properties: unknown): void;
  /** Whether /event answers (a server without it: 404). */
  events: boolean;
  close(): Promise<void>;
}

async function standIn(): Promise<StandIn> {
  const streams = new Set<ServerResponse>();
  const s: Partial<StandIn> & { sessions: Record<string, unknown>[]; events: boolean } = { sessions: [], events: true };
  const server: Server = createServer((req, res) => {
    if (req.url === '/event' && s.events) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ type: 'server.connected', properties: {} })}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.url === '/session') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(s.sessions));
    const one = /^\/session\/(.+)$/.exec(req.url ?? '');
    const found = one && s.sessions.find((x) => x.id === decodeURIComponent(one[1]!));
    if (found) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return Object.assign(s, {
    port: typeof address === 'object' && address ? address.port : 0,
    emit: (type: string, properties: unknown) => {
      for (const res of streams) res.write(`data: ${JSON.stringify({ type, properties })}\n\n`);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of streams) res.destroy();
        server.close(() => r());
      }),
  }) as StandIn;
}

const sid = (n: number) => `ses_${(0xdeb4a1b2c3ff - n).toString(16)}Follow${String(n).padStart(8, '0')}`;
const session = (n: number, directory: string, created: number, parentID?: string) => ({
  id: sid(n),
  directory,
  title: `s${n}`,
  time: { created, updated: created },
  ...(parentID ? { parentID } : {}),
});

describe('opencode follow()', () => {
  const saved = { ...OPENCODE_FOLLOW };
  const servers: StandIn[] = [];
  const stops: (() => void)[] = [];
  beforeEach(() => {
    Object.assign(OPENCODE_FOLLOW, { searchIntervalMs: 30, intervalMs: 30, dbEveryMs: 30, dbFallbackAfterMs: 300, eventSlackMs: 50, listHoldMs: 100 });
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await Promise.all(servers.splice(0).map((s) => s.close()));
    Object.assign(OPENCODE_FOLLOW, saved);
  });

  async function start(cwd: string, hints: Record<string, string>, spawnedAt = Date.now()): Promise<SessionObservation[]> {
    const seen: SessionObservation[] = [];
    stops.push(opencodeAdapter.follow({ pid: process.pid, cwd, hints, spawnedAt }, env, (s) => seen.push(s)));
    return seen;
  }
  const until = async (cond: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('takes the session this process announces on its own event stream, and follows /new', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    servers.push(srv);
    const seen = await start(cwd, { port: String(srv.port) });
    await settle();
    // Another process's session in the same directory shows up in the list first: not announced here, not taken.
    srv.sessions.push(session(1, cwd, Date.now()));
    await settle();
    expect(seen).toEqual([]);
    srv.sessions.push(session(2, cwd, Date.now()));
    srv.emit('session.created', { info: session(2, cwd, Date.now()) });
    await until(() => seen.some((x) => x.confirmed));
    expect(seen.at(-1)).toEqual({ sessionId: sid(2), confirmed: true });
    expect(seen.map((x) => x.sessionId)).not.toContain(sid(1));
    // /new: a second session of this process; a sub-agent's session (parentID) is never the agent's.
    srv.sessions.push(session(3, cwd, Date.now(), sid(2)));
    srv.emit('session.created', { info: session(3, cwd, Date.now(), sid(2)) });
    await settle();
    expect(seen.at(-1)?.sessionId).toBe(sid(2));
    srv.sessions.push(session(4, cwd, Date.now()));
    srv.emit('session.created', { info: session(4, cwd, Date.now()) });
    await until(() => seen.at(-1)?.sessionId === sid(4));
    // A prompt in an older session of this process (picked in the TUI) makes it current again.
    srv.emit('message.updated', { info: { id: 'msg_x', sessionID: sid(2), role: 'user' } });
    await until(() => seen.at(-1)?.sessionId === sid(2));
  });

  it('without events: accepts exactly one new, unclaimed session of this directory from the list', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    srv.events = false;
    servers.push(srv);
    const spawnedAt = Date.now();
    srv.sessions.push(session(11, cwd, spawnedAt - 60_000)); // older than the spawn
    srv.sessions.push(session(12, join(tmp, 'elsewhere'), spawnedAt + 10)); // another directory
    const seen = await start(cwd, { port: String(srv.port) }, spawnedAt);
    await settle();
    expect(seen).toEqual([]);
    srv.sessions.push(session(13, cwd, spawnedAt + 20), session(14, cwd, spawnedAt + 30));
    await settle();
    expect(seen).toEqual([]); // two fit: never guess
    srv.sessions.splice(srv.sessions.findIndex((s) => s.id === sid(14)), 1);
    await until(() => seen.length > 0);
    expect(seen).toEqual([{ sessionId: sid(13), confirmed: true }]);
  });

  it('without events: never takes a session another agent claimed', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    srv.events = false;
    servers.push(srv);
    const spawnedAt = Date.now();
    const first = await start(cwd, { port: String(srv.port) }, spawnedAt);
    srv.sessions.push(session(5, cwd, spawnedAt + 10));
    await until(() => first.length > 0);
    expect(first.at(-1)?.sessionId).toBe(sid(5));
    const second = await start(cwd, { port: String(srv.port) }, spawnedAt);
    await settle();
    expect(second).toEqual([]);
  });

  it('a resumed agent reports its id at once and confirms it from the list', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    servers.push(srv);
    srv.sessions.push(session(6, cwd, Date.now() - 60_000));
    const seen = await start(cwd, { port: String(srv.port), sessionId: sid(6) });
    await until(() => seen.some((s) => s.confirmed));
    expect(seen.at(-1)).toEqual({ sessionId: sid(6), confirmed: true });
  });

  it('when the port never answers, diffs the database by directory (one new row, unclaimed)', async () => {
    await useSample();
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const port = await freePort(); // nothing listens there
    const spawnedAt = Date.now();
    const seen = await start(cwd, { port: String(port) }, spawnedAt);
    await editStore(
      "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', 's', ?, 't', '1.18.33', ?, ?)",
      [sid(7), cwd, spawnedAt + 5, spawnedAt + 5],
    );
    await until(() => seen.some((x) => x.confirmed));
    expect(seen.at(-1)).toEqual({ sessionId: sid(7), confirmed: true });
  });

  it('reports nothing for a directory with no new session, and stops when asked', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    servers.push(srv);
    const seen: SessionObservation[] = [];
    const stop = opencodeAdapter.follow({ pid: process.pid, cwd, hints: { port: String(srv.port) }, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    await settle();
    stop();
    srv.sessions.push(session(8, cwd, Date.now()));
    srv.emit('session.created', { info: session(8, cwd, Date.now()) });
    await settle();
    expect(seen).toEqual([]);
  });
});
