// Cursor CLI's on-disk chats (docs/vendors.md §7). ALL [reported]: the CLI cannot be installed here, so this layout
// follows third-party descriptions and was checked against the synthetic sample and a stand-in only.
//   ~/.cursor/chats/<md5(absolute workspace)>/<chatId>/store.db    SQLite (chat-db.ts)
//   ~/.cursor/chats/<md5(absolute workspace)>/<chatId>/meta.json   {createdAtMs, updatedAtMs, hasConversation}
// One CursorStore per vendor context caches the listing.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { displayPath, vendorHome } from '../kit/home.js';
import { LOWER_UUID } from '../kit/ids.js';
import { imageKey, SQL_JS, type SqlJs } from '../kit/sqlite-image.js';
import { isDir, isFile, listDir, pathForms } from '../kit/store-fs.js';
import { readChatStore } from './chat-db.js';

/** A chat id: a lowercase UUID as `create-chat` prints it [reported]. */
export const CURSOR_CHAT_ID = LOWER_UUID;

/** `~/.cursor` (the CLI is reported to have no override variable). */
export const cursorDir = (env: VendorEnv): string => vendorHome(env, null, '.cursor');
export const cursorChatsDir = (env: VendorEnv): string => join(cursorDir(env), 'chats');

/** The chats folder name of a workspace: hex md5 of its absolute path. */
export function workspaceHash(cwd: string): string {
  return createHash('md5').update(cwd).digest('hex');
}

/** `~/.cursor/chats` as the user would write it, for messages. */
export function displayChatsDir(env: VendorEnv): string {
  return displayPath(cursorChatsDir(env), env);
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

/** Cursor's store reader of one vendor context: the listing's cache, keyed by each store.db's state. */
export class CursorStore {
  private readonly listCache = new Map<string, { key: string; found: FoundSession | null }>();

  constructor(private readonly sql: SqlJs) {}

  /** Every chat with a conversation, newest activity first. A chat's cwd is null unless its workspace is known. */
  async list(env: VendorEnv): Promise<FoundSession[]> {
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
        let hit = this.listCache.get(store);
        if (!hit || hit.key !== fullKey) {
          const chat = await readChatStore(this.sql, store);
          let found: FoundSession | null = null;
          if (chat && (chat.messages.length > 0 || metaJson?.hasConversation === true)) {
            const updated =
              typeof metaJson?.updatedAtMs === 'number'
                ? metaJson.updatedAtMs
                : ((await stat(store).catch(() => null))?.mtimeMs ?? 0);
            found = {
              sessionId: id,
              cwd: null,
              title: chat.meta.name,
              firstPrompt: chat.messages.find((m) => m.role === 'user')?.text ?? null,
              lastActivity: new Date(updated).toISOString(),
            };
          }
          hit = { key: fullKey, found };
          this.listCache.set(store, hit);
        }
        if (hit.found) out.push({ ...hit.found, cwd: workspaces.get(hash) ?? null });
      }
    }
    for (const k of this.listCache.keys()) if (k.startsWith(`${chats}/`) && !seen.has(k)) this.listCache.delete(k);
    return out.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
  }
}

export const CURSOR_STORE = stateSlot('cursor store', (ctx) => new CursorStore(ctx.state(SQL_JS)));
