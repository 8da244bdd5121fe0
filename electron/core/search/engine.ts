// The search engine of the worker thread (docs/search.md): the index, its refresh passes, queries and transcripts.
// Everything here runs off the core's event loop; the core talks to it through search-worker.ts.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SearchHit, SearchStatus } from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import type { TranscriptSource, VendorEnv } from '../vendors/adapter.js';
import { sqlJsLoader } from '../vendors/kit/sqlite-image.js';
import { IndexDb, type FileRow, type MessageRow } from './index-db.js';
import { refreshIndex, type RefreshCounts } from './indexer.js';
import { TranscriptWatcher, type WatchRoot } from './watcher.js';
import { holdsPhrases, matchExpression, parseQuery } from './query.js';
import { matchingLines, readMessage, readMessages } from './snippets.js';

/** Matching messages one query reads at most (the newest). */
export const MAX_MATCHES = 2000;
/** Hits shown per transcript. */
const HITS_PER_RESULT = 3;
/** A transcript view holds at most this many messages around its focus. */
const MAX_TRANSCRIPT_MESSAGES = 400;
/** Rebuild from scratch once this share of the postings point at messages that are gone. */
const ORPHAN_SHARE = 0.3;
/** With the folders watched, a full pass (every file stat'ed) still runs this often: a missed event loses nothing. */
export const FULL_PASS_MS = 5 * 60_000;

export interface EngineQuery {
  text: string;
  vendor?: VendorName;
  /** Only these (vendor, session id) pairs: a run's agents. */
  sessions?: readonly { vendor: VendorName; sessionId: string }[];
  dir?: string;
  limit: number;
}

export interface EngineResult {
  vendor: VendorName;
  sessionId: string;
  cwd: string | null;
  lastActivity: string;
  hits: SearchHit[];
  moreHits: number;
}

export interface EngineTranscript {
  vendor: VendorName;
  sessionId: string;
  cwd: string | null;
  messages: { messageId: number | null; role: 'user' | 'assistant'; text: string; time: string | null }[];
  focus: number | null;
  skipped: number;
}

const loadSql = sqlJsLoader();

export class SearchEngine {
  private db: IndexDb;
  private dirty = false;
  /** A pass is under way: its transaction is open, so the index is not saved meanwhile. */
  private refreshing = false;
  private watcher: TranscriptWatcher | null = null;
  /** When the last full pass ended (performance.now()); null before the first. */
  private lastFull: number | null = null;
  status: SearchStatus = {
    state: 'starting',
    done: 0,
    total: 0,
    files: 0,
    messages: 0,
    indexBytes: 0,
    refreshedAt: null,
    error: null,
  };

  private constructor(
    db: IndexDb,
    /** A new, empty index (for a rebuild). */
    private readonly empty: () => IndexDb,
    private readonly file: string | null,
    private readonly sources: ReadonlyMap<VendorName, TranscriptSource>,
  ) {
    this.db = db;
    this.status.indexBytes = file ? (statSync(file, { throwIfNoEntry: false })?.size ?? 0) : 0;
    this.count();
  }

  /** Opens the index saved at `file` (a new one when it is missing, unreadable or of another version). */
  static async open(
    file: string | null,
    sources: ReadonlyMap<VendorName, TranscriptSource>,
    options: { shardMessages?: number } = {},
  ): Promise<SearchEngine> {
    const sql = await loadSql();
    const make = (data?: Uint8Array) => new IndexDb(new sql.Database(data), options.shardMessages);
    let db: IndexDb | null = null;
    if (file) {
      try {
        db = make(readFileSync(file));
      } catch {
        db = null; // missing, damaged or of another version: built again
      }
    }
    return new SearchEngine(db ?? make(), make, file, sources);
  }

  private count(): void {
    this.status.files = this.db.files.size;
    this.status.messages = this.db.messages;
  }

  /**
   * One pass over the stores; `progress` is told as files are read. `watched`: the vendors' folders are watched and
   * the pass reads only the paths seen changing, unless a full pass is due (the first, one every FULL_PASS_MS, a
   * folder newly watched, or watching failed); without it, every pass is full.
   */
  async refresh(env: VendorEnv, progress: (s: SearchStatus) => void, watched = false): Promise<RefreshCounts> {
    this.refreshing = true;
    try {
      // Two turns of the loop first: file events already queued for the watcher are delivered (a poll phase) before
      // it is asked what changed, so a write made just before this refresh was asked for is in it.
      if (watched) for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
      return await this.refreshPass(env, progress, watched ? this.watchedPaths(env) : null);
    } finally {
      this.refreshing = false;
    }
  }

  /** The paths to read in a watched pass, or null for a full pass. */
  private watchedPaths(env: VendorEnv): ReadonlySet<string> | null {
    const roots: WatchRoot[] = [];
    let allWatchable = true;
    for (const source of this.sources.values()) {
      const root = source.watchRoot?.(env);
      if (root) roots.push(root);
      else allWatchable = false;
    }
    this.watcher ??= new TranscriptWatcher();
    const fresh = this.watcher.ensure(roots);
    if (this.watcher.failure)
      this.status.error = `watching the transcript folders failed (${this.watcher.failure}): every refresh reads every file`;
    // Taken before a full pass too: what changes during it is read by the next one.
    const changed = this.watcher.take();
    const due = this.lastFull === null || performance.now() - this.lastFull > FULL_PASS_MS;
    if (fresh || due || !allWatchable || this.watcher.failure) return null;
    return changed;
  }

