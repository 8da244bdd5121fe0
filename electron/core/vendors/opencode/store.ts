// opencode's on-disk store (docs/vendors.md §6), read without starting the CLI: one SQLite database in WAL mode,
// `${XDG_DATA_HOME:-~/.local/share}/opencode/opencode.db`, with the tables
//   session(id, project_id, parent_id, slug, directory, title, version, time_created, time_updated, time_archived, …)
//   message(id, session_id, time_created, data{role, …})      part(id, message_id, session_id, data{type, text, …})
// Times are ms since the epoch; `session.directory` is the cwd the CLI ran in; `parent_id` marks a sub-agent's session.
//
// The database is read whole with sql.js, with its WAL applied in memory (kit/sqlite-image.ts): a session that a live
// or killed opencode has not checkpointed yet is seen too. Reads are cached (per vendor context, in OpencodeStore)
// until the database or its WAL changes. A large store costs memory while it is read (the whole file is loaded), so
// the live follower asks the CLI's own server first and reads the database only to confirm, to check a resume, or
// when the server never answers.
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { displayPath } from '../kit/home.js';
import { imageKey, num, readImage, rows, SQL_JS, str, withImage, type SqlJs } from '../kit/sqlite-image.js';
import { pathForms } from '../kit/store-fs.js';

/** `ses_` + 12 hex (the inverted creation time) + 14 base62 (docs/vendors.md §6). */
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

type SessionIndex = Map<string, OpencodeSessionRow>;

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

/** opencode's store reader of one vendor context: the session index and the listing, each cached per database state. */
export class OpencodeStore {
  private index: { path: string; key: string; sessions: SessionIndex } | null = null;
  private loading: { path: string; key: string; done: Promise<SessionIndex> } | null = null;
  private listing: { path: string; key: string; found: FoundSession[] } | null = null;

  constructor(private readonly sql: SqlJs) {}

  private async loadIndex(path: string): Promise<SessionIndex> {
    const image = await readImage(path);
    if (!image) return new Map();
    if (this.index && this.index.path === path && this.index.key === image.key) return this.index.sessions;
    const sessions: SessionIndex = new Map();
    await withImage(this.sql, image.bytes, (db) => {
      for (const r of rows(db, 'SELECT id, directory, parent_id, title, time_created, time_updated FROM session')) {
        const row = rowOf(r);
        if (row) sessions.set(row.id, row);
      }
    });
    this.index = { path, key: image.key, sessions };
    return sessions;
  }

  /** Every session row of the store, id → row (empty when there is no database). One read per database state. */
  async sessions(env: VendorEnv): Promise<SessionIndex> {
    const path = opencodeDbPath(env);
    const key = await imageKey(path);
    if (key === null) return new Map();
    if (this.index && this.index.path === path && this.index.key === key) return this.index.sessions;
    if (this.loading && this.loading.path === path && this.loading.key === key) return this.loading.done;
    const done = this.loadIndex(path);
    this.loading = { path, key, done };
    try {
      return await done;
    } finally {
      if (this.loading?.done === done) this.loading = null;
    }
  }

  /** The session's row, or null. Only the id is compared (it never becomes part of a path or a query text). */
  async find(sessionId: string, env: VendorEnv): Promise<OpencodeSessionRow | null> {
    if (!OPENCODE_SESSION_ID.test(sessionId)) return null;
    return (await this.sessions(env)).get(sessionId) ?? null;
  }

  /** Whether the store holds `sessionId` for `cwd` (its directory is the cwd, as written or resolved). */
  async sessionIn(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    const row = await this.find(sessionId, env);
    return row !== null && (await pathForms(cwd)).includes(row.directory); // the CLI records the directory it runs in
  }

  /** The store's main sessions (sub-agents' sessions left out), newest activity first, with their first prompts. */
  async list(env: VendorEnv): Promise<FoundSession[]> {
    const path = opencodeDbPath(env);
    const key = await imageKey(path);
    if (key === null) return [];
    if (this.listing && this.listing.path === path && this.listing.key === key) return this.listing.found;
    const image = await readImage(path);
    if (!image) return [];
    const found =
      (await withImage(this.sql, image.bytes, (db) =>
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
    this.listing = { path, key: image.key, found };
    return found;
  }
}

export const OPENCODE_STORE = stateSlot('opencode store', (ctx) => new OpencodeStore(ctx.state(SQL_JS)));
