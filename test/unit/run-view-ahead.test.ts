import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../shared/contract.js';
import { loadDetailsAhead, otherLiveRuns } from '../../renderer/components/RunViewPrefetch.js';

const run = (id: string, liveAgents: number) => ({ id, liveAgents }) as RunSummary;

describe('what the run view fetches ahead of a switch', () => {
  it('names the other live runs only, in the list order, and the same string for a list merged anew', () => {
    const runs = [run('c', 2), run('b', 0), run('a', 1), run('x', 3)];
    expect(otherLiveRuns(runs, 'x')).toBe('c a');
    // A run.list merge makes new objects and a new array: the key stays the same, so the run view does not render.
    expect(
      otherLiveRuns(
        runs.map((r) => ({ ...r })),
        'x',
      ),
    ).toBe(otherLiveRuns(runs, 'x'));
    expect(otherLiveRuns([run('x', 1)], 'x')).toBe('');
  });

  it('fetches the details of the runs the page lacks, one request at a time, newest first', async () => {
    const have = new Set(['b']);
    const log: string[] = [];
    let inFlight = 0;
    let most = 0;
    await loadDetailsAhead(
      ['a', 'b', 'c'],
      {
        has: (id) => have.has(id),
        load: async (id) => {
          inFlight++;
          most = Math.max(most, inFlight);
          log.push(id);
          await new Promise((r) => setTimeout(r, 1));
          have.add(id);
          inFlight--;
        },
      },
      () => false,
    );
    expect(log).toEqual(['a', 'c']);
    expect(most).toBe(1);
  });

  it('stops once the run view has moved on', async () => {
    const log: string[] = [];
    let stale = false;
    await loadDetailsAhead(
      ['a', 'b', 'c'],
      {
        has: () => false,
        load: async (id) => {
          log.push(id);
          stale = true;
        },
      },
      () => stale,
    );
    expect(log).toEqual(['a']);
  });
});
