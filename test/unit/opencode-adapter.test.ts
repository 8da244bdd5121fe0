// The opencode adapter against the sample store (a real opencode 1.18.33 database, read with sql.js) and a real WAL
// written by SQLite itself (test/fixtures/opencode-wal/make.py). Its follower: opencode-follow.test.ts.
import { copyFile, mkdir, readFile, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, VendorAdapter, VendorEnv } from '../../electron/core/vendors/adapter.js';
import {
  applyWal,
  rows,
  sqlJsLoader,
  withImage as withImageOf,
  type SqlDatabase,
} from '../../electron/core/vendors/kit/sqlite-image.js';
import { OPENCODE_FACTS, freePort } from '../../electron/core/vendors/opencode/index.js';
import { parseEvent, parseServerSession } from '../../electron/core/vendors/opencode/server.js';
import {
  OPENCODE_SESSION_ID,
  displayDataDir,
  opencodeDataDir,
  type OpencodeStore,
} from '../../electron/core/vendors/opencode/store.js';
import { resolveBin, type Vendors } from '../../electron/core/vendors/registry.js';
import type { VendorName } from '../../shared/words.js';
import { SAMPLE_ID, copySample, editStoreIn, emptyStore, opencodeVendors } from './opencode-fixture.js';

const WAL_DIR = fileURLToPath(new URL('../fixtures/opencode-wal/', import.meta.url));
const WAL_ONE = 'ses_deb4a1b2c3feWalOneAbCdEfGh'; // /home/u/other, transaction 1 of the WAL
const WAL_TWO = 'ses_deb4a1b2c3fdWalTwoAbCdEfGh'; // /home/u/proj, transaction 2 of the WAL
const PAGE = 4096;
const FRAME = 24 + PAGE;

let tmp: string;
let env: Record<string, string>;
let dataDir: string;
let vendors: Vendors;
let opencodeAdapter: VendorAdapter;
let store: OpencodeStore;
const getAdapter = (vendor: VendorName) => vendors.get(vendor);
const listOpencodeSessions = (e: VendorEnv) => store.list(e);
const opencodeSessions = (e: VendorEnv) => store.sessions(e);
const withImage = <T>(bytes: Uint8Array, fn: (db: SqlDatabase) => T) => withImageOf(sqlJsLoader(), bytes, fn);
const useSample = () => copySample(dataDir);
const editStore = (sql: string, params?: (string | number | null)[]) => editStoreIn(dataDir, sql, params);

beforeEach(async () => {
  ({ tmp, env, dataDir } = await emptyStore());
  ({ vendors, opencodeAdapter, store } = opencodeVendors());
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'planner', cwd: '/home/u/proj', args: [], command: null, ...over };
}

async function useWal(wal?: (bytes: Buffer) => Buffer): Promise<void> {
  await copyFile(join(WAL_DIR, 'opencode.db'), join(dataDir, 'opencode.db'));
  const bytes = await readFile(join(WAL_DIR, 'opencode.db-wal'));
  await writeFile(join(dataDir, 'opencode.db-wal'), wal ? wal(bytes) : bytes);
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
    for (const id of [
      'ses_deb4a1b2c3ff',
      'ses_DEB4A1B2C3FFQm7Lr2VxN9pK4s',
      'msg_214b5c3d4001AbCdEfGhIjKlMn',
      '-s',
      `${SAMPLE_ID}x`,
      ` ${SAMPLE_ID}`,
      'ses_deb4a1b2c3ffQm7Lr2VxN9pK4-',
    ])
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
    expect(
      await opencodeAdapter.exists(SAMPLE_ID, '/home/u/proj', { ...env, XDG_DATA_HOME: join(tmp, 'elsewhere') }),
    ).toBe(false);
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
    expect([await readFile(join(dataDir, 'opencode.db')), await readFile(join(dataDir, 'opencode.db-wal'))]).toEqual(
      before,
    );
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
    const plan = await opencodeAdapter.spawnFresh(ctx({ args: ['-m', 'mock/mock-model'] }), {
      BATON_OPENCODE_BIN: '/opt/oc',
    });
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
    const plan = await opencodeAdapter.planResume(
      ctx({ args: ['--agent', 'plan'] }),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan.argv).toEqual([
      'opencode',
      '-s',
      SAMPLE_ID,
      '--port',
      expect.stringMatching(/^\d+$/),
      '--agent',
      'plan',
    ]);
    expect(plan).toMatchObject({ sessionId: SAMPLE_ID, chosenBy: 'vendor', outcome: 'resumed', warning: null });
    expect(plan.hints).toEqual({ sessionId: SAMPLE_ID, port: String(portOf(plan.argv)) });
  });

  it('starts fresh, with a warning that names the session by 8 characters, when the session is gone', async () => {
    await useSample();
    await editStore('DELETE FROM session WHERE id = ?', [SAMPLE_ID]);
    const plan = await opencodeAdapter.planResume(
      ctx(),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan.argv).toEqual(['opencode', '--port', expect.stringMatching(/^\d+$/)]);
    expect(plan).toMatchObject({ sessionId: null, chosenBy: null, outcome: 'fresh' });
    expect(plan.warning).toBe(
      'opencode: session ses_deb4… is not in ~/.local/share/opencode any more; starting a fresh conversation in /home/u/proj',
    );
    expect(plan.warning).not.toContain(SAMPLE_ID);
  });

  it('never resumes a session from another directory (the CLI would hang there)', async () => {
    await useSample();
    const plan = await opencodeAdapter.planResume(
      ctx({ cwd: '/home/u/other' }),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(plan.outcome).toBe('fresh');
    expect(plan.argv).not.toContain('-s');
    expect(plan.warning).toBe(
      'opencode: session ses_deb4… belongs to /home/u/proj, not /home/u/other; starting a fresh conversation in /home/u/other',
    );
  });

  it('never passes on an id that is not an opencode id, nor an empty one', async () => {
    await useSample();
    for (const bad of ['--help', '-c', 'ses_x', `${SAMPLE_ID} --fork`]) {
      const plan = await opencodeAdapter.planResume(
        ctx(),
        { sessionId: bad, chosenBy: 'vendor', confirmed: true },
        env,
      );
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
    expect(parseEvent(ev('session.created', { info }))).toEqual({
      kind: 'session',
      created: true,
      session: parseServerSession(info),
    });
    expect(parseEvent(ev('session.updated', { info }))).toMatchObject({ kind: 'session', created: false });
    expect(parseEvent(ev('message.updated', { info: { id: 'msg_1', sessionID: SAMPLE_ID, role: 'user' } }))).toEqual({
      kind: 'prompt',
      sessionId: SAMPLE_ID,
    });
    expect(
      parseEvent(ev('message.updated', { info: { id: 'msg_1', sessionID: SAMPLE_ID, role: 'assistant' } })),
    ).toBeNull();
    expect(parseEvent(ev('server.connected', {}))).toBeNull();
    expect(
      parseEvent(
        JSON.stringify({ directory: '/home/u/proj', payload: { type: 'session.created', properties: { info } } }),
      ),
    ).toMatchObject({ kind: 'session' });
    expect(parseEvent('not json')).toBeNull();
  });
});
