// Claude Code's on-disk store (docs/vendors.md §1): where transcripts and the live pid registry live, read without
// starting the CLI. One ClaudeStore per vendor context: it holds the listing's cache (sessions.ts).
import { readFile, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { FoundSession, SessionIndex, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { displayPath, vendorHome } from '../kit/home.js';
import { LOWER_UUID } from '../kit/ids.js';
import type { MintedIdStore } from '../kit/minted-id.js';
import { pathExists } from '../kit/store-fs.js';
import { indexClaudeSessions } from './session-index.js';
import { ClaudeSessionList } from './sessions.js';

/** Claude session ids as the CLI mints them: a lowercase UUID. */
export const CLAUDE_SESSION_ID = LOWER_UUID;

/** `${CLAUDE_CONFIG_DIR:-$HOME/.claude}`. */
export function claudeConfigDir(env: VendorEnv): string {
  return vendorHome(env, 'CLAUDE_CONFIG_DIR', '.claude');
}

/** The config dir as the user would write it (`~/.claude`), for messages. */
export function displayConfigDir(env: VendorEnv): string {
  return displayPath(claudeConfigDir(env), env);
}

/**
 * The project folder name for a (realpath'd) cwd: every non-alphanumeric UTF-16 unit becomes "-"; names over 200
 * characters are cut and suffixed with a hash of the raw path. Lossy: never invert it.
 */
export function encodeClaudeCwd(cwd: string): string {
  const enc = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (enc.length <= 200) return enc;
  let h = 0;
  for (let i = 0; i < cwd.length; i++) h = ((h << 5) - h + cwd.charCodeAt(i)) | 0;
  return `${enc.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

/**
 * Where the transcript of `sessionId` is, or null: first `projects/<enc(realpath cwd)>/<id>.jsonl`, then any
 * `projects/*\/<id>.jsonl` (the encoding is lossy, the cwd may have moved or may not exist here).
 * The id must already match CLAUDE_SESSION_ID (it becomes part of a path).
 */
export async function findClaudeTranscript(sessionId: string, cwd: string, env: VendorEnv): Promise<string | null> {
  if (!CLAUDE_SESSION_ID.test(sessionId)) return null;
  const projects = join(claudeConfigDir(env), 'projects');
  let real = cwd;
  try {
    real = await realpath(cwd);
  } catch {
    /* the cwd is gone or from another machine: try it as written */
  }
  const direct = join(projects, encodeClaudeCwd(real), `${sessionId}.jsonl`);
  if (await pathExists(direct)) return direct;
  let dirs: string[];
  try {
    dirs = await readdir(projects);
  } catch {
    return null;
  }
  for (const d of dirs) {
    const candidate = join(projects, d, `${sessionId}.jsonl`);
    if (await pathExists(candidate)) return candidate;
  }
  return null;
}

/** The fields of `sessions/<pid>.json` Baton relies on; the CLI writes more. */
export const claudeRegistrySchema = z.looseObject({
  pid: z.number().int().positive(),
  sessionId: z.string().regex(CLAUDE_SESSION_ID),
  cwd: z.string().min(1),
  startedAt: z.number().optional(),
  procStart: z.union([z.string(), z.number()]).optional(),
  version: z.string().optional(),
  kind: z.string().optional(),
  entrypoint: z.string().optional(),
  name: z.string().nullable().optional(),
  status: z.string().optional(),
  updatedAt: z.number().optional(),
});
export type ClaudeRegistryEntry = z.infer<typeof claudeRegistrySchema>;

export function claudeRegistryPath(pid: number, env: VendorEnv): string {
  return join(claudeConfigDir(env), 'sessions', `${pid}.json`);
}

/** The live registry entry of the claude process `pid`, or null when absent, partial or not this pid's. */
export async function readClaudeRegistry(pid: number, env: VendorEnv): Promise<ClaudeRegistryEntry | null> {
  let text: string;
  try {
    text = await readFile(claudeRegistryPath(pid, env), 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null; // being written
  }
  const parsed = claudeRegistrySchema.safeParse(json);
  if (!parsed.success || parsed.data.pid !== pid) return null;
  return parsed.data;
}

/** Claude's store reader: a session is confirmed once its transcript exists (the first prompt writes it). */
export class ClaudeStore implements MintedIdStore {
  /** The import listing, with its cache of parsed heads. */
  readonly sessions = new ClaudeSessionList();

  async exists(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    return (await findClaudeTranscript(sessionId, cwd, env)) !== null;
  }

  /** Every session at once, for checking many runs (session-index.ts). */
  index(env: VendorEnv): Promise<SessionIndex | null> {
    return indexClaudeSessions(env);
  }

  async where(_cwd: string, env: VendorEnv): Promise<string> {
    return `${displayConfigDir(env)}/projects`;
  }

  list(env: VendorEnv): Promise<FoundSession[]> {
    return this.sessions.list(join(claudeConfigDir(env), 'projects'));
  }
}

export const CLAUDE_STORE = stateSlot('claude store', () => new ClaudeStore());
