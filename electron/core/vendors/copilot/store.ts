// GitHub Copilot CLI's on-disk store (docs/vendors.md §4), read without starting the CLI.
//   ${COPILOT_HOME:-$HOME/.copilot}/session-state/<uuid>/workspace.yaml   (id, cwd, name, …: written at TUI start)
//   ${COPILOT_HOME:-$HOME/.copilot}/session-state/<uuid>/events.jsonl     ({type, data, id, timestamp, parentId})
// Sessions are global (not per cwd): `--resume=<id>` finds one from any directory. One CopilotStore per vendor
// context holds the cache of parsed files.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { HEAD_BYTES, readHead } from '../kit/head.js';
import { displayPath, vendorHome } from '../kit/home.js';
import { LOWER_UUID } from '../kit/ids.js';
import { isRecord, jsonLines } from '../kit/jsonl.js';
import type { Held, MintedIdStore } from '../kit/minted-id.js';
import { pathExists } from '../kit/store-fs.js';
import { FileCache } from '../kit/transcript-cache.js';

/** Copilot session ids: a lowercase UUID (resume also takes 7+ hex prefixes and names; Baton stores full ids). */
export const COPILOT_SESSION_ID = LOWER_UUID;

/** `${COPILOT_HOME:-$HOME/.copilot}`. */
export function copilotHome(env: VendorEnv): string {
  return vendorHome(env, 'COPILOT_HOME', '.copilot');
}

export function copilotSessionStateDir(env: VendorEnv): string {
  return join(copilotHome(env), 'session-state');
}

/** The folder of a session; the id must match COPILOT_SESSION_ID (it becomes part of a path). */
export function copilotSessionDir(sessionId: string, env: VendorEnv): string | null {
  if (!COPILOT_SESSION_ID.test(sessionId)) return null;
  return join(copilotSessionStateDir(env), sessionId);
}

/** The store holds this session: its workspace.yaml (written at start) or its events.jsonl. */
export async function copilotSessionExists(sessionId: string, env: VendorEnv): Promise<boolean> {
  const dir = copilotSessionDir(sessionId, env);
  if (dir === null) return false;
  return (await pathExists(join(dir, 'workspace.yaml'))) || (await pathExists(join(dir, 'events.jsonl')));
}

/** One scalar of a flat YAML mapping: plain, 'single' or "double" quoted; `~`/`null`/empty → null. */
function yamlScalar(raw: string): string | null {
  const v = raw.trim();
  if (v === '' || v === '~' || v === 'null') return null;
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  const comment = v.search(/\s#/);
  return comment >= 0 ? v.slice(0, comment).trimEnd() : v;
}

/** workspace.yaml is a flat `key: value` mapping; nested or list values are skipped. */
export function parseWorkspaceYaml(text: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (!m) continue;
    out[m[1]!] = yamlScalar(m[2] ?? '');
  }
  return out;
}

export interface CopilotEvents {
  sessionId: string | null;
  cwd: string | null;
  /** `data.content` of the first `user.message`. */
  firstPrompt: string | null;
}

/** Parses (the head of) events.jsonl; a torn last line is ignored. */
export function parseCopilotEvents(text: string): CopilotEvents {
  const out: CopilotEvents = { sessionId: null, cwd: null, firstPrompt: null };
  for (const rec of jsonLines(text)) {
    if (!isRecord(rec)) continue;
    const data = isRecord(rec.data) ? rec.data : {};
    if (rec.type === 'session.start') {
      if (typeof data.sessionId === 'string') out.sessionId = data.sessionId;
      const context = data.context as { cwd?: unknown } | undefined;
      if (typeof context?.cwd === 'string') out.cwd = context.cwd;
    } else if (rec.type === 'user.message' && out.firstPrompt === null && typeof data.content === 'string') {
      out.firstPrompt = data.content;
      break;
    }
  }
  return out;
}

/** The session has at least one user message: there is a conversation to resume. */
export async function copilotHasConversation(sessionId: string, env: VendorEnv): Promise<boolean> {
  const dir = copilotSessionDir(sessionId, env);
  if (dir === null) return false;
  try {
    return parseCopilotEvents(await readHead(join(dir, 'events.jsonl'), HEAD_BYTES)).firstPrompt !== null;
  } catch {
    return false;
  }
}

/** Copilot's store reader: the session folder (written at TUI start) confirms an id; a user message makes it a conversation. */
export class CopilotStore implements MintedIdStore {
  /** exists() is the folder, written at TUI start: it confirms a session held as 'started' too. */
  readonly confirmsStarted = true;

  private readonly workspaceCache = new FileCache<Record<string, string | null>>();
  private readonly eventsCache = new FileCache<CopilotEvents>();

  /** For tests: how many files the cache holds. */
  get cacheSize(): number {
    return this.workspaceCache.size + this.eventsCache.size;
  }

  exists(sessionId: string, _cwd: string, env: VendorEnv): Promise<boolean> {
    return copilotSessionExists(sessionId, env);
  }

  async held(sessionId: string, _cwd: string, env: VendorEnv): Promise<Held> {
    if (!(await copilotSessionExists(sessionId, env))) return 'none';
    return (await copilotHasConversation(sessionId, env)) ? 'conversation' : 'started';
  }

  async where(_cwd: string, env: VendorEnv): Promise<string> {
    return displayPath(copilotSessionStateDir(env), env);
  }

  /** Every session with at least one user message, newest first. */
  async list(env: VendorEnv): Promise<FoundSession[]> {
    const root = copilotSessionStateDir(env);
    let names: string[];
    try {
      names = await readdir(root);
    } catch {
      return [];
    }
    const seen = new Set<string>();
    const found: (FoundSession & { ms: number })[] = [];
    for (const name of names) {
      if (!COPILOT_SESSION_ID.test(name)) continue; // also skips .session-operation-locks and other dot folders
      const wsPath = join(root, name, 'workspace.yaml');
      const evPath = join(root, name, 'events.jsonl');
      seen.add(wsPath).add(evPath);
      const ws = await this.workspaceCache.get(wsPath, async (p) => parseWorkspaceYaml(await readFile(p, 'utf8')));
      const ev = await this.eventsCache.get(evPath, async (p) => parseCopilotEvents(await readHead(p, HEAD_BYTES)));
      if (!ev || ev.value.firstPrompt === null) continue;
      const ms = Math.max(ev.mtimeMs, ws?.mtimeMs ?? 0);
      found.push({
        sessionId: name,
        cwd: ws?.value.cwd ?? ev.value.cwd ?? null,
        title: ws?.value.name ?? ws?.value.summary ?? null,
        firstPrompt: ev.value.firstPrompt,
        lastActivity: new Date(ms).toISOString(),
        ms,
      });
    }
    this.workspaceCache.prune(root, seen);
    this.eventsCache.prune(root, seen);
    return found.sort((a, b) => b.ms - a.ms).map(({ ms: _ms, ...s }) => s);
  }
}

export const COPILOT_STORE = stateSlot('copilot store', () => new CopilotStore());
