// Qwen Code's on-disk store (docs/vendors.md §5), read without starting the CLI.
//   ${QWEN_HOME:-$HOME/.qwen}/projects/<cwd with [^a-zA-Z0-9] → "-">/chats/<uuid>.jsonl   (at the first prompt)
//   …/chats/<uuid>.runtime.json   (live-process sidecar: {schema_version, pid, session_id, work_dir, …})
// Lines: {uuid, parentUuid, sessionId, timestamp, type: "user"|"assistant"|"system", provenance, cwd, version,
// message: {role, parts: [{text}]}, …}. Sessions are looked up per project (cwd). One QwenStore per vendor context
// holds the cache of parsed transcripts.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FoundSession, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { HEAD_BYTES, readHead } from '../kit/head.js';
import { displayPath, vendorHome } from '../kit/home.js';
import { LOWER_UUID, UUID_SOURCE } from '../kit/ids.js';
import { isRecord, jsonLines, textOf } from '../kit/jsonl.js';
import type { MintedIdStore } from '../kit/minted-id.js';
import { pathExists, pathForms } from '../kit/store-fs.js';
import { FileCache } from '../kit/transcript-cache.js';

/** Qwen session ids: a lowercase UUID. */
export const QWEN_SESSION_ID = LOWER_UUID;

/** `${QWEN_HOME:-$HOME/.qwen}`. */
export function qwenHome(env: VendorEnv): string {
  return vendorHome(env, 'QWEN_HOME', '.qwen');
}

/** The project folder name for a cwd: every non-alphanumeric UTF-16 unit becomes "-", no length cap. Lossy. */
export function encodeQwenCwd(cwd: string, platform: NodeJS.Platform = process.platform): string {
  const p = platform === 'win32' ? cwd.toLowerCase() : cwd;
  return p.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The chats folders `cwd` may have: its encoding as given and, when different, of its realpath. */
export async function qwenChatsDirs(cwd: string, env: VendorEnv): Promise<string[]> {
  const projects = join(qwenHome(env), 'projects');
  // A cwd that is gone or from another machine: as written only.
  const dirs = (await pathForms(cwd)).map((c) => join(projects, encodeQwenCwd(c), 'chats'));
  return [...new Set(dirs)];
}

/** Where the transcript of `sessionId` for `cwd` is, or null. The id must match QWEN_SESSION_ID (it becomes a path). */
export async function findQwenTranscript(sessionId: string, cwd: string, env: VendorEnv): Promise<string | null> {
  if (!QWEN_SESSION_ID.test(sessionId)) return null;
  for (const dir of await qwenChatsDirs(cwd, env)) {
    const path = join(dir, `${sessionId}.jsonl`);
    if (await pathExists(path)) return path;
  }
  return null;
}

/** The live-process sidecar `chats/<id>.runtime.json`. */
export interface QwenRuntime {
  pid: number;
  sessionId: string;
  workDir: string | null;
  startedAt: number | null;
  version: string | null;
}

export function parseQwenRuntime(text: string): QwenRuntime | null {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!rec || typeof rec !== 'object') return null;
  if (typeof rec.pid !== 'number' || !Number.isInteger(rec.pid) || rec.pid <= 0) return null;
  if (typeof rec.session_id !== 'string' || !QWEN_SESSION_ID.test(rec.session_id)) return null;
  return {
    pid: rec.pid,
    sessionId: rec.session_id,
    workDir: typeof rec.work_dir === 'string' ? rec.work_dir : null,
    startedAt: typeof rec.started_at === 'number' ? rec.started_at : null,
    version: typeof rec.qwen_version === 'string' ? rec.qwen_version : null,
  };
}

export async function readQwenRuntime(sessionId: string, cwd: string, env: VendorEnv): Promise<QwenRuntime | null> {
  if (!QWEN_SESSION_ID.test(sessionId)) return null;
  for (const dir of await qwenChatsDirs(cwd, env)) {
    try {
      const rt = parseQwenRuntime(await readFile(join(dir, `${sessionId}.runtime.json`), 'utf8'));
      if (rt && rt.sessionId === sessionId) return rt;
    } catch {
      /* absent */
    }
  }
  return null;
}

export interface QwenChat {
  sessionId: string | null;
  cwd: string | null;
  /** The first line the user typed (`type: "user"`, `provenance: "real_user"` where given). */
  firstPrompt: string | null;
}

/** The text of a message's `parts` (a list of `{text}`; nothing else counts). */
function partsText(message: unknown): string | null {
  const parts = isRecord(message) ? message.parts : undefined;
  return Array.isArray(parts) ? textOf(parts) : null;
}

/** Parses (the head of) a transcript; a torn last line is ignored. */
export function parseQwenChat(text: string): QwenChat {
  const out: QwenChat = { sessionId: null, cwd: null, firstPrompt: null };
  for (const rec of jsonLines(text)) {
    if (!isRecord(rec)) continue;
    if (out.sessionId === null && typeof rec.sessionId === 'string') out.sessionId = rec.sessionId;
    if (out.cwd === null && typeof rec.cwd === 'string') out.cwd = rec.cwd;
    if (rec.type === 'user' && (rec.provenance === undefined || rec.provenance === 'real_user')) {
      const t = partsText(rec.message);
      if (t !== null) {
        out.firstPrompt = t;
        break;
      }
    }
  }
  return out;
}

const TRANSCRIPT = new RegExp(`^(${UUID_SOURCE})\\.jsonl$`);

/** Qwen's store reader: the transcript (written at the first prompt) confirms an id. */
export class QwenStore implements MintedIdStore {
  private readonly cache = new FileCache<QwenChat>();

  /** For tests: how many files the cache holds. */
  get cacheSize(): number {
    return this.cache.size;
  }

  async exists(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    return (await findQwenTranscript(sessionId, cwd, env)) !== null;
  }

  async where(cwd: string, env: VendorEnv): Promise<string> {
    return displayPath(join(qwenHome(env), 'projects', encodeQwenCwd(cwd), 'chats'), env);
  }

  /** Every transcript in the store, newest first. */
  async list(env: VendorEnv): Promise<FoundSession[]> {
    const projects = join(qwenHome(env), 'projects');
    let dirs: string[];
    try {
      dirs = await readdir(projects);
    } catch {
      return [];
    }
    const seen = new Set<string>();
    const found: (FoundSession & { ms: number })[] = [];
    for (const d of dirs) {
      const chats = join(projects, d, 'chats');
      let names: string[];
      try {
        names = await readdir(chats);
      } catch {
        continue;
      }
      for (const name of names) {
        const m = TRANSCRIPT.exec(name);
        if (!m) continue;
        const path = join(chats, name);
        seen.add(path);
        const entry = await this.cache.get(path, async (p) => parseQwenChat(await readHead(p, HEAD_BYTES)));
        if (!entry) continue;
        found.push({
          sessionId: m[1]!,
          cwd: entry.value.cwd,
          title: null,
          firstPrompt: entry.value.firstPrompt,
          lastActivity: new Date(entry.mtimeMs).toISOString(),
          ms: entry.mtimeMs,
        });
      }
    }
    this.cache.prune(projects, seen);
    return found.sort((a, b) => b.ms - a.ms).map(({ ms: _ms, ...s }) => s);
  }
}

export const QWEN_STORE = stateSlot('qwen store', () => new QwenStore());
