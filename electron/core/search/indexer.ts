// Keeping the index current (docs/search.md §4): every vendor's transcript files are listed and stat'ed (or only the
// paths a watcher named, watcher.ts); a file seen before whose size grew (same inode) is read from where the last
// pass stopped, so only appended lines are parsed; a file that shrank or was replaced is read again from its start;
// a file that is gone is forgotten. Work goes in slices of a few tens of milliseconds with a turn of the event loop
// between them, so the worker answers queries while a first index is built.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import type { VendorName } from '../../../shared/words.js';
import type { TranscriptSource, VendorEnv } from '../vendors/adapter.js';
import type { FileRow, IndexDb } from './index-db.js';
import { indexTokens } from './query.js';

/** The longest a slice of indexing holds the worker before it looks at its messages again. */
const SLICE_MS = 50;
/**
 * How often a long pass commits. The transaction stays open across slices (queries in between run on the same
 * connection and see what is indexed so far): each commit writes a full-text segment, and many small segments cost
 * merges.
 */
const COMMIT_MS = 3000;
/** Read at most this much of a file at once. */
const CHUNK_BYTES = 4 << 20;
/** A longer line (a pasted file, an image) is skipped, not parsed. */
const MAX_LINE_BYTES = 8 << 20;

export interface RefreshCounts {
  /** A pass over every file (true), or over the paths a watcher named (false). */
  full: boolean;
  /** Transcript files stat'ed in this pass. */
  files: number;
  changed: number;
  removed: number;
  /** Bytes read from transcripts in this pass. */
  bytesRead: number;
}

