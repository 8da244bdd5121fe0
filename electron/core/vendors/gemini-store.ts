// Gemini CLI's on-disk store (vendors.md §3), read without starting the CLI.
//   <GEMINI_CLI_HOME or HOME>/.gemini/projects.json          {"projects": {"<cwd>": "<slug>"}}
//   <…>/.gemini/tmp/<slug>/.project_root, history/<slug>/.project_root   (the cwd, as markers)
//   <…>/.gemini/tmp/<slug>/chats/session-<UTC minute>-<id[0:8]>.jsonl    (appears at the first message)
// Line 1 of a chat file is `{sessionId, projectHash, startTime, lastUpdated, kind}`; then messages
// `{id, timestamp, type: "user"|"gemini", content}` and updates `{"$set": {…}}` / `{"$rewindTo": "<id>"}`.
// Older releases wrote one `session-*.json` object with a `messages` array; both are read.
import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from './adapter.js';
import { displayPath, listDir, pathForms } from './store-fs.js';
import { FileCache, HEAD_BYTES } from './transcript-cache.js';

/**
 * Ids Gemini accepts for `--session-id` (it does not validate them; a manually provided UUID is the intent):
 * never a leading "-", which would read as a flag. Baton mints UUIDv4s.
 */
export const GEMINI_SESSION_ID = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,127}$/;

/** How much of the end is read for the `summary` (the title in `--list-sessions`). */
const TAIL_BYTES = 16 * 1024;

/** `<GEMINI_CLI_HOME or HOME>/.gemini`. */
export function geminiDir(env: VendorEnv): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || '/', '.gemini');
}

/** The chat file name the CLI gives a session started at `at`: UTC, to the minute, ":" → "-". */
export function geminiChatFileName(sessionId: string, at: Date): string {
  return `session-${at.toISOString().slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`;
}

/** `projectHash` in chat files: hex sha256 of the project's cwd. */
export function geminiProjectHash(cwd: string): string {
  return createHash('sha256').update(cwd).digest('hex');
}

const SAFE_SLUG = /^[A-Za-z0-9._-]+$/;
const isSafeSlug = (s: unknown): s is string => typeof s === 'string' && SAFE_SLUG.test(s) && s !== '.' && s !== '..';

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** `projects.json` as a map cwd → slug (entries with unsafe slugs are dropped). */
export async function readGeminiProjects(env: VendorEnv): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const json = await readJson(join(geminiDir(env), 'projects.json'));
  const projects = json && typeof json === 'object' ? (json as { projects?: unknown }).projects : undefined;
  if (!projects || typeof projects !== 'object') return out;
  for (const [cwd, slug] of Object.entries(projects as Record<string, unknown>)) if (isSafeSlug(slug)) out.set(cwd, slug);
  return out;
}

async function readMarker(path: string): Promise<string | null> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

/**
 * The project folders (`tmp/<slug>`) that hold `cwd`'s chats, as Gemini finds them (it looks sessions up per
 * project): the slug projects.json gives the cwd; without a mapping, a folder whose `.project_root` names it;
 * and the legacy `tmp/<sha256(cwd)>` the CLI migrates from.
 */
export async function geminiProjectDirs(cwd: string, env: VendorEnv): Promise<string[]> {
  const tmp = join(geminiDir(env), 'tmp');
  const variants = await pathForms(cwd);
  const dirs = new Set<string>();
  const projects = await readGeminiProjects(env);
  for (const v of variants) {
    const slug = projects.get(v);
    if (slug) dirs.add(join(tmp, slug));
  }
  if (dirs.size === 0) {
    for (const slug of await listDir(tmp)) {
      if (!isSafeSlug(slug)) continue;
      const root = await readMarker(join(tmp, slug, '.project_root'));
      if (root !== null && variants.includes(root)) dirs.add(join(tmp, slug));
    }
  }
  for (const v of variants) dirs.add(join(tmp, geminiProjectHash(v)));
  return [...dirs];
}

/** What Baton needs from one chat file. */
export interface GeminiChat {
  sessionId: string;
  startTime: string | null;
  kind: string | null;
  /** The file holds at least one user or model message (metadata-only stubs do not). */
  hasMessages: boolean;
  /** The first user prompt that is not the CLI's own `<session_context>` turn. */
  firstPrompt: string | null;
  /** The generated summary (`$set.summary`), the CLI's title for the session. */
  summary: string | null;
}

interface Message {
  id: string | null;
  type: string;
  text: string | null;
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : null))
      .filter((t): t is string => t !== null);
    return parts.length > 0 ? parts.join('\n') : null;
  }
  return null;
}

function toMessage(rec: unknown): Message | null {
  if (!rec || typeof rec !== 'object') return null;
  const r = rec as { id?: unknown; type?: unknown; content?: unknown };
  if (r.type !== 'user' && r.type !== 'gemini') return null;
  return { id: typeof r.id === 'string' ? r.id : null, type: r.type, text: textOf(r.content) };
}

