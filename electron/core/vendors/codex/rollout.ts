// A Codex rollout (docs/vendors.md §2): lines `{timestamp, ordinal, type, payload}`; line 1 is `session_meta` (id, cwd,
// time, provider); the first prompt is the first user message after the `<environment_context>` item.
import { HEAD_BYTES, readHeadLines } from '../kit/head.js';
import { isRecord, jsonLines, textOf } from '../kit/jsonl.js';
import { LOWER_UUID } from '../kit/ids.js';

/** How much of a rollout is read to find its session_meta and first prompt. */
export const ROLLOUT_HEAD_BYTES = HEAD_BYTES;

export interface RolloutHead {
  sessionId: string;
  cwd: string | null;
  /** session_meta.timestamp (ISO) when present. */
  startedAt: string | null;
  modelProvider: string | null;
  firstPrompt: string | null;
}

const ENV_CONTEXT = '<environment_context>';

/**
 * session_meta (line 1) and the first user prompt of a rollout's text: the first user message after the
 * `<environment_context>` item (or, with no such item, the first user message that is not a `<…>` block).
 * A torn or unparsable line is skipped. Null when the first line is not a valid session_meta (its id a lowercase
 * UUID: CODEX_SESSION_ID).
 */
export function parseRolloutHead(text: string): RolloutHead | null {
  let head: RolloutHead | null = null;
  let seenEnv = false;
  let fallbackPrompt: string | null = null;
  for (const rec of jsonLines(text)) {
    if (rec === undefined && head === null) return null;
    const line = isRecord(rec) ? rec : {};
    const p = isRecord(line.payload) ? line.payload : undefined;
    if (head === null) {
      const id = p && (typeof p.id === 'string' ? p.id : typeof p.session_id === 'string' ? p.session_id : null);
      if (line.type !== 'session_meta' || !p || !id || !LOWER_UUID.test(id)) return null;
      head = {
        sessionId: id,
        cwd: typeof p.cwd === 'string' ? p.cwd : null,
        startedAt: typeof p.timestamp === 'string' ? p.timestamp : null,
        modelProvider: typeof p.model_provider === 'string' ? p.model_provider : null,
        firstPrompt: null,
      };
      continue;
    }
    if (line.type !== 'response_item' || !p || p.type !== 'message' || p.role !== 'user') continue;
    const t = textOf(p.content);
    if (t === null) continue;
    if (t.trimStart().startsWith(ENV_CONTEXT)) {
      seenEnv = true;
      continue;
    }
    if (seenEnv) {
      head.firstPrompt = t;
      return head;
    }
    if (fallbackPrompt === null && !t.trimStart().startsWith('<')) fallbackPrompt = t;
  }
  if (head && head.firstPrompt === null) head.firstPrompt = fallbackPrompt;
  return head;
}

/** The session_meta and first prompt of the rollout at `path` (its complete lines among the first ROLLOUT_HEAD_BYTES). */
export async function readRolloutHead(path: string): Promise<RolloutHead | null> {
  const text = await readHeadLines(path, ROLLOUT_HEAD_BYTES);
  return text === null ? null : parseRolloutHead(text);
}
