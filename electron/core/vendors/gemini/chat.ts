// A Gemini CLI chat file (docs/vendors.md §3 "Format"): line 1 is `{sessionId, projectHash, startTime, lastUpdated, kind}`;
// then messages `{id, timestamp, type: "user"|"gemini", content}` and updates `{"$set": {…}}` / `{"$rewindTo": "<id>"}`.
// Older releases wrote one `session-*.json` object with a `messages` array; both are read, from their head (and,
// for the title, their tail) only.
import { HEAD_BYTES, readHeadTail } from '../kit/head.js';
import { isRecord, jsonLines, textOf } from '../kit/jsonl.js';

/** How much of the end is read for the `summary` (the title in `--list-sessions`). */
const TAIL_BYTES = 16 * 1024;

/** What Baton needs from one chat file. */
export interface GeminiChat {
  sessionId: string;
  startTime: string | null;
  kind: string | null;
  /** The file holds at least one user or model message (metadata-only stubs do not). */
  hasMessages: boolean;
  /** The first user prompt that is not the CLI's own `<session_context>` turn. */
  firstPrompt: string | null;
  /** The generated summary (`$set.summary`), the CLI's title for the session. */
  summary: string | null;
}

interface Message {
  id: string | null;
  type: string;
  text: string | null;
}

function toMessage(rec: unknown): Message | null {
  if (!rec || typeof rec !== 'object') return null;
  const r = rec as { id?: unknown; type?: unknown; content?: unknown };
  if (r.type !== 'user' && r.type !== 'gemini') return null;
  return { id: typeof r.id === 'string' ? r.id : null, type: r.type, text: textOf(r.content) };
}

function summarise(
  sessionId: string,
  meta: Record<string, unknown>,
  messages: Message[],
  summary: string | null,
): GeminiChat {
  const first = messages.find(
    (m) => m.type === 'user' && m.text !== null && !m.text.trimStart().startsWith('<session_context>'),
  );
  return {
    sessionId,
    startTime: typeof meta.startTime === 'string' ? meta.startTime : null,
    kind: typeof meta.kind === 'string' ? meta.kind : null,
    hasMessages: messages.length > 0,
    firstPrompt: first?.text ?? null,
    summary,
  };
}

/**
 * Parses the JSONL form. `text` may be cut anywhere (the head of a large file): a torn last line is ignored.
 * Null when line 1 is not a session header.
 */
export function parseGeminiChatJsonl(text: string): GeminiChat | null {
  let meta: Record<string, unknown> | null = null;
  const messages: Message[] = [];
  let summary: string | null = null;
  for (const rec of jsonLines(text)) {
    if (!rec || typeof rec !== 'object') continue;
    if (meta === null) {
      if (typeof (rec as { sessionId?: unknown }).sessionId !== 'string') return null;
      meta = rec as Record<string, unknown>;
      continue;
    }
    const r = rec as { $set?: unknown; $rewindTo?: unknown };
    if (r.$set && typeof r.$set === 'object') {
      const set = r.$set as { summary?: unknown; messages?: unknown };
      if (typeof set.summary === 'string') summary = set.summary;
      if (Array.isArray(set.messages)) {
        messages.length = 0;
        for (const m of set.messages) {
          const msg = toMessage(m);
          if (msg) messages.push(msg);
        }
      }
      continue;
    }
    if (typeof r.$rewindTo === 'string') {
      const at = messages.findIndex((m) => m.id === r.$rewindTo);
      if (at >= 0) messages.length = at;
      continue;
    }
    const msg = toMessage(rec);
    if (msg) messages.push(msg);
  }
  if (meta === null) return null;
  return summarise(meta.sessionId as string, meta, messages, summary);
}

/** Parses the legacy single-object `session-*.json` form (whole file only). */
export function parseGeminiChatJson(text: string): GeminiChat | null {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return null;
  }
  if (!rec || typeof rec !== 'object') return null;
  const r = rec as Record<string, unknown>;
  if (typeof r.sessionId !== 'string') return null;
  const messages = Array.isArray(r.messages) ? r.messages.map(toMessage).filter((m): m is Message => m !== null) : [];
  return summarise(r.sessionId, r, messages, typeof r.summary === 'string' ? r.summary : null);
}

/** The last `$set.summary` in a file's tail (the first, torn line is skipped). */
function summaryInTail(tail: string): string | null {
  let summary: string | null = null;
  const lines = tail
    .split('\n')
    .slice(1)
    .filter((l) => l.includes('"summary"'));
  for (const rec of jsonLines(lines.join('\n'))) {
    const set = isRecord(rec) ? rec.$set : undefined;
    if (isRecord(set) && typeof set.summary === 'string') summary = set.summary;
  }
  return summary;
}

const LEGACY_SESSION_ID = /"sessionId"\s*:\s*("(?:[^"\\]|\\.)*")/;
const LEGACY_FIRST_USER = /"type"\s*:\s*"user"\s*,\s*"content"\s*:\s*\[\s*\{\s*"text"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** Reads a chat file cheaply: its head (and, for the title, its tail). */
export async function readGeminiChat(path: string, size: number): Promise<GeminiChat | null> {
  if (path.endsWith('.json')) {
    const { head } = await readHeadTail(path, size, HEAD_BYTES, 0);
    if (size <= HEAD_BYTES) return parseGeminiChatJson(head);
    // A large legacy file: only what its head says, no full parse.
    const id = LEGACY_SESSION_ID.exec(head);
    if (!id) return null;
    const first = LEGACY_FIRST_USER.exec(head);
    return {
      sessionId: JSON.parse(id[1]!) as string,
      startTime: null,
      kind: null,
      hasMessages: first !== null || /"type"\s*:\s*"(user|gemini)"/.test(head),
      firstPrompt: first ? (JSON.parse(first[1]!) as string) : null,
      summary: null,
    };
  }
  const { head, tail } = await readHeadTail(path, size, HEAD_BYTES, TAIL_BYTES);
  const chat = parseGeminiChatJsonl(head);
  if (chat && tail !== null) chat.summary = summaryInTail(tail) ?? chat.summary;
  return chat;
}
