// The search index's tables (docs/search.md §3), in SQLite compiled to WebAssembly (sql.js, which the project already
// ships; its build has FTS4). One row per transcript file (`files`, also kept in memory), one per message (`msgs`:
// where its line is in the file, so the text itself is never stored), and a contentless FTS4 table whose docid is
// the message's id and whose one column holds the message's distinct words, split by message id into shards of
// SHARD_MESSAGES (`fts_0`, `fts_1`, …): a query reads the newest shard first and stops once it has enough, so a word
// nearly every message holds costs one shard, not the whole index. A contentless table cannot forget a row:
// a transcript that shrank or vanished leaves postings whose message row is gone (`orphans`), skipped by queries and
// dropped by the rebuild that follows once they are many.
import type initSqlJs from 'sql.js';
import type { VendorName } from '../../../shared/words.js';

type Db = initSqlJs.Database;
type Statement = initSqlJs.Statement;

/** Bumped when the tables change: an index of another version is rebuilt. */
export const INDEX_VERSION = '3';
/** Messages per full-text shard. */
export const SHARD_MESSAGES = 100_000;

export interface FileRow {
  id: number;
  vendor: VendorName;
  path: string;
  session: string | null;
  cwd: string | null;
  size: number;
  mtimeMs: number;
  ino: number;
  /** Bytes read so far: the next read starts here (the end of the last whole line). */
  done: number;
  /** Messages found so far (the next one's `seq`). */
  seq: number;
}

export interface MessageRow {
  id: number;
  file: number;
  seq: number;
  off: number;
  len: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, vendor TEXT, path TEXT, session TEXT, cwd TEXT,
  size INTEGER, mtime REAL, ino INTEGER, done INTEGER, seq INTEGER);
