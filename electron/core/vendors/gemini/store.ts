// Gemini CLI's on-disk store (docs/vendors.md §3), read without starting the CLI.
//   <GEMINI_CLI_HOME or HOME>/.gemini/projects.json          {"projects": {"<cwd>": "<slug>"}}
//   <…>/.gemini/tmp/<slug>/.project_root, history/<slug>/.project_root   (the cwd, as markers)
//   <…>/.gemini/tmp/<slug>/chats/session-<UTC minute>-<id[0:8]>.jsonl    (appears at the first message)
// The chat files themselves are read by chat.ts. One GeminiStore per vendor context holds the cache of parsed files.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { displayPath } from '../kit/home.js';
import type { Held, MintedIdStore } from '../kit/minted-id.js';
import { listDir, pathForms } from '../kit/store-fs.js';
import { FileCache } from '../kit/transcript-cache.js';
import { readGeminiChat, type GeminiChat } from './chat.js';

/**
 * Ids Gemini accepts for `--session-id` (it does not validate them; a manually provided UUID is the intent):
 * never a leading "-", which would read as a flag. Baton mints UUIDv4s.
 */
export const GEMINI_SESSION_ID = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,127}$/;

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
  for (const [cwd, slug] of Object.entries(projects as Record<string, unknown>))
    if (isSafeSlug(slug)) out.set(cwd, slug);
  return out;
}

export async function readMarker(path: string): Promise<string | null> {
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

const CHAT_FILE = /^session-.+\.jsonl?$/;

export interface GeminiSessionFile {
  path: string;
  chat: GeminiChat;
}

/** Where `cwd`'s chats live, as the user would write it, for messages. */
export async function displayChatsDir(cwd: string, env: VendorEnv): Promise<string> {
  const variants = await pathForms(cwd);
  const projects = await readGeminiProjects(env);
  const slug = variants.map((v) => projects.get(v)).find((s) => s !== undefined);
  return displayPath(slug ? join(geminiDir(env), 'tmp', slug, 'chats') : join(geminiDir(env), 'tmp'), env);
}

/** Gemini's store reader, with the cache of parsed chat files (a refresh re-reads only what changed). */
export class GeminiStore implements MintedIdStore {
  private readonly cache = new FileCache<GeminiChat | null>();

  /** For tests: how many files the cache holds. */
  get cacheSize(): number {
    return this.cache.size;
  }

  private async cachedChat(path: string): Promise<{ chat: GeminiChat | null; mtimeMs: number } | null> {
    const got = await this.cache.get(path, (p, { size }) => readGeminiChat(p, size));
    return got && { chat: got.value, mtimeMs: got.mtimeMs };
  }

  /**
   * Every chat file of `sessionId` in `cwd`'s project (the original, and metadata-only stubs that resumes leave).
   * The id is only compared with file contents, never joined into a path.
   */
  async findSessionFiles(sessionId: string, cwd: string, env: VendorEnv): Promise<GeminiSessionFile[]> {
    if (!GEMINI_SESSION_ID.test(sessionId)) return [];
    const id8 = sessionId.slice(0, 8);
    const out: GeminiSessionFile[] = [];
    for (const dir of await geminiProjectDirs(cwd, env)) {
      const chats = join(dir, 'chats');
      for (const name of await listDir(chats)) {
        if (!CHAT_FILE.test(name) || !(name.endsWith(`-${id8}.jsonl`) || name.endsWith(`-${id8}.json`))) continue;
        const path = join(chats, name);
        const got = await this.cachedChat(path);
        if (got?.chat && got.chat.sessionId === sessionId) out.push({ path, chat: got.chat });
      }
    }
    return out;
  }

  /** The transcript of `sessionId` in `cwd`'s project: a chat file with messages, or null. */
  async findTranscript(sessionId: string, cwd: string, env: VendorEnv): Promise<string | null> {
    const files = await this.findSessionFiles(sessionId, cwd, env);
    return files.find((f) => f.chat.hasMessages)?.path ?? null;
  }

  async exists(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    return (await this.findTranscript(sessionId, cwd, env)) !== null;
  }

  /** A file with messages: a conversation; only metadata-only files (a stub, or a TUI nobody spoke to): started. */
  async held(sessionId: string, cwd: string, env: VendorEnv): Promise<Held> {
    const files = await this.findSessionFiles(sessionId, cwd, env);
    if (files.some((f) => f.chat.hasMessages)) return 'conversation';
    return files.length > 0 ? 'started' : 'none';
  }

  where(cwd: string, env: VendorEnv): Promise<string> {
    return displayChatsDir(cwd, env);
  }

  /** Every main session in the store, one per id (stubs folded into the file that has the messages). */
  async list(env: VendorEnv): Promise<FoundSession[]> {
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
        const got = await this.cachedChat(path);
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
    this.cache.prune(tmp, seen);
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
}

export const GEMINI_STORE = stateSlot('gemini store', () => new GeminiStore());
