// The opencode store against the sample store (a real opencode 1.18.33 database, read with sql.js) and a real WAL
// written by SQLite itself (test/fixtures/opencode-wal/make.py).
import { mkdir, readFile, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyWal, rows } from '../../electron/core/vendors/kit/sqlite-image.js';
import { SAMPLE_ID } from './opencode-fixture.js';
import {
  WAL_DIR,
  WAL_ONE,
  WAL_TWO,
  FRAME,
  tmp,
  env,
  dataDir,
  opencodeAdapter,
  listOpencodeSessions,
  opencodeSessions,
  withImage,
  useSample,
  editStore,
  useOpencodeStore,
  useWal,
} from './opencode-adapter-helpers.js';

useOpencodeStore();

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