  private async refreshPass(
    env: VendorEnv,
    progress: (s: SearchStatus) => void,
    only: ReadonlySet<string> | null,
  ): Promise<RefreshCounts> {
    if (this.db.orphans > ORPHAN_SHARE * Math.max(1, this.db.messages + this.db.orphans)) {
      this.db.close();
      this.db = this.empty();
      this.dirty = true;
    }
    this.status.state = 'indexing';
    let last = 0;
    const counts = await refreshIndex(
      this.db,
      this.sources,
      env,
      (done, total) => {
        this.status.done = done;
        this.status.total = total;
        this.count();
        const now = performance.now();
        // A pass with nothing to read is no progress to tell (the pass's end tells its status if it changed).
        if (total > 0 && (now - last > 250 || done === total)) {
          last = now;
          progress({ ...this.status });
        }
      },
      only ?? undefined,
    );
    // From its end: events during a long first pass are kept by the watcher for the next (watched) pass.
    if (!only) this.lastFull = performance.now();
    if (counts.changed > 0 || counts.removed > 0) this.dirty = true;
    this.count();
    this.status.state = 'ready';
    this.status.refreshedAt = new Date().toISOString();
    return counts;
  }

  /**
   * Writes the index to its file when it changed since the last save (atomically: a temp file, then a rename). Not
   * during a pass (false then): the pass's end asks again.
   */
  save(): boolean {
    if (!this.file || !this.dirty || this.refreshing) return false;
    const bytes = this.db.export();
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, this.file);
    this.status.indexBytes = bytes.length;
    this.dirty = false;
    return true;
  }

  /** Size of the index as it would be saved now (the bench measures it without a file). */
  size(): number {
    return this.db.export().length;
  }

  private inScope(f: FileRow, q: EngineQuery): boolean {
    if (q.vendor && f.vendor !== q.vendor) return false;
    if (q.sessions && !q.sessions.some((s) => s.vendor === f.vendor && s.sessionId === f.session)) return false;
    if (q.dir && !(f.cwd === q.dir || f.cwd?.startsWith(q.dir.endsWith('/') ? q.dir : `${q.dir}/`))) return false;
    return f.session !== null;
  }

  /**
   * The transcripts holding every word, newest first. Matching messages are grouped by transcript first (ids only);
   * only the transcripts returned have their hits read back from disk, phrases checked and lines highlighted.
   */
  query(q: EngineQuery): { results: EngineResult[]; total: number; capped: boolean } {
    const parsed = parseQuery(q.text);
    const match = matchExpression(parsed);
    if (match === '') return { results: [], total: 0, capped: false };
    const found = this.db.matching(match, MAX_MATCHES);
    const groups = new Map<number, { file: FileRow; ids: MessageRow[] }>();
    for (const m of found) {
      const file = this.db.files.get(m.file);
      if (!file || !this.inScope(file, q)) continue;
      const g = groups.get(file.id);
      if (g) g.ids.push(m);
      else groups.set(file.id, { file, ids: [m] });
    }
    const ordered = [...groups.values()].sort((a, b) => b.file.mtimeMs - a.file.mtimeMs);
    const results: EngineResult[] = [];
    let dropped = 0;
    for (const g of ordered) {
      if (results.length >= q.limit) break;
      const source = this.sources.get(g.file.vendor);
      const hits: SearchHit[] = [];
      let checked = 0;
      for (const m of g.ids) {
        if (hits.length >= HITS_PER_RESULT) break;
        checked++;
        const msg = source ? readMessage(g.file.path, m.off, m.len, source) : null;
        // Phrases are checked in the text: the index keeps each message's words, not their order.
        if (!msg?.text || !msg.role || !holdsPhrases(msg.text, parsed)) continue;
        hits.push({ messageId: m.id, role: msg.role, time: msg.time ?? null, lines: matchingLines(msg.text, parsed) });
      }
      if (hits.length === 0) {
        dropped++;
        continue;
      }
      results.push({
        vendor: g.file.vendor,
        sessionId: g.file.session!,
        cwd: g.file.cwd,
        lastActivity: new Date(g.file.mtimeMs).toISOString(),
        hits,
        moreHits: g.ids.length - checked,
      });
    }
    return { results, total: ordered.length - dropped, capped: found.length >= MAX_MATCHES };
  }

  /** The conversation of (vendor, session), cut around `messageId` when it is long; null when not indexed. */
  transcript(vendor: VendorName, sessionId: string, messageId?: number): EngineTranscript | null {
    const file = [...this.db.files.values()]
      .filter((f) => f.vendor === vendor && f.session === sessionId)
      .sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    const source = this.sources.get(vendor);
    if (!file || !source) return null;
    const all = readMessages(file.path, source);
    const at = messageId === undefined ? undefined : this.db.message(messageId);
    const focusSeq = at && at.file === file.id && at.seq < all.length ? at.seq : null;
    const centre = focusSeq ?? all.length - 1;
    const start = Math.max(0, Math.min(centre - MAX_TRANSCRIPT_MESSAGES / 2, all.length - MAX_TRANSCRIPT_MESSAGES));
    const shown = all.slice(start, start + MAX_TRANSCRIPT_MESSAGES);
    return {
      vendor,
      sessionId,
      cwd: file.cwd,
      messages: shown.map((m, i) => ({
        messageId: focusSeq !== null && start + i === focusSeq ? messageId! : null,
        role: m.role!,
        text: m.text!,
        time: m.time ?? null,
      })),
      focus: focusSeq === null ? null : focusSeq - start,
      skipped: start,
    };
  }

  close(): void {
    this.watcher?.close();
    this.db.close();
  }
}
