// Cursor CLI's on-disk chats (vendors.md §7). ALL [reported]: the CLI cannot be installed here, so this layout
// follows third-party descriptions and was checked against the synthetic sample and a stand-in only.
//   ~/.cursor/chats/<md5(absolute workspace)>/<chatId>/store.db    SQLite: meta(key, value), blobs(id, data)
//   ~/.cursor/chats/<md5(absolute workspace)>/<chatId>/meta.json   {createdAtMs, updatedAtMs, hasConversation}
// meta row '0' = hex-encoded JSON {agentId, latestRootBlobId, name, mode, createdAt, lastUsedModel}; blobs are keyed
// by sha256(data): JSON messages {role, content} and a protobuf root whose field 1 lists the message ids in order.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from './adapter.js';
import { displayPath, isFile, listDir, pathForms } from './store-fs.js';
import { imageKey, readImage, rows, withImage, type SqlDatabase } from './sqlite-image.js';

/** A chat id: a lowercase UUID as `create-chat` prints it [reported]. */
export const CURSOR_CHAT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const cursorDir = (env: VendorEnv): string => join(env.HOME || '/', '.cursor');
export const cursorChatsDir = (env: VendorEnv): string => join(cursorDir(env), 'chats');

/** The chats folder name of a workspace: hex md5 of its absolute path. */
export function workspaceHash(cwd: string): string {
  return createHash('md5').update(cwd).digest('hex');
}

/** `~/.cursor/chats` as the user would write it, for messages. */
export function displayChatsDir(env: VendorEnv): string {
  return displayPath(cursorChatsDir(env), env);
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The folders that may hold `cwd`'s chats (its path as written and as resolved). */
export async function workspaceChatDirs(cwd: string, env: VendorEnv): Promise<string[]> {
  return (await pathForms(cwd)).map((c) => join(cursorChatsDir(env), workspaceHash(c)));
}

/** The chat's `store.db` under `cwd`'s workspace, or null. The id is validated before it is joined into a path. */
export async function findChatStore(chatId: string, cwd: string, env: VendorEnv): Promise<string | null> {
  if (!CURSOR_CHAT_ID.test(chatId)) return null;
  for (const dir of await workspaceChatDirs(cwd, env)) {
    const path = join(dir, chatId, 'store.db');
    if (await isFile(path)) return path;
  }
  return null;
}

/** Whether `create-chat` made the chat's folder under `cwd`'s workspace (it may hold no conversation yet). */
export async function chatFolderExists(chatId: string, cwd: string, env: VendorEnv): Promise<boolean> {
  if (!CURSOR_CHAT_ID.test(chatId)) return false;
  for (const dir of await workspaceChatDirs(cwd, env)) if (await isDir(join(dir, chatId))) return true;
  return false;
}

/** Chat ids with a folder under `cwd`'s workspace, each with when its folder came into being (ms). */
export async function workspaceChats(cwd: string, env: VendorEnv): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const dir of await workspaceChatDirs(cwd, env)) {
    for (const name of await listDir(dir)) {
      if (!CURSOR_CHAT_ID.test(name)) continue;
      try {
        const s = await stat(join(dir, name));
        if (s.isDirectory()) out.set(name, s.birthtimeMs > 0 ? s.birthtimeMs : s.ctimeMs);
      } catch {
        /* gone */
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- reading store.db

export interface CursorChatMeta {
  agentId: string | null;
  latestRootBlobId: string | null;
  name: string | null;
  mode: string | null;
  createdAt: number | null;
  lastUsedModel: string | null;
}

/** meta row '0': hex-encoded JSON. Null when it is not. */
export function parseChatMeta(hex: string): CursorChatMeta | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return null;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(hex, 'hex').toString('utf8'));
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const m = v as Record<string, unknown>;
  const s = (k: string) => (typeof m[k] === 'string' ? (m[k] as string) : null);
  return {
    agentId: s('agentId'),
    latestRootBlobId: s('latestRootBlobId'),
    name: s('name'),
    mode: s('mode'),
    createdAt: typeof m.createdAt === 'number' ? m.createdAt : null,
    lastUsedModel: s('lastUsedModel'),
  };
}

function varint(buf: Uint8Array, at: number): [number, number] | null {
  let value = 0;
  let mul = 1;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * mul;
    mul *= 128;
    if ((b & 0x80) === 0) return [value, i + 1];
  }
  return null;
}