function summarise(sessionId: string, meta: Record<string, unknown>, messages: Message[], summary: string | null): GeminiChat {
  const first = messages.find((m) => m.type === 'user' && m.text !== null && !m.text.trimStart().startsWith('<session_context>'));
  return {
    sessionId,
    startTime: typeof meta.startTime === 'string' ? meta.startTime : null,
    kind: typeof meta.kind === 'string' ? meta.kind : null,
    hasMessages: messages.length > 0,
    firstPrompt: first?.text ?? null,
    summary,
  };
}

/**
 * Parses the JSONL form. `text` may be cut anywhere (the head of a large file): a torn last line is ignored.
 * Null when line 1 is not a session header.
 */
export function parseGeminiChatJsonl(text: string): GeminiChat | null {
  const lines = text.split('\n');
  let meta: Record<string, unknown> | null = null;
  const messages: Message[] = [];
  let summary: string | null = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (!rec || typeof rec !== 'object') continue;
    if (meta === null) {
      if (typeof (rec as { sessionId?: unknown }).sessionId !== 'string') return null;
      meta = rec as Record<string, unknown>;
      continue;
    }
    const r = rec as { $set?: unknown; $rewindTo?: unknown };
    if (r.$set && typeof r.$set === 'object') {
      const set = r.$set as { summary?: unknown; messages?: unknown };
      if (typeof set.summary === 'string') summary = set.summary;
      if (Array.isArray(set.messages)) {
        messages.length = 0;
        for (const m of set.messages) {
          const msg = toMessage(m);
          if (msg) messages.push(msg);
        }
      }
      continue;
    }
    if (typeof r.$rewindTo === 'string') {
      const at = messages.findIndex((m) => m.id === r.$rewindTo);
      if (at >= 0) messages.length = at;
      continue;
    }
    const msg = toMessage(rec);
    if (msg) messages.push(msg);
  }
  if (meta === null) return null;
  return summarise(meta.sessionId as string, meta, messages, summary);
}

/** Parses the legacy single-object `session-*.json` form (whole file only). */
export function parseGeminiChatJson(text: string): GeminiChat | null {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return null;
  }
  if (!rec || typeof rec !== 'object') return null;
  const r = rec as Record<string, unknown>;
  if (typeof r.sessionId !== 'string') return null;
  const messages = Array.isArray(r.messages) ? r.messages.map(toMessage).filter((m): m is Message => m !== null) : [];
  return summarise(r.sessionId, r, messages, typeof r.summary === 'string' ? r.summary : null);
}

/** The first `max` bytes of a file, and its last `tail` bytes when it is longer (never the middle). */
async function readHeadTail(path: string, size: number, max: number, tail: number): Promise<{ head: string; tail: string | null }> {
  const fh = await open(path, 'r');
  try {
    const headLen = Math.min(size, max);
    const head = Buffer.alloc(headLen);
    const { bytesRead } = await fh.read(head, 0, headLen, 0);
    let tailText: string | null = null;
    if (tail > 0 && size > max) {
      const len = Math.min(tail, size - max);
      const buf = Buffer.alloc(len);
      const r = await fh.read(buf, 0, len, size - len);
      tailText = buf.subarray(0, r.bytesRead).toString('utf8');
    }
    return { head: head.subarray(0, bytesRead).toString('utf8'), tail: tailText };
  } finally {
    await fh.close();
  }
}

/** The last `$set.summary` in a file's tail (the first, torn line is skipped). */
function summaryInTail(tail: string): string | null {
  let summary: string | null = null;
  for (const line of tail.split('\n').slice(1)) {
    if (!line.includes('"summary"')) continue;
    try {
      const rec = JSON.parse(line) as { $set?: { summary?: unknown } };
      if (typeof rec.$set?.summary === 'string') summary = rec.$set.summary;
    } catch {
      /* torn */
    }
  }
  return summary;
}