interface Listed {
  vendor: VendorName;
  source: TranscriptSource;
  path: string;
  sessionId: string | null;
  cwd: string | null;
  size: number;
  mtimeMs: number;
  ino: number;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

async function listAll(sources: ReadonlyMap<VendorName, TranscriptSource>, env: VendorEnv): Promise<Listed[]> {
  const out: Listed[] = [];
  for (const [vendor, source] of sources) {
    let files;
    try {
      files = await source.files(env);
    } catch {
      continue; // an unreadable store is skipped this time
    }
    let sliceStart = performance.now();
    for (const f of files) {
      const st = statSync(f.path, { throwIfNoEntry: false });
      if (st?.isFile()) out.push({ vendor, source, ...f, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      if (performance.now() - sliceStart > SLICE_MS) {
        await turn();
        sliceStart = performance.now();
      }
    }
  }
  return out;
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}${sep}`);

function statListed(base: Omit<Listed, 'size' | 'mtimeMs' | 'ino'>): Listed | null {
  const st = statSync(base.path, { throwIfNoEntry: false });
  return st?.isFile() ? { ...base, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
}

/**
 * Only the paths a watcher named: a known transcript (or one under a named folder) is stat'ed again, gone ones are
 * forgotten; a path the index does not know is looked up in its vendor's listing (a new transcript or project
 * folder), without stat'ing the rest of the store.
 */
async function listChanged(
  db: IndexDb,
  sources: ReadonlyMap<VendorName, TranscriptSource>,
  env: VendorEnv,
  paths: ReadonlySet<string>,
): Promise<{ listed: Listed[]; gone: FileRow[] }> {
  const listed: Listed[] = [];
  const gone: FileRow[] = [];
  const unknown = [...paths].filter((p) => !db.byPath.has(p));
  for (const row of db.files.values()) {
    if (!paths.has(row.path) && !unknown.some((dir) => under(row.path, dir))) continue;
    const source = sources.get(row.vendor);
    const l =
      source && statListed({ vendor: row.vendor, source, path: row.path, sessionId: row.session, cwd: row.cwd });
    if (l) listed.push(l);
    else gone.push(row);
  }
  if (unknown.length === 0) return { listed, gone };
  for (const [vendor, source] of sources) {
    const root = source.watchRoot?.(env).dir;
    if (root === undefined || !unknown.some((p) => under(p, root))) continue;
    let files;
    try {
      files = await source.files(env);
    } catch {
      continue; // an unreadable store: the next full pass tries again
    }
    for (const f of files) {
      if (db.byPath.has(f.path) || !unknown.some((p) => under(f.path, p))) continue;
      const l = statListed({ vendor, source, ...f });
      if (l) listed.push(l);
    }
  }
  return { listed, gone };
}

/** Indexes the lines of `buf` (file bytes from `base`) up to its last newline; returns the bytes consumed. */
function indexLines(db: IndexDb, file: FileRow, source: TranscriptSource, buf: Buffer, base: number): number {
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(10, start);
    if (nl < 0) return start;
    if (nl > start && nl - start <= MAX_LINE_BYTES) {
      let value: unknown;
      try {
        value = JSON.parse(buf.toString('utf8', start, nl));
      } catch {
        value = undefined;
      }
      const line = value === undefined ? null : source.line(value);
      if (line) {
        if (line.sessionId && file.session === null) file.session = line.sessionId;
        if (line.cwd && file.cwd === null) file.cwd = line.cwd;
        if (line.role && line.text) db.addMessage(file, base + start, nl - start, indexTokens(line.text));
      }
    }
    start = nl + 1;
  }
}

/** Reads `file` from where it stopped to its last whole line; the bytes read. */
function readFile(db: IndexDb, file: FileRow, source: TranscriptSource, size: number): number {
  let fd: number;
  try {
    fd = openSync(file.path, 'r');
  } catch {
    return 0;
  }
  let read = 0;
  try {
    let pos = file.done;
    let buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, size - pos)));
    while (pos < size) {
      const want = Math.min(size - pos, Math.max(buf.length, CHUNK_BYTES));
      if (buf.length < want) buf = Buffer.allocUnsafe(want);
      const n = readSync(fd, buf, 0, want, pos);
      if (n <= 0) break;
      read += n;
      const used = indexLines(db, file, source, buf.subarray(0, n), pos);
      if (used === 0) {
        // One line longer than a chunk: read more of it at once, or skip it past its end.
        if (want >= MAX_LINE_BYTES || pos + n >= size) break;
        buf = Buffer.allocUnsafe(Math.min(want * 2, MAX_LINE_BYTES + 1));
        continue;
      }
      pos += used;
      file.done = pos;
    }
  } finally {
    closeSync(fd);
  }
  return read;
}

/**
 * One pass over every store (`only` absent) or over the paths a watcher named: new and grown files read, shrunk and
 * replaced ones read again, gone ones forgotten. `progress` is told (done, total) of the files to read.
 */
export async function refreshIndex(
  db: IndexDb,
  sources: ReadonlyMap<VendorName, TranscriptSource>,
  env: VendorEnv,
  progress: (done: number, total: number) => void,
  only?: ReadonlySet<string>,
): Promise<RefreshCounts> {
  let listed: Listed[];
  let gone: FileRow[];
  if (only) ({ listed, gone } = await listChanged(db, sources, env, only));
  else {
    listed = await listAll(sources, env);
    const seen = new Set(listed.map((l) => l.path));
    gone = [...db.files.values()].filter((f) => !seen.has(f.path));
  }
  const changed = listed
    .filter((l) => {
      const row = db.byPath.get(l.path);
      return !row || row.size !== l.size || row.mtimeMs !== l.mtimeMs || row.ino !== l.ino;
    })
    // Oldest first: message ids grow with time, so the newest messages come first in a query.
    .sort((a, b) => a.mtimeMs - b.mtimeMs);
  let bytesRead = 0;
  db.begin();
  try {
    db.forgetFiles(gone, true);
    let sliceStart = performance.now();
    let committed = sliceStart;
    for (const [i, l] of changed.entries()) {
      const known = db.byPath.get(l.path);
      const row = known ?? db.newFile(l.vendor, l.path);
      if (known && (known.ino !== l.ino || l.size < known.done)) db.forgetFiles([known], false);
      if (row.session === null) row.session = l.sessionId;
      if (row.cwd === null) row.cwd = l.cwd;
      bytesRead += readFile(db, row, l.source, l.size);
      row.size = l.size;
      row.mtimeMs = l.mtimeMs;
      row.ino = l.ino;
      db.saveFile(row);
      if (performance.now() - sliceStart > SLICE_MS) {
        if (performance.now() - committed > COMMIT_MS) {
          db.commit();
          db.begin();
          committed = performance.now();
        }
        progress(i + 1, changed.length);
        await turn();
        sliceStart = performance.now();
      }
    }
  } finally {
    db.commit();
  }
  progress(changed.length, changed.length);
  return { full: !only, files: listed.length, changed: changed.length, removed: gone.length, bytesRead };
}
