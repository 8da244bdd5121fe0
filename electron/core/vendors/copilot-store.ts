// GitHub Copilot CLI's on-disk store (vendors.md §4), read without starting the CLI.
//   ${COPILOT_HOME:-$HOME/.copilot}/session-state/<uuid>/workspace.yaml   (id, cwd, name, …: written at TUI start)
//   ${COPILOT_HOME:-$HOME/.copilot}/session-state/<uuid>/events.jsonl     ({type, data, id, timestamp, parentId})
// Sessions are global (not per cwd): `--resume=<id>` finds one from any directory.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from './adapter.js';
import { pathExists } from './store-fs.js';
import { FileCache, HEAD_BYTES, readHead } from './transcript-cache.js';

/** Copilot session ids: a lowercase UUID (resume also takes 7+ hex prefixes and names; Baton stores full ids). */
export const COPILOT_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `${COPILOT_HOME:-$HOME/.copilot}`. */
export function copilotHome(env: VendorEnv): string {
  return env.COPILOT_HOME || join(env.HOME || '/', '.copilot');
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
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let rec: { type?: unknown; data?: Record<string, unknown> };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      continue;
    }
    const data = rec.data && typeof rec.data === 'object' ? rec.data : {};
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

// ---------- a cache of parsed files, so a refresh re-reads only what changed ----------

const workspaceCache = new FileCache<Record<string, string | null>>();
const eventsCache = new FileCache<CopilotEvents>();

/** For tests: how many files the cache holds. */
export function copilotCacheSize(): number {
  return workspaceCache.size + eventsCache.size;
}

/** Every session with at least one user message, newest first. */
export async function listCopilotSessions(env: VendorEnv): Promise<FoundSession[]> {
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
    const ws = await workspaceCache.get(wsPath, async (p) => parseWorkspaceYaml(await readFile(p, 'utf8')));
    const ev = await eventsCache.get(evPath, async (p) => parseCopilotEvents(await readHead(p, HEAD_BYTES)));
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
  workspaceCache.prune(root, seen);
  eventsCache.prune(root, seen);
  return found.sort((a, b) => b.ms - a.ms).map(({ ms: _ms, ...s }) => s);
}
