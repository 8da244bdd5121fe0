// The cost sums of a first start (nothing saved; cost/list-costs.ts `warm`): the stopped runs are summed from open on,
// so the first whole list of a long history finds them made instead of waiting its budget for them; a list that comes
// while they are being made waits for its own runs only (the page's first screen is not held by 10,000 older runs),
// never sums a run twice, and a run it gave without a sum is announced once its sum is in.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ListCosts } from '../../electron/core/cost/list-costs.js';
import type { CostTotal } from '../../shared/contract.js';
import type { RunManifest } from '../../electron/core/store/types.js';
import { tempDir, waitFor } from '../helpers/server.js';

const run = (id: string, status = 'stopped') =>
  ({ id, updatedAt: '2026-01-01T00:00:00Z', agents: [{ status }] }) as unknown as RunManifest;
const total = (usd: number) => ({ usd, tokens: 100 * usd }) as unknown as CostTotal;

/** A cost service counting the sums it makes; the runs in `held` are summed only once `release` is called. */
function service(sums: Map<string, CostTotal | null>, held: Set<string> = new Set()) {
  const summed = new Map<string, number>();
  const gates: (() => void)[] = [];
  return {
    summed,
    release: () => gates.splice(0).forEach((g) => g()),
    totalsOnce(r: RunManifest) {
      summed.set(r.id, (summed.get(r.id) ?? 0) + 1);
      const answer = () => ({ total: sums.get(r.id) ?? null, agents: new Map() });
      if (!held.has(r.id)) return Promise.resolve(answer()) as never;
      return new Promise((resolve) => gates.push(() => resolve(answer()))) as never;
    },
  };
}

/** A cost file where none was saved yet: a first start. */
const noFile = () => join(tempDir('baton-cost-warm-'), 'run-costs.json');

describe('run.list costs at a first start', () => {
  it('sums the stopped runs from open on: the first whole list finds every sum made, and none is summed twice', async () => {
    const runs = Array.from({ length: 300 }, (_, i) => run(`r${i}`));
    const sums = new Map(runs.map((r, i) => [r.id, i % 3 === 0 ? null : total(i)]));
    const s = service(sums);
    const lists = new ListCosts(s, noFile());
    const announced: string[] = [];
    lists.warm(runs, (ids) => announced.push(...ids));
    await waitFor(() => s.summed.size === runs.length, 'every run summed in the background');

    const first = await lists.of(runs, (ids) => announced.push(...ids), 0);
    // Budget 0: the list waited for nothing, and still every run with a cost has it.
    expect(runs.filter((r) => first.has(r.id)).map((r) => r.id)).toEqual(
      runs.filter((r) => sums.get(r.id) !== null).map((r) => r.id),
    );
    expect(first.get('r1')).toEqual(total(1));
    await lists.settled();
    expect([...s.summed.values()].every((n) => n === 1)).toBe(true);
    // No list gave a run before its sum: nothing to announce.
    expect(announced).toEqual([]);
  });

  it('a list during the warm-up waits for its own runs, not the older ones; what it gave late is announced', async () => {
    const runs = ['new', 'mid', 'old', 'oldest'].map((id) => run(id));
    const sums = new Map<string, CostTotal | null>([
      ['new', total(1)],
      ['mid', total(2)],
      ['old', total(3)],
      ['oldest', null],
    ]);
    // The older runs' sums are slow (their transcripts are large, say).
    const s = service(sums, new Set(['old', 'oldest']));
    const lists = new ListCosts(s, noFile());
    const announced: string[][] = [];
    const late = (ids: string[]) => announced.push(ids);
    lists.warm(runs, late);

    // The first screen (the newest runs) answers with their sums, with a budget the older runs would exhaust.
    const screen = await Promise.race([
      lists.of(runs.slice(0, 2), late, 60_000),
      new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 2000)),
    ]);
    expect(screen).not.toBe('held');
    expect(screen).toEqual(
      new Map([
        ['new', total(1)],
        ['mid', total(2)],
      ]),
    );

    // The whole list, within a short budget, gives the older runs without a sum (none was made yet)...
    const whole = await lists.of(runs, late, 20);
    expect([...whole.keys()]).toEqual(['new', 'mid']);
    s.release();
    await waitFor(() => announced.length > 0, 'the late sums announced');
    await lists.settled();
    // ...and names the one whose sum differs from what it gave (`oldest` has no cost: it was given right).
    expect(announced).toEqual([['old']]);
    expect((await lists.of(runs, late, 0)).get('old')).toEqual(total(3));
    expect([...s.summed.values()]).toEqual([1, 1, 1, 1]);
  });

  it('a first history read in pages while the sums are made: nothing announced that a page gave', async () => {
    const runs = Array.from({ length: 640 }, (_, i) => run(`r${i}`));
    const s = service(new Map(runs.map((r, i) => [r.id, total(i + 1)])));
    const lists = new ListCosts(s, noFile());
    const announced: string[] = [];
    const late = (ids: string[]) => announced.push(...ids);
    lists.warm(runs, late);
    // The page's way (renderer/state/run-list-sync.ts): its first screen, then the rest in pages, each answered with
    // its runs' sums while the older runs are still being summed.
    const pages = [runs.slice(0, 10)];
    for (let i = 10; i < runs.length; i += 100) pages.push(runs.slice(i, i + 100));
    for (const page of pages) expect((await lists.of(page, late, 60_000)).size).toBe(page.length);
    await lists.settled();
    // Every run was given its sum by a page: an announcement would only have made the page list them all again.
    expect(announced).toEqual([]);
    expect([...s.summed.values()].every((n) => n === 1)).toBe(true);
  });
});
