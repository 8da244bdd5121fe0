// `run.list`'s `after` (electron/core/runs/list-page.ts): the next page of the history starts right after the last run
// the page read, by the list's order, whatever was deleted or moved to the top meanwhile.
import { describe, expect, it } from 'vitest';
import { runsAfter } from '../../electron/core/runs/list-page.js';
import { newestFirst } from '../../electron/core/store/manifest.js';

const run = (id: string, minute: number) => ({
  id,
  updatedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
});

describe('runsAfter', () => {
  const sorted = [run('e', 9), run('c', 5), run('d', 5), run('b', 3), run('a', 1)].sort(newestFirst);

  it('starts after the given run, ties by id as the core orders them', () => {
    expect(runsAfter(sorted, sorted[1]).map((r) => r.id)).toEqual(['d', 'b', 'a']);
    expect(runsAfter(sorted).map((r) => r.id)).toEqual(['e', 'c', 'd', 'b', 'a']);
    expect(runsAfter(sorted, sorted[4])).toEqual([]);
  });

  it('starts at the same place when the last run read is gone or has moved to the top', () => {
    const lastRead = sorted[2]!; // d
    const without = sorted.filter((r) => r.id !== 'd');
    expect(runsAfter(without, lastRead).map((r) => r.id)).toEqual(['b', 'a']);
    const moved = [run('d', 20), ...without].sort(newestFirst);
    expect(runsAfter(moved, lastRead).map((r) => r.id)).toEqual(['b', 'a']);
  });
});
