// What the search dialog and its transcript view share: a result as opened, where a conversation is held, marked words.
import type { ReactNode } from 'react';
import type { SearchHit, SearchLine, SearchResult } from '../../shared/contract.js';

/** A result opened at one of its hits (null: at its end). */
export interface Opened {
  result: SearchResult;
  hit: SearchHit | null;
  /** What was typed: its words are marked in the message the transcript opens at. */
  text: string;
}

/**
 * [start, end) of each word of `text` that one of the typed words (case aside) is, or starts when typed with `*`:
 * the core's highlights for a whole message, which the transcript view gets without them.
 */
export function wordRanges(text: string, typed: string): [number, number][] {
  const words = [...typed.toLowerCase().matchAll(/([\p{L}\p{N}]+)(\*?)/gu)].map((m) => ({
    w: m[1]!,
    prefix: m[2] === '*',
  }));
  const out: [number, number][] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const lower = m[0].toLowerCase();
    const hit = words.find(({ w, prefix }) => lower === w || (prefix && lower.startsWith(w)));
    if (hit) out.push([m.index, m.index + (lower === hit.w ? m[0].length : hit.w.length)]);
  }
  return out;
}

/** "run / label" for a conversation Baton holds, else "outside Baton". */
export function whereOf(r: Pick<SearchResult, 'holder'>): string {
  return r.holder ? `${r.holder.runName} / ${r.holder.label}` : 'outside Baton';
}

/** A line with its matched words in <mark>. */
export function MarkedLine({ line }: { line: SearchLine }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [i, [a, b]] of line.match.entries()) {
    if (a > at) parts.push(line.text.slice(at, a));
    parts.push(<mark key={i}>{line.text.slice(a, b)}</mark>);
    at = b;
  }
  parts.push(line.text.slice(at));
  return <span className="bt-search-line">{parts}</span>;
}
