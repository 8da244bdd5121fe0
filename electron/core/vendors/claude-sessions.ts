// Claude Code's conversations on this machine, for import (design.md §3 `listSessions`, vendors.md §1).
//   <configDir>/projects/<enc cwd>/<sessionId>.jsonl
// The folder name is a lossy encoding of the cwd, so the cwd is read from the transcript itself. Only the first
// HEAD_BYTES of a file are read, and a file is read again only when its mtime or size changed: a refresh of a
// store of thousands of transcripts costs one stat per file.
import { close, open, read, readdir, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from './adapter.js';
import { CLAUDE_SESSION_ID, claudeConfigDir } from './claude-store.js';

/** How much of a transcript is read to find its cwd, first prompt and title. */
export const CLAUDE_HEAD_BYTES = 64 * 1024;
/** The first prompt is cut to this many characters (an ellipsis included). */
export const FIRST_PROMPT_MAX_CHARS = 200;
/** Files read at once (the reads queue on libuv's thread pool; more only adds memory). */
const CONCURRENCY = 32;
/** The longest the listing holds the event loop at a time while it stats files. */
const SLICE_MS = 2;

/** What the head of one transcript says. */
export interface ClaudeHead {
  cwd: string | null;
  title: string | null;
  firstPrompt: string | null;
  /** The head holds at least one user or assistant message (a file of bookkeeping lines only is not a conversation). */
  hasMessages: boolean;
}

// ---------------------------------------------------------------- parsing a head

const NL = 0x0a;
const USER = Buffer.from('"type":"user"');
const ASSISTANT = Buffer.from('"type":"assistant"');
const CUSTOM_TITLE = Buffer.from('"type":"custom-title"');
const SUMMARY = Buffer.from('"type":"summary"');
const CWD = Buffer.from('"cwd":"');

/** Claude's own records of a slash command, stored as user lines: never the prompt a person typed. */
const COMMAND_WRAPPER = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>/;

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const b of content) {
    if (b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string') {
      texts.push((b as { text: string }).text);
    }
  }
  return texts.length > 0 ? texts.join('\n') : null;
}

