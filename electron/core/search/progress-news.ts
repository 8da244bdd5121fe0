// Which search statuses are news to the clients (`search.progress`; docs/performance.md "Idle and start"). The index
// is refreshed every few seconds while the core runs; a pass that read nothing ends with the status it began with but
// a new `refreshedAt`, and telling every client so was work repeated while nothing happened. A status is announced
// when what it says changed: its state, what the index holds, the error, or (while indexing) how far the pass is.
import type { SearchStatus } from '../../../shared/contract.js';

/** What a status says to a client; two statuses with the same key say the same. */
export function newsKey(s: SearchStatus): string {
  const pass = s.state === 'indexing' || s.state === 'starting' ? `${s.done}/${s.total}` : '';
  return [s.state, pass, s.files, s.messages, s.indexBytes, s.error ?? '', s.refreshedAt === null].join('|');
}

/** Passes on a status only when it says something the last one passed on did not. */
export function progressNews(tell: (s: SearchStatus) => void): (s: SearchStatus) => void {
  let last: string | null = null;
  return (s) => {
    const key = newsKey(s);
    if (key === last) return;
    last = key;
    tell(s);
  };
}
