// run.list's costs within a budget: a late run gets the sum the last list gave it, `cost.changed` names only the
// runs whose sum changed (announcing every late run made the page, which lists again on that event, and the core list
// each other in a loop on a long history), and a stopped run summed lately is not read again at every list.
import { describe, expect, it } from 'vitest';
import { ListCosts, listCosts } from '../../electron/core/cost/list-costs.js';
import type { CostTotal } from '../../shared/contract.js';
import type { RunManifest } from '../../electron/core/store/types.js';

const run = (id: string, updatedAt = '2026-01-01T00:00:00Z', status = 'stopped') =>
  ({ id, updatedAt, agents: [{ status }] }) as unknown as RunManifest;
const total = (usd: number) => ({ usd, tokens: 100 * usd }) as unknown as CostTotal;

/** A cost service whose sums come when the test says, counting how often each run is summed. */
function service() {
  const sums = new Map<string, CostTotal | null>();
  const summed = new Map<string, number>();
  const gates: (() => void)[] = [];
  let slow = false;
  return {
    sums,
    summed,
    setSlow: (s: boolean) => (slow = s),
    release: () => gates.splice(0).forEach((g) => g()),
    totalsOnce(r: RunManifest) {
      summed.set(r.id, (summed.get(r.id) ?? 0) + 1);
      const answer = () => ({ total: sums.get(r.id) ?? null, agents: new Map() });
      if (!slow) return Promise.resolve(answer()) as never;
      return new Promise((resolve) => gates.push(() => resolve(answer()))) as never;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('run.list costs', () => {
  it('announces a late run once its sum is known, and not again while it stays the same', async () => {
    const s = service();
    s.sums.set('a', total(1));
    s.sums.set('b', null);
    const announced: string[][] = [];
    const note = (ids: string[]) => announced.push(ids);
    s.setSlow(true);
    const first = await listCosts(s, [run('a'), run('b')], note, 1);
    expect(first.size).toBe(0);
    s.release();
    await tick();
    // `b` has no cost: the list without one was already right.
    expect(announced).toEqual([['a']]);

    // The next list gives the sum made meanwhile and announces nothing (no list loop).
    const second = await listCosts(s, [run('a'), run('b')], note, 1);
    s.release();
    await tick();
    expect(second.get('a')).toEqual(total(1));
    expect(second.has('b')).toBe(false);
    expect(announced).toEqual([['a']]);

    // The run changed and so did its sum: late again, the old sum is given and the new one announced.
    s.sums.set('a', total(2));
    const third = await listCosts(s, [run('a', '2026-01-02T00:00:00Z'), run('b')], note, 1);
    expect(third.get('a')).toEqual(total(1));
    s.release();
    await tick();
    expect(announced).toEqual([['a'], ['a']]);
    const fourth = await listCosts(s, [run('a', '2026-01-02T00:00:00Z'), run('b')], note, 1);
    expect(fourth.get('a')).toEqual(total(2));
  });

  it('sums a stopped run once while it stays the same, and a live run at every list', async () => {
    const s = service();
    s.sums.set('stopped', total(3));
    s.sums.set('live', total(4));
    const runs = [run('stopped'), run('live', undefined, 'running')];
    for (let i = 0; i < 3; i++) {
      const costs = await listCosts(s, runs, () => undefined, 1000);
      expect(costs.get('stopped')).toEqual(total(3));
      expect(costs.get('live')).toEqual(total(4));
    }
    expect(s.summed.get('stopped')).toBe(1);
    expect(s.summed.get('live')).toBe(3);
  });

  it('answers within its budget when the sums need no I/O (a history whose vendor stores are indexed)', async () => {
    // Each sum is CPU work alone, resolved at once: 10,000 of them once ran as one microtask chain the budget's timer
    // could not interrupt, and the list waited for them all.
    const runs = Array.from({ length: 2000 }, (_, i) => run(`r${i}`));
    const busy = {
      totalsOnce(r: RunManifest) {
        const until = performance.now() + 0.5;
        while (performance.now() < until);
        return Promise.resolve({ total: total(Number(r.id.slice(1)) + 1), agents: new Map() }) as never;
      },
    };
    const announced: string[] = [];
    const lists = new ListCosts(busy);
    const first = await lists.of(runs, (ids) => announced.push(...ids), 20);
    expect(first.size).toBeGreaterThan(0);
    expect(first.size).toBeLessThan(runs.length);
    await lists.settled();
    // The rest come in one announcement, and the next list has them all.
    expect(announced.length).toBe(runs.length - first.size);
    expect((await lists.of(runs, () => undefined, 20)).size).toBe(runs.length);
  });
});
