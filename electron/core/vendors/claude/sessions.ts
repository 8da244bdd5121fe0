// Claude Code's conversations on this machine, for import (docs/architecture.md §9 `listSessions`, docs/vendors.md §1).
//   <configDir>/projects/<enc cwd>/<sessionId>.jsonl
// The folder name is a lossy encoding of the cwd, so the cwd is read from the transcript itself. Only the first
// CLAUDE_HEAD_BYTES of a file are read, and a file is read again only when its mtime or size changed: a refresh of a
// store of thousands of transcripts costs one stat per file. The cache belongs to one ClaudeSessionList, which a
// vendor context owns (store.ts).
import { readdir, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { FoundSession } from '../adapter.js';
import { HEAD_BYTES, readHeadInto } from '../kit/head.js';
import { LOWER_UUID } from '../kit/ids.js';
import { parseClaudeHead, type ClaudeHead } from './head.js';

/** How much of a transcript is read to find its cwd, first prompt and title. */
export const CLAUDE_HEAD_BYTES = HEAD_BYTES;
/** Files read at once (the reads queue on libuv's thread pool; more only adds memory). */
const CONCURRENCY = 32;
/** The longest the listing holds the event loop at a time while it stats files. */
const SLICE_MS = 2;

// Callback fs, not fs/promises: per call it costs less, which adds up over 10,000 files.
const dirents = (path: string) =>
  new Promise<Dirent[]>((res) => readdir(path, { withFileTypes: true }, (err, list) => res(err ? [] : list)));
const names = (path: string) => new Promise<string[]>((res) => readdir(path, (err, list) => res(err ? [] : list)));

/** Runs `fn` over `items` with at most `n` at a time; each worker gets its own index (for per-worker buffers). */
async function eachLimited<T>(
  items: readonly T[],
  n: number,
  fn: (item: T, worker: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (w: number) => {
    while (next < items.length) await fn(items[next++]!, w);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, (_, w) => worker(w)));
}

interface CacheEntry {
  mtimeMs: number;
  size: number;
  /** What the listing shows for the file; null when it is not a conversation (or could not be parsed). */
  found: FoundSession | null;
}

/** `<uuid>.jsonl`: 36 + 6 characters. */
const TRANSCRIPT_NAME_LENGTH = 42;

/** `<configDir>/projects/*\/<uuid>.jsonl`, the transcripts of the main sessions (subagents live in folders below). */
async function transcriptPaths(projects: string): Promise<{ path: string; sessionId: string }[]> {
  const dirs = (await dirents(projects)).filter((d) => d.isDirectory()).map((d) => join(projects, d.name));
  const out: { path: string; sessionId: string }[] = [];
  await eachLimited(dirs, CONCURRENCY, async (dir) => {
    // Names only (what is a file is known from the stat that follows): no Dirent per transcript.
    for (const name of await names(dir)) {
      if (name.length !== TRANSCRIPT_NAME_LENGTH || !name.endsWith('.jsonl')) continue;
      const sessionId = name.slice(0, -'.jsonl'.length);
      if (LOWER_UUID.test(sessionId)) out.push({ path: `${dir}/${name}`, sessionId });
    }
  });
  return out;
}

/**
 * `stat` of each path, done synchronously in slices of at most SLICE_MS with a turn of the event loop between
 * them: on a warm inode cache a synchronous stat costs a few microseconds, a trip through libuv's thread pool ten
 * times that, and a refresh is nothing but these stats. Undefined for a path that is gone or not a file.
 */
async function statInSlices(paths: readonly string[]): Promise<(Stats | undefined)[]> {
  const out: (Stats | undefined)[] = new Array(paths.length);
  let sliceStart = performance.now();
  for (let i = 0; i < paths.length; i++) {
    try {
      const st = statSync(paths[i]!, { throwIfNoEntry: false });
      out[i] = st?.isFile() ? st : undefined;
    } catch {
      out[i] = undefined; // unreadable (EACCES, …): skipped this time
    }
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise<void>((r) => setImmediate(r));
      sliceStart = performance.now();
    }
  }
  return out;
}

/** The listing of one vendor context, with its cache of parsed heads (by path, valid while mtime and size hold). */
export class ClaudeSessionList {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly counters = { reads: 0, hits: 0 };

  /** For tests and the bench: files cached, heads read and cache hits since this list was made (or reset). */
  stats(): { entries: number; reads: number; hits: number } {
    return { entries: this.cache.size, ...this.counters };
  }

  /** For the bench: forget every parsed head and zero the counters. */
  reset(): void {
    this.cache.clear();
    this.counters.reads = 0;
    this.counters.hits = 0;
  }

  /** Every conversation under `projects` (the store's `projects` folder), newest activity first. */
  async list(projects: string): Promise<FoundSession[]> {
    const { cache, counters } = this;
    const files = await transcriptPaths(projects);
    const stats = await statInSlices(files.map((f) => f.path));
    const changed: number[] = [];
    for (const [i, st] of stats.entries()) {
      if (!st) continue;
      const entry = cache.get(files[i]!.path);
      if (entry && entry.mtimeMs === st.mtimeMs && entry.size === st.size) counters.hits++;
      else changed.push(i);
    }
    // Only new and changed files are read: their first CLAUDE_HEAD_BYTES, a few at a time, each reader into its own
    // buffer (per listing: two listings may run at once).
    const buffers: Buffer[] = [];
    await eachLimited(changed, CONCURRENCY, async (i, w) => {
      const { path, sessionId } = files[i]!;
      const st = stats[i]!;
      const buf = (buffers[w] ??= Buffer.allocUnsafe(CLAUDE_HEAD_BYTES));
      let head: ClaudeHead;
      try {
        const bytes = await readHeadInto(path, buf);
        counters.reads++;
        head = parseClaudeHead(bytes, st.size <= bytes.length);
      } catch {
        stats[i] = undefined; // unreadable now: try again at the next listing
        return;
      }
      const conversation = head.hasMessages || head.firstPrompt !== null;
      cache.set(path, {
        mtimeMs: st.mtimeMs,
        size: st.size,
        found: conversation
          ? {
              sessionId,
              cwd: head.cwd,
              title: head.title,
              firstPrompt: head.firstPrompt,
              lastActivity: new Date(st.mtimeMs).toISOString(),
            }
          : null,
      });
    });
    const found: { session: FoundSession; mtimeMs: number }[] = [];
    const seen = new Set<string>();
    for (const [i, st] of stats.entries()) {
      if (!st) continue;
      const path = files[i]!.path;
      seen.add(path);
      const entry = cache.get(path);
      if (entry?.found) found.push({ mtimeMs: entry.mtimeMs, session: entry.found }); // shared with the cache: callers copy
    }
    for (const key of cache.keys()) if (key.startsWith(`${projects}/`) && !seen.has(key)) cache.delete(key);
    return found
      .sort(
        (a, b) =>
          b.mtimeMs - a.mtimeMs ||
          (a.session.sessionId < b.session.sessionId ? -1 : a.session.sessionId > b.session.sessionId ? 1 : 0),
      )
      .map((f) => f.session);
  }
}
