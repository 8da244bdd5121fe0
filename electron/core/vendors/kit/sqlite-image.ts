// Reading a vendor's SQLite database without a native module (docs/architecture.md §7): the file is read into memory and
// opened read-only with sql.js (SQLite compiled to WebAssembly). Nothing is ever written back.
//
// Vendors keep these databases in WAL mode (opencode does). A reader that only reads `<db>` misses every transaction
// that is still in `<db>-wal`: a live agent's session, or that of a process that was killed before it checkpointed.
// sql.js cannot open a WAL itself (it has no shared memory), so `applyWal` does what SQLite's own recovery does,
// in memory: it checks the WAL header and the cumulative checksum of every frame, and lays the pages of every
// committed transaction over the database image. Frames of an unfinished transaction, torn frames, and frames left
// over from before the WAL was restarted (another salt) are ignored, exactly as SQLite ignores them.
import { createRequire } from 'node:module';
import { open, stat } from 'node:fs/promises';
import initSqlJs from 'sql.js';
import { stateSlot } from './context.js';

export type SqlDatabase = initSqlJs.Database;
type SqlValue = initSqlJs.SqlValue;

/** Gives the sql.js module, loading it (the .wasm file beside its JavaScript in node_modules) on first use. */
export type SqlJs = () => Promise<initSqlJs.SqlJsStatic>;

/** A loader that loads sql.js once, and again after a failed load. */
export function sqlJsLoader(): SqlJs {
  let loading: Promise<initSqlJs.SqlJsStatic> | null = null;
  return () => {
    if (!loading) {
      const wasm = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
      const started = initSqlJs({ locateFile: () => wasm });
      loading = started;
      started.catch(() => {
        if (loading === started) loading = null;
      });
    }
    return loading;
  };
}

/** The loader of a vendor context: sql.js is loaded once per core, by whichever store reads a database first. */
export const SQL_JS = stateSlot('sql.js', () => sqlJsLoader());

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** SQLite's WAL checksum over `len` bytes (a multiple of 8) of `buf` at `off`, continuing from (s0, s1). */
function walChecksum(
  view: DataView,
  off: number,
  len: number,
  bigEndian: boolean,
  s0: number,
  s1: number,
): [number, number] {
  for (let i = off; i < off + len; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

/** The page size a database header declares (bytes 16–17; 1 means 65536), or null when it is not a database. */
function dbPageSize(db: Uint8Array): number | null {
  if (db.length < 100) return null;
  const raw = (db[16]! << 8) | db[17]!;
  const size = raw === 1 ? 65536 : raw;
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0 ? size : null;
}

/**
 * The database as a reader would see it: `db` with the committed transactions of `wal` applied. Returns `db`
 * itself when the WAL holds nothing valid. The result is marked as a rollback-journal database (header bytes
 * 18–19), so that nothing looks for a WAL beside it.
 */
export function applyWal(db: Uint8Array, wal: Uint8Array): Uint8Array {
  if (wal.length < WAL_HEADER + FRAME_HEADER) return db;
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return db;
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = view.getUint32(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return db;
  const declared = dbPageSize(db);
  if (declared !== null && declared !== pageSize) return db;
  let [s0, s1] = walChecksum(view, 0, 24, bigEndian, 0, 0);
  if (s0 !== view.getUint32(24) || s1 !== view.getUint32(28)) return db;
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);

  const committed = new Map<number, number>(); // page number → offset of its newest committed copy in the WAL
  const pending = new Map<number, number>();
  let pages: number | null = null; // the database size in pages after the last commit
  for (let off = WAL_HEADER; off + FRAME_HEADER + pageSize <= wal.length; off += FRAME_HEADER + pageSize) {
    const pgno = view.getUint32(off);
    const commitSize = view.getUint32(off + 4);
    if (pgno === 0 || view.getUint32(off + 8) !== salt1 || view.getUint32(off + 12) !== salt2) break;
    [s0, s1] = walChecksum(view, off, 8, bigEndian, s0, s1);
    [s0, s1] = walChecksum(view, off + FRAME_HEADER, pageSize, bigEndian, s0, s1);
    if (s0 !== view.getUint32(off + 16) || s1 !== view.getUint32(off + 20)) break;
    pending.set(pgno, off + FRAME_HEADER);
    if (commitSize !== 0) {
      for (const [p, o] of pending) committed.set(p, o);
      pending.clear();
      pages = commitSize;
    }
  }
  if (pages === null) return db;
  const out = new Uint8Array(pages * pageSize);
  out.set(db.subarray(0, Math.min(db.length, out.length)));
  for (const [pgno, o] of committed) if (pgno <= pages) out.set(wal.subarray(o, o + pageSize), (pgno - 1) * pageSize);
  if (out.length >= 100) {
    out[18] = 1;
    out[19] = 1;
  }
  return out;
}

interface FileState {
  mtimeMs: number;
  size: number;
}

async function fileState(path: string): Promise<FileState | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? { mtimeMs: s.mtimeMs, size: s.size } : null;
  } catch {
    return null;
  }
}

async function readWhole(path: string): Promise<Uint8Array | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await fh.stat();
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await fh.read(buf, got, size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got);
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/** What a database and its WAL look like now: changes whenever either changes. Null when there is no database. */
export async function imageKey(path: string): Promise<string | null> {
  const db = await fileState(path);
  if (!db) return null;
  const wal = await fileState(`${path}-wal`);
  return `${db.mtimeMs}:${db.size}|${wal ? `${wal.mtimeMs}:${wal.size}` : '-'}`;
}

/**
 * The bytes of the database at `path` as a reader would see them (the WAL applied), and the key they were read at.
 * The WAL is read first: a checkpoint that lands between the two reads then only re-applies pages the database
 * already holds. A database file that changed while it was read (a checkpoint) is read again; frames appended to
 * the WAL meanwhile are simply not seen yet (their checksums stop the walk).
 */
export async function readImage(path: string): Promise<{ bytes: Uint8Array; key: string } | null> {
  for (let attempt = 0; ; attempt++) {
    const key = await imageKey(path);
    const before = await fileState(path);
    if (key === null || before === null) return null;
    const wal = await readWhole(`${path}-wal`);
    const db = await readWhole(path);
    if (!db) return null;
    const after = await fileState(path);
    const same = after !== null && after.mtimeMs === before.mtimeMs && after.size === before.size;
    if (!same && attempt < 2) continue;
    return { bytes: wal ? applyWal(db, wal) : db, key };
  }
}

/** Opens an image in memory, runs `fn`, and closes it. Null when the bytes are not a database sql.js can open. */
export async function withImage<T>(sql: SqlJs, bytes: Uint8Array, fn: (db: SqlDatabase) => T): Promise<T | null> {
  const SQL = await sql();
  let db: SqlDatabase;
  try {
    db = new SQL.Database(bytes);
  } catch {
    return null;
  }
  try {
    return fn(db);
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/** Every row of a query as objects (column → value). */
export function rows(db: SqlDatabase, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const out: Record<string, SqlValue>[] = [];
    while (stmt.step()) out.push(stmt.getAsObject());
    return out;
  } finally {
    stmt.free();
  }
}

export const str = (v: SqlValue | undefined): string | null => (typeof v === 'string' ? v : null);
export const num = (v: SqlValue | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