/** The message ids a root blob lists (protobuf field 1, 32-byte sha256 values, hex), in order. Other fields skipped. */
export function parseRootBlob(buf: Uint8Array): string[] {
  const ids: string[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = varint(buf, at);
    if (!tag) break;
    const [key, next] = tag;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    at = next;
    if (wire === 0) {
      const v = varint(buf, at);
      if (!v) break;
      at = v[1];
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const len = varint(buf, at);
      if (!len || len[1] + len[0] > buf.length) break;
      const value = buf.subarray(len[1], len[1] + len[0]);
      at = len[1] + len[0];
      if (field === 1 && value.length === 32) ids.push(Buffer.from(value).toString('hex'));
    } else break;
  }
  return ids;
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content
    .filter((p): p is { type?: unknown; text: string } => !!p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string')
    .filter((p) => p.type === undefined || p.type === 'text')
    .map((p) => p.text);
  return texts.length > 0 ? texts.join('\n') : null;
}

export interface CursorChat {
  meta: CursorChatMeta;
  /** The chat's messages in order: role and text. */
  messages: { role: string; text: string | null }[];
}

/** Reads an opened store.db: its meta row and the messages its latest root lists. */
export function readChatDb(db: SqlDatabase): CursorChat | null {
  const metaRow = rows(db, "SELECT value FROM meta WHERE key = '0'")[0];
  const meta = metaRow ? parseChatMeta(String(metaRow.value ?? '')) : null;
  if (!meta) return null;
  const blob = (id: string): Uint8Array | null => {
    const r = rows(db, 'SELECT data FROM blobs WHERE id = ?', [id])[0];
    const d = r?.data;
    return d instanceof Uint8Array ? d : typeof d === 'string' ? Buffer.from(d, 'utf8') : null;
  };
  const root = meta.latestRootBlobId ? blob(meta.latestRootBlobId) : null;
  const messages: CursorChat['messages'] = [];
  for (const id of root ? parseRootBlob(root) : []) {
    const data = blob(id);
    if (!data) continue;
    try {
      const m = JSON.parse(Buffer.from(data).toString('utf8')) as { role?: unknown; content?: unknown };
      if (typeof m.role === 'string') messages.push({ role: m.role, text: textOf(m.content) });
    } catch {
      /* not a JSON message */
    }
  }
  return { meta, messages };
}

/** Reads a chat's store.db file (with its WAL, if any). */
export async function readChatStore(path: string): Promise<CursorChat | null> {
  const image = await readImage(path);
  if (!image) return null;
  return withImage(image.bytes, readChatDb);
}

// ---------------------------------------------------------------- listing

const listCache = new Map<string, { key: string; found: FoundSession | null }>();

/**
 * Workspaces whose md5 Baton can name: `~/.cursor/projects/<slug>/.workspace-trusted` [reported] holding the path
 * (as text, or as a JSON string field). The md5 folder name alone cannot be turned back into a path.
 */
async function knownWorkspaces(env: VendorEnv): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const projects = join(cursorDir(env), 'projects');
  for (const slug of await listDir(projects)) {
    let text: string;
    try {
      text = (await readFile(join(projects, slug, '.workspace-trusted'), 'utf8')).trim();
    } catch {
      continue;
    }
    const candidates: string[] = [text];
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object') for (const x of Object.values(v)) if (typeof x === 'string') candidates.push(x);
    } catch {
      /* plain text */
    }
    for (const c of candidates) if (c.startsWith('/') && !c.includes('\n')) out.set(workspaceHash(c), c);
  }
  return out;
}

async function readJsonFile(path: string): Promise<Record<string, unknown> | null> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Every chat with a conversation, newest activity first. A chat's cwd is null unless its workspace is known. */
export async function listCursorChats(env: VendorEnv): Promise<FoundSession[]> {
  const chats = cursorChatsDir(env);
  const workspaces = await knownWorkspaces(env);
  const out: FoundSession[] = [];
  const seen = new Set<string>();
  for (const hash of await listDir(chats)) {
    if (!/^[0-9a-f]{32}$/.test(hash)) continue;
    for (const id of await listDir(join(chats, hash))) {
      if (!CURSOR_CHAT_ID.test(id)) continue;
      const dir = join(chats, hash, id);
      const store = join(dir, 'store.db');
      const key = await imageKey(store);
      if (key === null) continue;
      const metaJson = await readJsonFile(join(dir, 'meta.json'));
      const fullKey = `${key}|${String(metaJson?.updatedAtMs ?? '')}`;
      seen.add(store);
      let hit = listCache.get(store);
      if (!hit || hit.key !== fullKey) {
        const chat = await readChatStore(store);
        let found: FoundSession | null = null;
        if (chat && (chat.messages.length > 0 || metaJson?.hasConversation === true)) {
          const updated = typeof metaJson?.updatedAtMs === 'number' ? metaJson.updatedAtMs : ((await stat(store).catch(() => null))?.mtimeMs ?? 0);
          found = {
            sessionId: id,
            cwd: null,
            title: chat.meta.name,
            firstPrompt: chat.messages.find((m) => m.role === 'user')?.text ?? null,
            lastActivity: new Date(updated).toISOString(),
          };
        }
        hit = { key: fullKey, found };
        listCache.set(store, hit);
      }
      if (hit.found) out.push({ ...hit.found, cwd: workspaces.get(hash) ?? null });
    }
  }
  for (const k of listCache.keys()) if (k.startsWith(`${chats}/`) && !seen.has(k)) listCache.delete(k);
  return out.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
}

