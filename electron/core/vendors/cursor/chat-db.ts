// A Cursor chat's store.db (docs/vendors.md §7, ALL [reported]): SQLite tables meta(key, value) and blobs(id, data). Meta
// row '0' is hex-encoded JSON {agentId, latestRootBlobId, name, mode, createdAt, lastUsedModel}; blobs are keyed by
// sha256(data): JSON messages {role, content} and a protobuf root whose field 1 lists the message ids in order.
import { textOf } from '../kit/jsonl.js';
import { readImage, rows, withImage, type SqlDatabase, type SqlJs } from '../kit/sqlite-image.js';

export interface CursorChatMeta {
  agentId: string | null;
  latestRootBlobId: string | null;
  name: string | null;
  mode: string | null;
  createdAt: number | null;
  lastUsedModel: string | null;
}

/** meta row '0': hex-encoded JSON. Null when it is not. */
export function parseChatMeta(hex: string): CursorChatMeta | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return null;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(hex, 'hex').toString('utf8'));
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const m = v as Record<string, unknown>;
  const s = (k: string) => (typeof m[k] === 'string' ? (m[k] as string) : null);
  return {
    agentId: s('agentId'),
    latestRootBlobId: s('latestRootBlobId'),
    name: s('name'),
    mode: s('mode'),
    createdAt: typeof m.createdAt === 'number' ? m.createdAt : null,
    lastUsedModel: s('lastUsedModel'),
  };
}

function varint(buf: Uint8Array, at: number): [number, number] | null {
  let value = 0;
  let mul = 1;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * mul;
    mul *= 128;
    if ((b & 0x80) === 0) return [value, i + 1];
  }
  return null;
}

/** The message ids a root blob lists (protobuf field 1, 32-byte sha256 values, hex), in order. Other fields skipped. */
export function parseRootBlob(buf: Uint8Array): string[] {
  const ids: string[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = varint(buf, at);
    if (!tag) break;
    const [key, next] = tag;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    at = next;
    if (wire === 0) {
      const v = varint(buf, at);
      if (!v) break;
      at = v[1];
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const len = varint(buf, at);
      if (!len || len[1] + len[0] > buf.length) break;
      const value = buf.subarray(len[1], len[1] + len[0]);
      at = len[1] + len[0];
      if (field === 1 && value.length === 32) ids.push(Buffer.from(value).toString('hex'));
    } else break;
  }
  return ids;
}

export interface CursorChat {
  meta: CursorChatMeta;
  /** The chat's messages in order: role and text. */
  messages: { role: string; text: string | null }[];
}

/** Reads an opened store.db: its meta row and the messages its latest root lists. */
export function readChatDb(db: SqlDatabase): CursorChat | null {
  const metaRow = rows(db, "SELECT value FROM meta WHERE key = '0'")[0];
  const meta = metaRow ? parseChatMeta(String(metaRow.value ?? '')) : null;
  if (!meta) return null;
  const blob = (id: string): Uint8Array | null => {
    const r = rows(db, 'SELECT data FROM blobs WHERE id = ?', [id])[0];
    const d = r?.data;
    return d instanceof Uint8Array ? d : typeof d === 'string' ? Buffer.from(d, 'utf8') : null;
  };
  const root = meta.latestRootBlobId ? blob(meta.latestRootBlobId) : null;
  const messages: CursorChat['messages'] = [];
  for (const id of root ? parseRootBlob(root) : []) {
    const data = blob(id);
    if (!data) continue;
    try {
      const m = JSON.parse(Buffer.from(data).toString('utf8')) as { role?: unknown; content?: unknown };
      if (typeof m.role === 'string')
        messages.push({ role: m.role, text: textOf(m.content, (type) => type === undefined || type === 'text') });
    } catch {
      /* not a JSON message */
    }
  }
  return { meta, messages };
}

/** Reads a chat's store.db file (with its WAL, if any). */
export async function readChatStore(sql: SqlJs, path: string): Promise<CursorChat | null> {
  const image = await readImage(path);
  if (!image) return null;
  return withImage(sql, image.bytes, readChatDb);
}