/** `text` trimmed and cut to FIRST_PROMPT_MAX_CHARS, never inside a surrogate pair. */
export function shortPrompt(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  if (t.length <= FIRST_PROMPT_MAX_CHARS) return t;
  let cut = FIRST_PROMPT_MAX_CHARS - 1;
  const c = t.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${t.slice(0, cut).trimEnd()}…`;
}

interface Line {
  start: number;
  end: number;
  /** No newline after it: the head may have cut it. */
  open: boolean;
}

function lineAround(buf: Buffer, at: number): Line {
  const start = at === 0 ? 0 : buf.lastIndexOf(NL, at - 1) + 1;
  const nl = buf.indexOf(NL, at);
  return nl < 0 ? { start, end: buf.length, open: true } : { start, end: nl, open: false };
}

function parseLine(buf: Buffer, line: Line): Record<string, unknown> | null {
  try {
    const rec = JSON.parse(buf.toString('utf8', line.start, line.end)) as unknown;
    return rec && typeof rec === 'object' && !Array.isArray(rec) ? (rec as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The decoded start of a JSON string value whose end the head cut off (a split escape or character is dropped). */
function partialString(raw: string): string {
  for (let cut = 0; cut <= 6 && cut <= raw.length; cut++) {
    try {
      return (JSON.parse(`"${raw.slice(0, raw.length - cut)}"`) as string).replace(/\uFFFD+$/, '');
    } catch {
      /* cut inside an escape: try a shorter prefix */
    }
  }
  return '';
}

const PARTIAL_CONTENT = /"content":(?:"((?:[^"\\]|\\.)*)|\[\{"type":"text","text":"((?:[^"\\]|\\.)*))/;
const CWD_VALUE = /"cwd":("(?:[^"\\]|\\.)*")/;

/**
 * A user line the head cut inside (a prompt longer than the head): the start of its text, and its cwd when that
 * came before the cut. The line is matched, not parsed: only its own keys are read.
 */
function partialUserLine(buf: Buffer, line: Line): { prompt: string | null; cwd: string | null } | null {
  const text = buf.toString('utf8', line.start, line.end);
  if (!text.startsWith('{') || text.includes('"isMeta":true') || text.includes('"isSidechain":true')) return null;
  const m = PARTIAL_CONTENT.exec(text);
  if (!m) return null;
  const prompt = partialString(m[1] ?? m[2] ?? '');
  if (prompt.trim() === '' || COMMAND_WRAPPER.test(prompt)) return null;
  const cwd = CWD_VALUE.exec(text);
  let cwdText: string | null = null;
  if (cwd) {
    try {
      cwdText = JSON.parse(cwd[1]!) as string;
    } catch {
      cwdText = null;
    }
  }
  return { prompt: shortPrompt(prompt), cwd: cwdText };
}

/**
 * What the head of a transcript says: the first `user` line with string or text content (not `isMeta`, not a
 * sidechain, not a slash-command record) gives the first prompt and the cwd; the last `custom-title` line (else a
 * `summary` line) gives the title. `complete` is false when the file is longer than `buf`, whose last line may
 * then be cut. Lines are found by their compact `"type":"…"` key (the CLI writes JSON.stringify output) and only
 * those are parsed, so a head of large assistant lines costs a few byte searches.
 */
export function parseClaudeHead(buf: Buffer, complete: boolean): ClaudeHead {
  let firstPrompt: string | null = null;
  let cwd: string | null = null;
  let hasMessages = false;
  /** Where the first user line starts: `summary` lines, when a file has them, come before it. */
  let firstUser = -1;
  for (let pos = 0; pos < buf.length; ) {
    const at = buf.indexOf(USER, pos);
    if (at < 0) break;
    const line = lineAround(buf, at);
    pos = line.end + 1;
    if (firstUser < 0) firstUser = line.start;
    const rec = parseLine(buf, line);
    if (!rec) {
      if (line.open && !complete) {
        const partial = partialUserLine(buf, line);
        if (partial) {
          hasMessages = true;
          firstPrompt = partial.prompt;
          cwd = partial.cwd;
        }
      }
      continue;
    }
    if (rec.type !== 'user') continue;
    hasMessages = true;
    if (rec.isMeta === true || rec.isSidechain === true) continue;
    const message = rec.message as { content?: unknown } | undefined;
    const text = textOf(message && typeof message === 'object' ? message.content : undefined);
    if (text === null || COMMAND_WRAPPER.test(text)) continue;
    const prompt = shortPrompt(text);
    if (prompt === null) continue;
    firstPrompt = prompt;
    cwd = typeof rec.cwd === 'string' && rec.cwd !== '' ? rec.cwd : null;
    break;
  }
  if (!hasMessages) hasMessages = buf.indexOf(ASSISTANT) >= 0;
  if (cwd === null) cwd = firstCwd(buf);
  return { cwd, title: titleOf(buf, firstUser < 0 ? buf.length : firstUser), firstPrompt, hasMessages };
}

/** The cwd of the first line that has one (every message line of a transcript carries it). */
function firstCwd(buf: Buffer): string | null {
  for (let pos = 0; pos < buf.length; ) {
    const at = buf.indexOf(CWD, pos);
    if (at < 0) return null;
    const line = lineAround(buf, at);
    pos = line.end + 1;
    const rec = parseLine(buf, line);
    if (rec && typeof rec.cwd === 'string' && rec.cwd !== '') return rec.cwd;
  }
  return null;
}

/**
 * The last `custom-title` (a name given with `-n` or `/rename`), else the first `summary` line; older CLIs write
 * those at the top of the file, so only the bytes before the first user line (`summaryEnd`) are searched for one.
 */
function titleOf(buf: Buffer, summaryEnd: number): string | null {
  for (let end = buf.length; end > 0; ) {
    const at = buf.lastIndexOf(CUSTOM_TITLE, end - 1);
    if (at < 0) break;
    const line = lineAround(buf, at);
    end = line.start;
    const rec = parseLine(buf, line);
    if (rec?.type === 'custom-title' && typeof rec.customTitle === 'string' && rec.customTitle.trim() !== '') return rec.customTitle.trim();
  }
  const top = buf.subarray(0, summaryEnd);
  for (let pos = 0; pos < top.length; ) {
    const at = top.indexOf(SUMMARY, pos);
    if (at < 0) break;
    const line = lineAround(buf, at);
    pos = line.end + 1;
    const rec = parseLine(buf, line);
    if (rec?.type === 'summary' && typeof rec.summary === 'string' && rec.summary.trim() !== '') return rec.summary.trim();
  }
  return null;
}

// ---------------------------------------------------------------- small promise wrappers over the callback fs API
// (the callback forms cost less per call than fs/promises and its FileHandle objects, which adds up over 10,000 files)

const dirents = (path: string) =>
  new Promise<Dirent[]>((res) => readdir(path, { withFileTypes: true }, (err, list) => res(err ? [] : list)));
const names = (path: string) => new Promise<string[]>((res) => readdir(path, (err, list) => res(err ? [] : list)));

/** The first `buf.length` bytes of a file (fewer when it is shorter): the filled part of `buf`. */
function readHead(path: string, buf: Buffer): Promise<Buffer> {
  return new Promise((res, rej) => {
    open(path, 'r', (err, fd) => {
      if (err) return rej(err);
      read(fd, buf, 0, buf.length, 0, (rerr, n) => {
        close(fd, () => (rerr ? rej(rerr) : res(buf.subarray(0, n))));
      });
    });
  });
}

/** Runs `fn` over `items` with at most `n` at a time; each worker gets its own index (for per-worker buffers). */
async function eachLimited<T>(items: readonly T[], n: number, fn: (item: T, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (w: number) => {
    while (next < items.length) await fn(items[next++]!, w);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, (_, w) => worker(w)));
}

// ---------------------------------------------------------------- the cache and the listing

interface CacheEntry {
  mtimeMs: number;
  size: number;
  /** What the listing shows for the file; null when it is not a conversation (or could not be parsed). */
  found: FoundSession | null;
}
/** Parsed heads by path, valid while the file's mtime and size stay the same. */
const cache = new Map<string, CacheEntry>();
const counters = { reads: 0, hits: 0 };

/** For tests and the bench: files cached, heads read and cache hits since the process started (or the last reset). */
export function claudeSessionsCacheStats(): { entries: number; reads: number; hits: number } {
  return { entries: cache.size, ...counters };
}

/** For tests and the bench: forget every parsed head and zero the counters. */
export function resetClaudeSessionsCache(): void {
  cache.clear();
  counters.reads = 0;
  counters.hits = 0;
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
      if (CLAUDE_SESSION_ID.test(sessionId)) out.push({ path: `${dir}/${name}`, sessionId });
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

/** Every Claude conversation in the store, newest activity first. */
export async function listClaudeSessions(env: VendorEnv): Promise<FoundSession[]> {
  const projects = join(claudeConfigDir(env), 'projects');
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
      const bytes = await readHead(path, buf);
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
        ? { sessionId, cwd: head.cwd, title: head.title, firstPrompt: head.firstPrompt, lastActivity: new Date(st.mtimeMs).toISOString() }
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
    .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.session.sessionId < b.session.sessionId ? -1 : a.session.sessionId > b.session.sessionId ? 1 : 0))
    .map((f) => f.session);
}
