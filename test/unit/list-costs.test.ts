// run.list's costs within a budget: a late run gets the sum the last list gave it, and `cost.changed` names only the
// runs whose sum changed. Announcing every late run made the page list again and again on a long history (the page
// lists on that event), a loop that kept the core and the page busy with nothing happening.
import { describe, expect, it } from 'vitest';
import { listCosts } from '../../electron/core/cost/list-costs.js';
import type { CostTotal } from '../../shared/contract.js';
import type { RunManifest } from '../../electron/core/store/types.js';

const run = (id: string) => ({ id }) as RunManifest;
const total = (usd: number) => ({ usd, tokens: 100 * usd }) as unknown as CostTotal;

/** A cost service whose sums come when the test says. */
function service() {
  const sums = new Map<string, CostTotal | null>();
  const gates: (() => void)[] = [];
  let slow = false;
  return {
    sums,
    setSlow: (s: boolean) => (slow = s),
    release: () => gates.splice(0).forEach((g) => g()),
    totalsOnce(r: RunManifest) {
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
    s.setSlow(true);
    const first = await listCosts(s, [run('a'), run('b')], (ids) => announced.push(ids), 1);
    expect(first.size).toBe(0);
    s.release();
    await tick();
    // `b` has no cost: the list without one was already right.
    expect(announced).toEqual([['a']]);

    // Late again with the same sums: the last sum is given, and nothing is announced (no list loop).
    const second = await listCosts(s, [run('a'), run('b')], (ids) => announced.push(ids), 1);
    expect(second.get('a')).toEqual(total(1));
    expect(second.has('b')).toBe(false);
    s.release();
    await tick();
    expect(announced).toEqual([['a']]);

    // The sum changes: announced once more.
    s.sums.set('a', total(2));
    await listCosts(s, [run('a'), run('b')], (ids) => announced.push(ids), 1);
    s.release();
    await tick();
    expect(announced).toEqual([['a'], ['a']]);
  });

  it('gives sums made within the budget at once', async () => {
    const s = service();
    s.sums.set('a', total(3));
    const announced: string[][] = [];
    const costs = await listCosts(s, [run('a')], (ids) => announced.push(ids), 1000);
    expect(costs.get('a')).toEqual(total(3));
    await tick();
    expect(announced).toEqual([]);
  });
});
