// opencode and Cursor as opencode-cursor*.test.ts see them: their stores (opencode.db, read with sql.js; Cursor's
// chat folders), read and changed the way a user or a cleanup would, how each CLI resumes a session, and the temp
// machine that points Baton at their fakes.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { FAKES } from '../helpers/server.js';
import { sceneWith, type Scene } from '../helpers/served-vendors.js';

const vendors = createVendors();
export const cursorAdapter = vendors.get('cursor')!;
export const opencodeAdapter = vendors.get('opencode')!;
export const OPENCODE_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const QUESTION = 'what number did I ask you to remember';

// ---------- the stores, read and changed the way a user (or a cleanup) would ----------

const SQL = initSqlJs({ locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm') });
const opencodeDb = (home: string) => join(home, '.local', 'share', 'opencode', 'opencode.db');

async function query(file: string, sql: string, params: string[] = []): Promise<Record<string, unknown>[]> {
  const db = new (await SQL).Database(readFileSync(file));
  try {
    const stmt = db.prepare(sql);
    stmt.bind(params);
    const out: Record<string, unknown>[] = [];
    while (stmt.step()) out.push(stmt.getAsObject());
    stmt.free();
    return out;
  } finally {
    db.close();
  }
}

/** The texts said in an opencode session, from its message/part rows. */
export async function opencodeTexts(home: string, sessionId: string): Promise<string[]> {
  const parts = await query(opencodeDb(home), 'SELECT data FROM part WHERE session_id = ? ORDER BY id', [sessionId]);
  return parts.map((p) => (JSON.parse(String(p.data)) as { text?: string }).text ?? '');
}

/** Deletes a session from opencode.db, as `opencode session delete` would. */
async function deleteOpencodeSession(home: string, sessionId: string): Promise<void> {
  const file = opencodeDb(home);
  const db = new (await SQL).Database(readFileSync(file));
  for (const table of ['part', 'message']) db.run(`DELETE FROM ${table} WHERE session_id = ?`, [sessionId]);
  db.run('DELETE FROM session WHERE id = ?', [sessionId]);
  writeFileSync(file, db.export());
  db.close();
}

export const cursorChat = (home: string, cwd: string, id: string) =>
  join(home, '.cursor', 'chats', createHash('md5').update(cwd).digest('hex'), id);

// ---------- the vendors, as the tests see them ----------

type Vendor = 'opencode' | 'cursor';

interface VendorCase {
  vendor: Vendor;
  adapter: VendorAdapter;
  idPattern: RegExp;
  /** Text the fake TUI shows once it takes input. */
  ready: string;
  /** The id is known when run.start returns (Cursor: create-chat); else only after the first prompt. */
  idAtStart: boolean;
  /** The vendor's own store holds the session, for this cwd. */
  stored(home: string, cwd: string, sessionId: string): Promise<boolean>;
  /** Removes the session from the vendor's store. */
  remove(home: string, cwd: string, sessionId: string): Promise<void>;
  resumeArgv(sessionId: string): string[];
}

export const CASES: VendorCase[] = [
  {
    vendor: 'opencode',
    adapter: opencodeAdapter,
    idPattern: OPENCODE_ID,
    ready: 'ctrl+p',
    idAtStart: false,
    stored: async (home, cwd, id) =>
      existsSync(opencodeDb(home)) &&
      (await query(opencodeDb(home), 'SELECT id FROM session WHERE id = ? AND directory = ?', [id, cwd])).length === 1,
    remove: (home, _cwd, id) => deleteOpencodeSession(home, id),
    resumeArgv: (id) => ['opencode', '-s', id],
  },
  {
    vendor: 'cursor',
    adapter: cursorAdapter,
    idPattern: UUID,
    ready: 'Plan, search, build anything',
    idAtStart: true,
    stored: async (home, cwd, id) => existsSync(join(cursorChat(home, cwd, id), 'store.db')),
    remove: async (home, cwd, id) => rmSync(cursorChat(home, cwd, id), { recursive: true }),
    resumeArgv: (id) => ['cursor-agent', '--resume', id],
  },
];
export const byVendor = (v: Vendor): VendorCase => CASES.find((c) => c.vendor === v)!;

export function scene(): Scene {
  return sceneWith('baton-oc-cursor-', {
    BATON_OPENCODE_BIN: join(FAKES, 'opencode.mjs'),
    BATON_CURSOR_BIN: join(FAKES, 'cursor-agent.mjs'),
  });
}
