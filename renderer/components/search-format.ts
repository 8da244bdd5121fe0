// What the search dialog and its transcript view share: a result as opened, and where a conversation is held.
import type { SearchHit, SearchResult } from '../../shared/contract.js';

/** A result opened at one of its hits (null: at its end). */
export interface Opened {
  result: SearchResult;
  hit: SearchHit | null;
}

/** "run / label" for a conversation Baton holds, else "outside Baton". */
export function whereOf(r: Pick<SearchResult, 'holder'>): string {
  return r.holder ? `${r.holder.runName} / ${r.holder.label}` : 'outside Baton';
}
