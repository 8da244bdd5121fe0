// opencode's on-disk store (vendors.md §6), read without starting the CLI: one SQLite database in WAL mode,
// `${XDG_DATA_HOME:-~/.local/share}/opencode/opencode.db`, with the tables
//   session(id, project_id, parent_id, slug, directory, title, version, time_created, time_updated, time_archived, …)
//   message(id, session_id, time_created, data{role, …})      part(id, message_id, session_id, data{type, text, …})
// Times are ms since the epoch; `session.directory` is the cwd the CLI ran in; `parent_id` marks a sub-agent's session.
//
// The database is read whole with sql.js, with its WAL applied in memory (sqlite-image.ts): a session that a live or
// killed opencode has not checkpointed yet is seen too. Reads are cached until the database or its WAL changes.
// A large store costs memory while it is read (the whole file is loaded), so the live follower asks the CLI's own
// server first and reads the database only to confirm, to check a resume, or when the server never answers.
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from './adapter.js';
import { displayPath, pathForms } from './store-fs.js';
import { imageKey, num, readImage, rows, str, withImage } from './sqlite-image.js';

/** `ses_` + 12 hex (the inverted creation time) + 14 base62 (vendors.md §6). */
export const OPENCODE_SESSION_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

/** How many sessions listSessions() reads a first prompt for (newest first). */
export const OPENCODE_LIST_LIMIT = 500;

/** `${XDG_DATA_HOME:-$HOME/.local/share}/opencode` (a relative XDG_DATA_HOME is ignored, as the spec says). */
export function opencodeDataDir(env: VendorEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || '/', '.local', 'share');
  return join(base, 'opencode');
}

export const opencodeDbPath = (env: VendorEnv): string => join(opencodeDataDir(env), 'opencode.db');

/** The data folder as the user would write it (`~/.local/share/opencode`), for messages. */
export function displayDataDir(env: VendorEnv): string {
  return displayPath(opencodeDataDir(env), env);
}

export interface OpencodeSessionRow {
  id: string;
  directory: string;
  parentId: string | null;
  title: string | null;
  /** ms since the epoch. */
  created: number;
  updated: number;
}

// ---------------------------------------------------------------- the session index (cached per database state)

let index: { path: string; key: string; sessions: Map<string, OpencodeSessionRow> } | null = null;
let loading: { path: string; key: string; done: Promise<Map<string, OpencodeSessionRow>> } | null = null;

function rowOf(r: Record<string, unknown>): OpencodeSessionRow | null {
  const id = typeof r.id === 'string' ? r.id : null;
  const directory = typeof r.directory === 'string' ? r.directory : null;
  if (!id || directory === null) return null;
  return {
    id,
    directory,
    parentId: typeof r.parent_id === 'string' && r.parent_id !== '' ? r.parent_id : null,
    title: typeof r.title === 'string' ? r.title : null,
    created: typeof r.time_created === 'number' ? r.time_created : 0,
    updated: typeof r.time_updated === 'number' ? r.time_updated : 0,
  };
}

async function loadIndex(path: string): Promise<Map<string, OpencodeSessionRow>> {
  const image = await readImage(path);
  if (!image) return new Map();
  if (index && index.path === path && index.key === image.key) return index.sessions;
  const sessions = new Map<string, OpencodeSessionRow>();
  await withImage(image.bytes, (db) => {
    for (const r of rows(db, 'SELECT id, directory, parent_id, title, time_created, time_updated FROM session')) {
      const row = rowOf(r);
      if (row) sessions.set(row.id, row);
    }
  });
  index = { path, key: image.key, sessions };
  return sessions;
}

/** Every session row of the store, id → row (empty when there is no database). */
export async function opencodeSessions(env: VendorEnv): Promise<Map<string, OpencodeSessionRow>> {
  const path = opencodeDbPath(env);
  const key = await imageKey(path);
  if (key === null) return new Map();
  if (index && index.path === path && index.key === key) return index.sessions;
  if (loading && loading.path === path && loading.key === key) return loading.done;
  const done = loadIndex(path);
  loading = { path, key, done };
  try {
    return await done;
  } finally {
    if (loading?.done === done) loading = null;
  }
}

/** The session's row, or null. Only the id is compared (it never becomes part of a path or a query text). */
export async function findOpencodeSession(sessionId: string, env: VendorEnv): Promise<OpencodeSessionRow | null> {
  if (!OPENCODE_SESSION_ID.test(sessionId)) return null;
  return (await opencodeSessions(env)).get(sessionId) ?? null;
}

/** Whether the store holds `sessionId` for `cwd` (its directory is the cwd, as written or resolved). */
export async function opencodeSessionIn(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
  const row = await findOpencodeSession(sessionId, env);
  return row !== null && (await pathForms(cwd)).includes(row.directory); // the CLI records the directory it runs in
}

// ---------------------------------------------------------------- listing (with first prompts)

let listing: { path: string; key: string; found: FoundSession[] } | null = null;

const LIST_SQL = `
  SELECT s.id AS id, s.directory AS directory, s.title AS title, s.time_updated AS time_updated,
    (SELECT json_extract(p.data, '$.text')
       FROM message m JOIN part p ON p.message_id = m.id
      WHERE m.session_id = s.id
        AND json_extract(m.data, '$.role') = 'user'
        AND json_extract(p.data, '$.type') = 'text'
        AND coalesce(json_extract(p.data, '$.synthetic'), 0) = 0
      ORDER BY m.time_created, m.id, p.id
      LIMIT 1) AS first_prompt
  FROM session s
  WHERE s.parent_id IS NULL
  ORDER BY s.time_updated DESC
  LIMIT ?`;

/** The store's main sessions (sub-agents' sessions left out), newest activity first, with their first prompts. */
export async function listOpencodeSessions(env: VendorEnv): Promise<FoundSession[]> {
  const path = opencodeDbPath(env);
  const key = await imageKey(path);
  if (key === null) return [];
  if (listing && listing.path === path && listing.key === key) return listing.found;
  const image = await readImage(path);
  if (!image) return [];
  const found =
    (await withImage(image.bytes, (db) =>
      rows(db, LIST_SQL, [OPENCODE_LIST_LIMIT]).flatMap((r): FoundSession[] => {
        const id = str(r.id);
        if (!id || !OPENCODE_SESSION_ID.test(id)) return [];
        const updated = num(r.time_updated);
        return [
          {
            sessionId: id,
            cwd: str(r.directory),
            title: str(r.title),
            firstPrompt: str(r.first_prompt),
            lastActivity: new Date(updated ?? 0).toISOString(),
          },
        ];
      }),
    )) ?? [];
  listing = { path, key: image.key, found };
  return found;
}