const LEGACY_SESSION_ID = /"sessionId"\s*:\s*("(?:[^"\\]|\\.)*")/;
const LEGACY_FIRST_USER = /"type"\s*:\s*"user"\s*,\s*"content"\s*:\s*\[\s*\{\s*"text"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** Reads a chat file cheaply: its head (and, for the title, its tail). */
export async function readGeminiChat(path: string, size: number): Promise<GeminiChat | null> {
  if (path.endsWith('.json')) {
    const { head } = await readHeadTail(path, size, HEAD_BYTES, 0);
    if (size <= HEAD_BYTES) return parseGeminiChatJson(head);
    // A large legacy file: only what its head says, no full parse.
    const id = LEGACY_SESSION_ID.exec(head);
    if (!id) return null;
    const first = LEGACY_FIRST_USER.exec(head);
    return {
      sessionId: JSON.parse(id[1]!) as string,
      startTime: null,
      kind: null,
      hasMessages: first !== null || /"type"\s*:\s*"(user|gemini)"/.test(head),
      firstPrompt: first ? (JSON.parse(first[1]!) as string) : null,
      summary: null,
    };
  }
  const { head, tail } = await readHeadTail(path, size, HEAD_BYTES, TAIL_BYTES);
  const chat = parseGeminiChatJsonl(head);
  if (chat && tail !== null) chat.summary = summaryInTail(tail) ?? chat.summary;
  return chat;
}

// ---------- a cache of parsed files, so a refresh re-reads only what changed ----------

const cache = new FileCache<GeminiChat | null>();

/** For tests: how many files the cache holds. */
export function geminiCacheSize(): number {
  return cache.size;
}

async function cachedChat(path: string): Promise<{ chat: GeminiChat | null; mtimeMs: number } | null> {
  const got = await cache.get(path, (p, { size }) => readGeminiChat(p, size));
  return got && { chat: got.value, mtimeMs: got.mtimeMs };
}

const CHAT_FILE = /^session-.+\.jsonl?$/;

export interface GeminiSessionFile {
  path: string;
  chat: GeminiChat;
}

/**
 * Every chat file of `sessionId` in `cwd`'s project (the original, and metadata-only stubs that resumes leave).
 * The id is only compared with file contents, never joined into a path.
 */
export async function findGeminiSessionFiles(sessionId: string, cwd: string, env: VendorEnv): Promise<GeminiSessionFile[]> {
  if (!GEMINI_SESSION_ID.test(sessionId)) return [];
  const id8 = sessionId.slice(0, 8);
  const out: GeminiSessionFile[] = [];
  for (const dir of await geminiProjectDirs(cwd, env)) {
    const chats = join(dir, 'chats');
    for (const name of await listDir(chats)) {
      if (!CHAT_FILE.test(name) || !(name.endsWith(`-${id8}.jsonl`) || name.endsWith(`-${id8}.json`))) continue;
      const path = join(chats, name);
      const got = await cachedChat(path);
      if (got?.chat && got.chat.sessionId === sessionId) out.push({ path, chat: got.chat });
    }
  }
  return out;
}

/** The transcript of `sessionId` in `cwd`'s project: a chat file with messages, or null. */
export async function findGeminiTranscript(sessionId: string, cwd: string, env: VendorEnv): Promise<string | null> {
  const files = await findGeminiSessionFiles(sessionId, cwd, env);
  return files.find((f) => f.chat.hasMessages)?.path ?? null;
}

/** Where `cwd`'s chats live, as the user would write it, for messages. */
export async function displayChatsDir(cwd: string, env: VendorEnv): Promise<string> {
  const variants = await pathForms(cwd);
  const projects = await readGeminiProjects(env);
  const slug = variants.map((v) => projects.get(v)).find((s) => s !== undefined);
  return displayPath(slug ? join(geminiDir(env), 'tmp', slug, 'chats') : join(geminiDir(env), 'tmp'), env);
}

/** Every main session in the store, one per id (stubs folded into the file that has the messages). */
export async function listGeminiSessions(env: VendorEnv): Promise<FoundSession[]> {
  const tmp = join(geminiDir(env), 'tmp');
  const projects = await readGeminiProjects(env);
  const cwdOfSlug = new Map<string, string>();
  for (const [cwd, slug] of projects) if (!cwdOfSlug.has(slug)) cwdOfSlug.set(slug, cwd);
  const seen = new Set<string>();
  const byId = new Map<string, { cwd: string | null; chat: GeminiChat; lastMs: number; withMessages: boolean }>();
  for (const slug of await listDir(tmp)) {
    if (!isSafeSlug(slug)) continue;
    const chats = join(tmp, slug, 'chats');
    const names = (await listDir(chats)).filter((n) => CHAT_FILE.test(n));
    if (names.length === 0) continue;
    const cwd = (await readMarker(join(tmp, slug, '.project_root'))) ?? cwdOfSlug.get(slug) ?? null;
    for (const name of names) {
      const path = join(chats, name);
      seen.add(path);
      const got = await cachedChat(path);
      if (!got?.chat || (got.chat.kind !== null && got.chat.kind !== 'main')) continue;
      const { chat, mtimeMs } = got;
      const prev = byId.get(chat.sessionId);
      if (!prev) {
        byId.set(chat.sessionId, { cwd, chat, lastMs: mtimeMs, withMessages: chat.hasMessages });
        continue;
      }
      prev.lastMs = Math.max(prev.lastMs, mtimeMs);
      if (!prev.withMessages && chat.hasMessages) {
        prev.chat = chat;
        prev.withMessages = true;
      }
      if (prev.chat.summary === null && chat.summary !== null) prev.chat = { ...prev.chat, summary: chat.summary };
    }
  }
  cache.prune(tmp, seen);
  return [...byId.values()]
    .filter((s) => s.withMessages)
    .sort((a, b) => b.lastMs - a.lastMs)
    .map((s) => ({
      sessionId: s.chat.sessionId,
      cwd: s.cwd,
      title: s.chat.summary,
      firstPrompt: s.chat.firstPrompt,
      lastActivity: new Date(s.lastMs).toISOString(),
    }));
}
