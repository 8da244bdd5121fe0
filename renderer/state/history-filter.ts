// The history's filter (search text, status, vendor) over the page's run summaries, made cheap per keystroke
// (docs/performance.md "Typing in the history: what a key costs"):
// - each run's search text (name and vendors, lower-cased) is made once per summary object and kept in an array
//   beside the runs, so a key reads a string from an array instead of a WeakMap lookup per run;
// - a query that only narrows the last one (same runs, same status and vendor, the new text contains the old: typing
//   one more letter) filters the last result, not every run: `history-0` looks at the 10,000 runs matching
//   `history-`, `history-09` only at the 1,000 matching `history-0`;
// - no filter at all gives the runs array itself (no copy of 10,000 entries when the box is cleared).
import type { RunSummary } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';

export type StatusFilter = 'all' | 'live' | 'stopped';

export interface HistoryFilter {
  /** The search box's text as typed (trimmed and lower-cased here). */
  query: string;
  status: StatusFilter;
  vendor: VendorName | 'all';
}

/** Kept per summary object: summaries the page keeps across events keep their text. */
const searchTexts = new WeakMap<RunSummary, string>();

function searchText(run: RunSummary): string {
  let text = searchTexts.get(run);
  if (text === undefined) searchTexts.set(run, (text = `${run.name.toLowerCase()}\n${run.vendors.join('\n')}`));
  return text;
}

function passes(run: RunSummary, status: StatusFilter, vendor: VendorName | 'all'): boolean {
  if (status === 'live' && run.liveAgents === 0) return false;
  if (status === 'stopped' && run.liveAgents > 0) return false;
  return vendor === 'all' || run.vendors.includes(vendor);
}

interface Last {
  runs: readonly RunSummary[];
  q: string;
  status: StatusFilter;
  vendor: VendorName | 'all';
  /** Indexes into `runs` of the result, in order. */
  at: number[];
  result: readonly RunSummary[];
}

/**
 * A filter with its own memory of the last result (one per list on screen). The result holds exactly the runs that
 * match, in the order of `runs`; the same inputs give the same array (so React sees no change).
 */
export interface RunFilter {
  (runs: readonly RunSummary[], filter: HistoryFilter): readonly RunSummary[];
  /**
   * Makes the runs' search texts ahead of the first key (the search box took focus): 10,000 of them were most of that
   * key's time.
   */
  warm(runs: readonly RunSummary[]): void;
}

export function createHistoryFilter(): RunFilter {
  let texts: string[] = [];
  let textsOf: readonly RunSummary[] | null = null;
  let last: Last | null = null;

  const textsFor = (runs: readonly RunSummary[]): string[] => {
    if (textsOf !== runs) {
      texts = runs.map(searchText);
      textsOf = runs;
    }
    return texts;
  };

  const filter = (runs: readonly RunSummary[], { query, status, vendor }: HistoryFilter): readonly RunSummary[] => {
    const q = query.trim().toLowerCase();
    if (last && last.runs === runs && last.q === q && last.status === status && last.vendor === vendor)
      return last.result;
    if (!q && status === 'all' && vendor === 'all') {
      last = null;
      return runs;
    }
    const text = textsFor(runs);
    const narrows = last !== null && last.runs === runs && last.status === status && last.vendor === vendor;
    const at: number[] = [];
    if (narrows && last && q.includes(last.q)) {
      for (const i of last.at) if (text[i]!.includes(q)) at.push(i);
    } else {
      for (let i = 0; i < runs.length; i++)
        if ((!q || text[i]!.includes(q)) && passes(runs[i]!, status, vendor)) at.push(i);
    }
    const result = at.length === runs.length ? runs : at.map((i) => runs[i]!);
    last = { runs, q, status, vendor, at, result };
    return result;
  };
  return Object.assign(filter, { warm: (runs: readonly RunSummary[]) => void textsFor(runs) });
}
