// The fake opencode's store, as opencode 1.18.33 keeps it (docs/vendors.md §6): one SQLite database that every
// opencode process of a HOME shares, `<data dir>/opencode.db`, made from the schema of the sample in test/fixtures
// and written with sql.js (pure WebAssembly) from the project's node_modules under a lock between fakes; its rows
// read back as the TUI's API gives them; and opencode's ids.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { writeAtomic } from './fsutil.mjs';

const SCHEMA_DB = fileURLToPath(
  new URL('../../fixtures/vendor-samples/opencode/.local/share/opencode/opencode.db', import.meta.url),
);
const SQL_JS = new URL('../../../node_modules/sql.js/dist/sql-wasm.js', import.meta.url);
const SQL_WASM = fileURLToPath(new URL('../../../node_modules/sql.js/dist/sql-wasm.wasm', import.meta.url));

const { default: initSqlJs } = await import(SQL_JS.href);
const SQL = await initSqlJs({ locateFile: () => SQL_WASM });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A new database with the schema (tables, then indexes) of the sample opencode.db. */
function freshDb() {
  const schema = new SQL.Database(fs.readFileSync(SCHEMA_DB));
  const stmts =
    schema.exec(
      "SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid",
    )[0]?.values ?? [];
  schema.close();
  const db = new SQL.Database();
  for (const [, sql] of stmts) db.run(sql);
  return db;
}

/** The store of one data directory: `store(fn, write)` runs fn(db) on the current database, writing it back when
 * `write`. */
export function opencodeStore(dataDir) {
  const dbPath = path.join(dataDir, 'opencode.db');
  const lockPath = `${dbPath}.fake-lock`;

  /** A lock between fakes sharing one store: read-modify-write of a whole file must not lose another's rows. */
  async function withLock(fn) {
    fs.mkdirSync(dataDir, { recursive: true });
    for (let i = 0; ; i++) {
      try {
        fs.mkdirSync(lockPath);
        break;
      } catch (err) {
        if (err.code !== 'EEXIST') throw err;
        try {
          if (Date.now() - fs.statSync(lockPath).mtimeMs > 10_000)
            fs.rmSync(lockPath, { recursive: true, force: true });
        } catch {
          /* released meanwhile */
        }
        if (i > 500) throw new Error('opencode (fake): the store stayed locked');
        await sleep(10);
      }
    }
    try {
      return await fn();
    } finally {
      fs.rmSync(lockPath, { recursive: true, force: true });
    }
  }

  function openDb() {
    try {
      return new SQL.Database(fs.readFileSync(dbPath));
    } catch {
      return freshDb();
    }
  }

  function saveDb(db) {
    writeAtomic(dbPath, db.export());
  }

  /** Runs fn(db) on the current store; writes it back when `write`. */
  async function store(fn, write = false) {
    if (!write) {
      if (!fs.existsSync(dbPath)) return fn(freshDb());
      const db = openDb();
      try {
        return fn(db);
      } finally {
        db.close();
      }
    }
    return withLock(() => {
      const db = openDb();
      try {
        const out = fn(db);
        saveDb(db);
        return out;
      } finally {
        db.close();
      }
    });
  }

  return store;
}

export function all(db, sql, params = []) {
  const stmt = db.prepare(sql);
  stmt.bind(params);
  const out = [];
  while (stmt.step()) out.push(stmt.getAsObject());
  stmt.free();
  return out;
}

export function sessionInfo(r) {
  const info = {
    id: r.id,
    slug: r.slug,
    projectID: r.project_id,
    directory: r.directory,
    title: r.title,
    version: r.version,
    time: { created: r.time_created, updated: r.time_updated },
  };
  if (r.parent_id) info.parentID = r.parent_id;
  return info;
}

const SESSION_COLUMNS = 'id, project_id, parent_id, slug, directory, title, version, time_created, time_updated';
export const getSession = (db, id) => all(db, `SELECT ${SESSION_COLUMNS} FROM session WHERE id = ?`, [id])[0] ?? null;

/** The text turns of a session, in order. */
export function loadTurns(db, id) {
  return all(
    db,
    `SELECT m.data AS m, p.data AS p FROM message m JOIN part p ON p.message_id = m.id
      WHERE m.session_id = ? ORDER BY m.time_created, m.id, p.id`,
    [id],
  ).flatMap((r) => {
    const m = JSON.parse(r.m);
    const p = JSON.parse(r.p);
    return p.type === 'text' && !p.synthetic ? [{ role: m.role, text: p.text }] : [];
  });
}

// ---------------------------------------------------------------- ids (docs/vendors.md §6)
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let lastMs = 0;
let counter = 0;
export function newId(prefix, descending) {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    counter = 0;
  }
  counter++;
  let v = BigInt(ms) * 4096n + BigInt(counter);
  if (descending) v = ~v;
  const hex = (v & 0xffffffffffffn).toString(16).padStart(12, '0');
  let rand = '';
  for (const b of crypto.randomBytes(14)) rand += BASE62[b % 62];
  return `${prefix}_${hex}${rand}`;
}
