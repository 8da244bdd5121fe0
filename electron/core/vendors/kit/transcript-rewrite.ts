// A JSON Lines transcript, copied for a new session id and directory (docs/bundles.md §2): a fork by copy, a fork cut
// at a snapshot, a bundle placed on another machine. Every string that is the old id becomes the new id, and the old
// directory, wherever a string holds it as a whole path or the start of one, becomes the new one; the vendor's own `rewrite` then fixes
// what keys on them in another form (Gemini's hash of the directory).
import type { TranscriptFiles, TranscriptRemap } from '../adapter.js';
import { isRecord } from './jsonl.js';

/** The bytes of a transcript up to `limit`, ending at the last whole line (a line the CLI was writing is left out). */
export function wholeLinesUpTo(bytes: Uint8Array, limit: number = bytes.length): Uint8Array {
  const end = Math.min(limit, bytes.length);
  for (let i = end - 1; i >= 0; i--) if (bytes[i] === 0x0a) return bytes.subarray(0, i + 1);
  return bytes.subarray(0, 0);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The old directory wherever it appears as a whole path or the start of one (never `/a/proj2` for `/a/proj`). */
function directoryPattern(cwd: string): RegExp {
  return new RegExp(`${escapeRegExp(cwd)}(?=$|[/\\s"'\`:;,)\\]}])`, 'g');
}

function remapString(s: string, m: TranscriptRemap, dir: RegExp | null): string {
  if (s === m.fromId) return m.toId;
  if (dir === null || !s.includes(m.fromCwd)) return s;
  return s.replace(dir, () => m.toCwd);
}

function remapValue(v: unknown, m: TranscriptRemap, dir: RegExp | null): unknown {
  if (typeof v === 'string') return remapString(v, m, dir);
  if (Array.isArray(v)) return v.map((x) => remapValue(x, m, dir));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = remapValue(x, m, dir);
    return out;
  }
  return v;
}

/**
 * The transcript's whole lines, each rewritten for `remap`. A line that is not JSON is refused: the copy would not be
 * the conversation the CLI wrote (the caller cuts at a line end first).
 */
export function rewriteTranscript(text: string, remap: TranscriptRemap, rewrite?: TranscriptFiles['rewrite']): string {
  const out: string[] = [];
  const dir = remap.fromCwd === remap.toCwd || remap.fromCwd === '/' ? null : directoryPattern(remap.fromCwd);
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      throw new Error('a line of the transcript is not JSON');
    }
    const moved = remapValue(rec, remap, dir);
    if (rewrite && isRecord(moved)) rewrite(moved, remap);
    out.push(JSON.stringify(moved));
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
