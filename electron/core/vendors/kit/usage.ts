// Token usage as a vendor's own transcripts record it (docs/cost.md): each vendor folder turns its lines or rows into
// usage entries (small functions, as data), and this kit reads them incrementally, so a live transcript that grows is
// read only from where the last read ended, and a transcript that did not change costs one stat.
import { open, stat } from 'node:fs/promises';
import type { VendorEnv } from '../adapter.js';
import { jsonLines } from './jsonl.js';

/**
 * One model call as the transcript records it. Tokens follow one convention for every vendor: `input` is the prompt
 * tokens NOT read from a cache, `cacheRead` those read from it, `cacheWrite` those written to it, `output` everything
 * generated (reasoning/thoughts included).
 */
export interface UsageEntry {
  /**
   * Identifies the call across transcripts (a message id, a request id): a transcript copied into another (a fork, a
   * resume under a new id) repeats its entries, and an entry seen twice counts once. Null: always counted.
   */
  key: string | null;
  /** The model named by the transcript, or null. */
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The vendor's own recorded cost of the call in USD, or null when it recorded none. */
  recordedUsd: number | null;
}

/** What a session's transcripts hold, per source (a file, a database row set): the service never counts one twice. */
export interface UsageSource {
  /** A path, or a vendor-specific key (`opencode.db#ses_…`). */
  source: string;
  entries: readonly UsageEntry[];
  /**
   * How many model answers the source holds: answers without any entry mean this transcript records no usage (an
   * older release, a sample), and its tokens are unknown rather than 0.
   */
  answers: number;
  /** Changes whenever the entries may have (the bytes read of a file, a database's state). */
  stamp: string;
}

/**
 * A session's usage: read from its transcripts, not there (no transcript: nothing said yet, or gone), or not
 * recorded at all by this vendor (Cursor), with the reason in the user's words.
 */
export type UsageReading =
  { kind: 'read'; sources: UsageSource[] } | { kind: 'missing' } | { kind: 'unrecorded'; reason: string };

/** What an adapter knows about its vendor's usage (docs/cost.md): how to read it, and how its cost is known. */
export interface VendorUsage {
  read(sessionId: string, cwd: string, env: VendorEnv): Promise<UsageReading>;
  /**
   * Null: a call without a recorded cost is priced from the price table by its model. A text: the cost cannot be
   * known in money (Copilot bills premium requests), said to the user as is.
   */
  readonly costUnknownBecause: string | null;
}

/** A vendor's line parser: state kept across the lines of one file (Codex's running totals), and one step per line. */
export interface LineParser<S> {
  init(): S;
  /** The entries one parsed line adds. */
  line(state: S, value: unknown): UsageEntry | UsageEntry[] | null;
  /** The line is a model's answer (with or without usage). */
  answer(value: unknown): boolean;
}

interface FileProgress<S> {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Bytes read so far: up to the end of the last whole line. */
  offset: number;
  state: S;
  entries: UsageEntry[];
  answers: number;
}

/** How much is read per step of a large transcript. */
const CHUNK_BYTES = 1 << 20;

/**
 * Usage entries of JSON Lines files, each read from where the last read ended. A file that shrank or was replaced is
 * read again from the start; a line still being written (no newline yet) waits for the next read.
 */
export class JsonlUsageFiles<S> {
  private readonly files = new Map<string, FileProgress<S>>();

  constructor(private readonly parser: LineParser<S>) {}

  /** For tests: how many bytes the last reads of `path` consumed in total. */
  offsetOf(path: string): number | null {
    return this.files.get(path)?.offset ?? null;
  }

  /** Reads in progress, per path: two readers at once would both consume the same new lines. */
  private readonly busy = new Map<string, Promise<unknown>>();

  /** The file at `path` as a usage source, or null when it is not a readable file. */
  async source(path: string): Promise<UsageSource | null> {
    const run = (this.busy.get(path) ?? Promise.resolve()).then(() => this.readNew(path));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.busy.set(path, settled);
    try {
      return await run;
    } finally {
      if (this.busy.get(path) === settled) this.busy.delete(path);
    }
  }

  private async readNew(path: string): Promise<UsageSource | null> {
    let st;
    try {
      st = await stat(path);
    } catch {
      this.files.delete(path);
      return null;
    }
    if (!st.isFile()) return null;
    let p = this.files.get(path);
    if (p && p.size === st.size && p.mtimeMs === st.mtimeMs && p.ino === st.ino) return sourceOf(path, p);
    if (!p || st.size < p.offset || st.ino !== p.ino) {
      p = { size: 0, mtimeMs: 0, ino: st.ino, offset: 0, state: this.parser.init(), entries: [], answers: 0 };
      this.files.set(path, p);
    }
    try {
      await this.readFrom(path, p, st.size);
    } catch {
      this.files.delete(path);
      return null;
    }
    p.size = st.size;
    p.mtimeMs = st.mtimeMs;
    return sourceOf(path, p);
  }

  private async readFrom(path: string, p: FileProgress<S>, size: number): Promise<void> {
    const fh = await open(path, 'r');
    try {
      let pending = Buffer.alloc(0);
      let at = p.offset;
      while (at < size) {
        const buf = Buffer.alloc(Math.min(CHUNK_BYTES, size - at));
        const { bytesRead } = await fh.read(buf, 0, buf.length, at);
        if (bytesRead === 0) break;
        at += bytesRead;
        const data =
          pending.length > 0 ? Buffer.concat([pending, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
        const lastNewline = data.lastIndexOf(0x0a);
        if (lastNewline < 0) {
          pending = data;
          continue;
        }
        this.consume(p, data.subarray(0, lastNewline + 1).toString('utf8'));
        p.offset += lastNewline + 1; // `data` starts at the old offset
        pending = data.subarray(lastNewline + 1);
      }
    } finally {
      await fh.close();
    }
  }

  private consume(p: FileProgress<S>, text: string): void {
    for (const value of jsonLines(text)) {
      if (value === undefined) continue;
      if (this.parser.answer(value)) p.answers++;
      const got = this.parser.line(p.state, value);
      if (got === null) continue;
      if (Array.isArray(got)) p.entries.push(...got);
      else p.entries.push(got);
    }
  }
}

const sourceOf = <S>(path: string, p: FileProgress<S>): UsageSource => ({
  source: path,
  entries: p.entries,
  answers: p.answers,
  stamp: `${p.ino}:${p.offset}`,
});

/** A non-negative integer from a transcript field, else 0 (a missing count is no tokens of that kind). */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** A string field, else null. */
export function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** A finite USD amount, else null. */
export function usd(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}
