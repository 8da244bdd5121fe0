// The history's filter (renderer/state/history-filter.ts) narrows its last result as the user types one more letter,
// instead of looking at every run again. Whatever the path it takes, the runs shown must be exactly the runs that
// match, in the list's order: checked here against a plain filter over every run, key by key.
import { describe, expect, it } from 'vitest';
import { createHistoryFilter, type HistoryFilter } from '../../renderer/state/history-filter.js';
import type { RunSummary } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';

function summary(n: number, over: Partial<RunSummary> = {}): RunSummary {
  return {
    id: `run_${String(n).padStart(16, '0')}`,
    name: `History-${String(n).padStart(4, '0')}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    agentCount: 2,
    liveAgents: n % 7 === 0 ? 1 : 0,
    vendors: n % 3 === 0 ? ['claude', 'codex'] : ['shell'],
    lastSnapshotAt: null,
    health: 'resumable',
    needYou: 0,
    states: [],
    ...over,
  };
}

/** What the history must show: every run whose name or a vendor contains the text, within the status and vendor. */
function expected(runs: readonly RunSummary[], { query, status, vendor }: HistoryFilter): string[] {
  const q = query.trim().toLowerCase();
  return runs
    .filter(
      (r) =>
        (status === 'all' || (status === 'live') === r.liveAgents > 0) &&
        (vendor === 'all' || r.vendors.includes(vendor)) &&
        (r.name.toLowerCase().includes(q) || r.vendors.some((v) => v.includes(q))),
    )
    .map((r) => r.id);
}

const runs = Array.from({ length: 1200 }, (_, n) => summary(n));
const f = (query: string, status: HistoryFilter['status'] = 'all', vendor: VendorName | 'all' = 'all') => ({
  query,
  status,
  vendor,
});

describe('the history filter', () => {
  it('shows exactly the matching runs while a name is typed, cleared, and typed again under other filters', () => {
    const filter = createHistoryFilter();
    filter.warm(runs);
    const steps: HistoryFilter[] = [];
    const typed = (text: string, status: HistoryFilter['status'] = 'all', vendor: VendorName | 'all' = 'all') => {
      for (let i = 1; i <= text.length; i++) steps.push(f(text.slice(0, i), status, vendor));
    };
    typed('history-0999');
    typed('history-099'.slice(0, 9)); // backspacing: wider again
    steps.push(f(''));
    typed(' HISTORY-11 '); // trimmed, case-insensitive
    typed('hist', 'live');
    steps.push(f('hist', 'stopped'), f('hist', 'stopped', 'codex'), f('histo', 'stopped', 'codex'));
    typed('codex'); // a vendor's name matches its runs
    typed('zzz'); // nothing
    for (const step of steps)
      expect(
        filter(runs, step).map((r) => r.id),
        JSON.stringify(step),
      ).toEqual(expected(runs, step));
  });

  it('filters a new list of runs in full, even when the text only narrows', () => {
    const filter = createHistoryFilter();
    expect(filter(runs, f('history-12')).map((r) => r.id)).toEqual(expected(runs, f('history-12')));
    // A run came in (a new summary list): typing one more letter must find it, not just narrow the last result.
    const more = [summary(5000, { name: 'history-1234 new' }), ...runs];
    expect(filter(more, f('history-123')).map((r) => r.id)).toEqual(expected(more, f('history-123')));
    expect(filter(more, f('history-123'))[0]?.name).toBe('history-1234 new');
    // A run renamed in place (the same list, a new summary object) is matched by its new name.
    const renamed = more.map((r) => (r.id === runs[1]!.id ? { ...r, name: 'history-1239 renamed' } : r));
    expect(filter(renamed, f('history-1239')).map((r) => r.id)).toEqual(expected(renamed, f('history-1239')));
  });

  it('gives the same array while nothing changes, and the runs themselves when nothing filters', () => {
    const filter = createHistoryFilter();
    const a = filter(runs, f('history-01'));
    expect(filter(runs, f('history-01'))).toBe(a);
    expect(filter(runs, f('   '))).toBe(runs);
    expect(filter(runs, f('history'))).toBe(runs); // every run matches
  });
});