CREATE TABLE IF NOT EXISTS msgs(id INTEGER PRIMARY KEY, file INTEGER, seq INTEGER, off INTEGER, len INTEGER);
`;

/** A shard's table name: built from an integer only. */
const shardTable = (k: number) => `fts_${Math.trunc(k)}`;

export class IndexDb {
  readonly files = new Map<number, FileRow>();
  /** Unique by path: this map is the index of paths (a UNIQUE index makes every row write several times dearer). */
  readonly byPath = new Map<string, FileRow>();
  private readonly unsaved = new Set<FileRow>();
  private readonly insertMsg: Statement;
  private insertFts: Statement | null = null;
  /** The shard `insertFts` writes to. */
  private insertShard = -1;
  private readonly getMsg: Statement;
  private readonly putFile: Statement;
  private nextMsg: number;
  private nextFile: number;
  /** Postings whose message is gone. */
  orphans: number;
  messages: number;

  /** The shard holding message `id` (ids start at 1). */
  private readonly shardOf: (id: number) => number;

  /** `shardMessages`: tests make shards small to cross them. */
  constructor(
    private readonly db: Db,
    shardMessages = SHARD_MESSAGES,
  ) {
    this.shardOf = (id) => Math.floor((id - 1) / shardMessages);
    db.run(SCHEMA);
    const version = this.metaValue('version');
    if (version !== null && version !== INDEX_VERSION) throw new Error('index of another version');
    db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('version', ?)", [INDEX_VERSION]);
    this.insertMsg = db.prepare('INSERT INTO msgs(id, file, seq, off, len) VALUES (?, ?, ?, ?, ?)');
    this.getMsg = db.prepare('SELECT file, seq, off, len FROM msgs WHERE id = ?');
    this.putFile = db.prepare(
      'INSERT OR REPLACE INTO files(id, vendor, path, session, cwd, size, mtime, ino, done, seq) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    const rows =
      db.exec('SELECT id, vendor, path, session, cwd, size, mtime, ino, done, seq FROM files')[0]?.values ?? [];
    for (const r of rows) {
      const row: FileRow = {
        id: Number(r[0]),
        vendor: String(r[1]) as VendorName,
        path: String(r[2]),
        session: r[3] === null ? null : String(r[3]),
        cwd: r[4] === null ? null : String(r[4]),
        size: Number(r[5]),
        mtimeMs: Number(r[6]),
        ino: Number(r[7]),
        done: Number(r[8]),
        seq: Number(r[9]),
      };
      this.files.set(row.id, row);
      this.byPath.set(row.path, row);
    }
    this.nextFile = Math.max(0, ...this.files.keys()) + 1;
    // Kept in meta, not taken from msgs: an id whose message is gone may still have postings, so it is never reused.
    this.nextMsg = Number(this.metaValue('nextMsg') ?? 1);
    this.messages = Number(db.exec('SELECT count(*) FROM msgs')[0]?.values[0]?.[0] ?? 0);
    this.orphans = Number(this.metaValue('orphans') ?? 0);
  }

  private metaValue(k: string): string | null {
    const v = this.db.exec('SELECT v FROM meta WHERE k = ?', [k])[0]?.values[0]?.[0];
    return v === undefined || v === null ? null : String(v);
  }

  begin(): void {
    this.db.run('BEGIN');
  }

  commit(): void {
    for (const f of this.unsaved)
      this.putFile.run([f.id, f.vendor, f.path, f.session, f.cwd, f.size, f.mtimeMs, f.ino, f.done, f.seq]);
    this.unsaved.clear();
    this.db.run("INSERT OR REPLACE INTO meta(k, v) VALUES ('orphans', ?), ('nextMsg', ?)", [
      String(this.orphans),
      String(this.nextMsg),
    ]);
    this.db.run('COMMIT');
  }

  /** A new file row (not yet written: `saveFile` writes it). */
  newFile(vendor: VendorName, path: string): FileRow {
    const row: FileRow = {
      id: this.nextFile++,
      vendor,
      path,
      session: null,
      cwd: null,
      size: 0,
      mtimeMs: 0,
      ino: 0,
      done: 0,
      seq: 0,
    };
    this.files.set(row.id, row);
    this.byPath.set(path, row);
    return row;
  }

  /**
   * Writes the file's row at the next commit. Not at once: a write to another table between full-text inserts makes
   * FTS4 flush its pending terms into a segment of their own (it does so at every statement savepoint), which made
   * a first index three times slower.
   */
  saveFile(f: FileRow): void {
    this.unsaved.add(f);
  }

  /** Forgets the files' messages (their postings become orphans); with `drop`, the files too. One scan for all. */
  forgetFiles(files: readonly FileRow[], drop: boolean): void {
    if (files.length === 0) return;
    const ids = files.map((f) => f.id).join(',');
    const gone = Number(this.db.exec(`SELECT count(*) FROM msgs WHERE file IN (${ids})`)[0]?.values[0]?.[0] ?? 0);
    this.db.run(`DELETE FROM msgs WHERE file IN (${ids})`);
    this.orphans += gone;
    this.messages -= gone;
    for (const f of files) {
      this.unsaved.delete(f);
      if (drop) {
        this.files.delete(f.id);
        this.byPath.delete(f.path);
      } else {
        f.done = 0;
        f.seq = 0;
      }
    }
    if (drop) this.db.run(`DELETE FROM files WHERE id IN (${ids})`);
  }

  addMessage(file: FileRow, off: number, len: number, tokens: string): void {
    const id = this.nextMsg++;
    this.insertMsg.run([id, file.id, file.seq++, off, len]);
    if (tokens !== '') this.shardInsert(this.shardOf(id)).run([id, tokens]);
    this.messages++;
  }

  private shardInsert(k: number): Statement {
    if (this.insertShard !== k || !this.insertFts) {
      this.insertFts?.free();
      this.db.run(`CREATE VIRTUAL TABLE IF NOT EXISTS ${shardTable(k)} USING fts4(content='', t)`);
      this.insertFts = this.db.prepare(`INSERT INTO ${shardTable(k)}(docid, t) VALUES (?, ?)`);
      this.insertShard = k;
    }
    return this.insertFts;
  }

  /**
   * The messages holding every word of `match` (FTS4 syntax), newest first, at most `limit`: shard by shard from the
   * newest, each joined to its message rows inside SQLite (one statement) rather than looked up one by one.
   */
  matching(match: string, limit: number): MessageRow[] {
    const out: MessageRow[] = [];
    for (let k = this.shardOf(Math.max(1, this.nextMsg - 1)); k >= 0 && out.length < limit; k--) {
      const table = shardTable(k);
      let st: Statement;
      try {
        st = this.db.prepare(
          `SELECT id, file, seq, off, len FROM msgs WHERE id IN (SELECT docid FROM ${table} WHERE ${table} MATCH ? ORDER BY docid DESC LIMIT ?) ORDER BY id DESC`,
        );
      } catch {
        continue; // a shard whose messages all had no words was never made
      }
      try {
        st.bind([match, limit - out.length]);
        while (st.step()) {
          const r = st.get();
          out.push({ id: Number(r[0]), file: Number(r[1]), seq: Number(r[2]), off: Number(r[3]), len: Number(r[4]) });
        }
      } finally {
        st.free();
      }
    }
    return out;
  }

  message(id: number): MessageRow | null {
    this.getMsg.bind([id]);
    try {
      if (!this.getMsg.step()) return null;
      const r = this.getMsg.get();
      return { id, file: Number(r[0]), seq: Number(r[1]), off: Number(r[2]), len: Number(r[3]) };
    } finally {
      this.getMsg.reset();
    }
  }

  export(): Uint8Array {
    return this.db.export();
  }

  close(): void {
    for (const st of [this.insertMsg, this.insertFts, this.getMsg, this.putFile]) st?.free();
    this.db.close();
  }
}
