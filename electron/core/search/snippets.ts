// What a result shows (docs/search.md §5): the text of a matching message, read back from its line in the transcript
// (the index keeps only where the line is), and its lines that hold the words, with a line of context around each.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type { SearchLine } from '../../../shared/contract.js';
import type { TranscriptLine, TranscriptSource } from '../vendors/adapter.js';
import { highlights, type ParsedQuery } from './query.js';

/** Lines of one message shown in a result (matches with their context). */
const MAX_SHOWN_LINES = 6;
/** A long line is cut to this many characters around its first match. */
const MAX_LINE_CHARS = 240;

/** The message on the line at [off, off+len) of `path`; null when the file no longer holds it there. */
export function readMessage(path: string, off: number, len: number, source: TranscriptSource): TranscriptLine | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.allocUnsafe(len);
    if (readSync(fd, buf, 0, len, off) !== len) return null;
    const line = source.line(JSON.parse(buf.toString('utf8')) as unknown);
    return line?.role && line.text ? line : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Every message of a transcript file, in order. */
export function readMessages(path: string, source: TranscriptSource): TranscriptLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: TranscriptLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    const line = source.line(value);
    if (line?.role && line.text) out.push(line);
  }
  return out;
}

function cut(text: string, match: [number, number][]): SearchLine {
  if (text.length <= MAX_LINE_CHARS) return { text, match };
  const first = match[0]?.[0] ?? 0;
  const start = Math.max(0, Math.min(first - 60, text.length - MAX_LINE_CHARS));
  const shown = `${start > 0 ? '…' : ''}${text.slice(start, start + MAX_LINE_CHARS)}${start + MAX_LINE_CHARS < text.length ? '…' : ''}`;
  const shift = start > 0 ? 1 - start : 0;
  return {
    text: shown,
    match: match
      .map(([a, b]): [number, number] => [a + shift, b + shift])
      .filter(([a, b]) => a >= 0 && b <= shown.length),
  };
}

/** The lines of `text` holding a word of `q`, each with the line before and after it, in order. */
export function matchingLines(text: string, q: ParsedQuery): SearchLine[] {
  const lines = text.split('\n');
  const marks = lines.map((l) => highlights(l, q));
  const keep = new Set<number>();
  for (const [i, m] of marks.entries()) {
    if (m.length === 0) continue;
    for (const j of [i - 1, i, i + 1]) if (j >= 0 && j < lines.length && lines[j]!.trim() !== '') keep.add(j);
    if (keep.size >= MAX_SHOWN_LINES) break;
  }
  return [...keep]
    .sort((a, b) => a - b)
    .slice(0, MAX_SHOWN_LINES)
    .map((i) => cut(lines[i]!, marks[i]!));
}
