// run.list's health within a budget: a run whose check is not in by then is given as `checking`, never as a guess,
// and the run is named (`run.changed`) once its answer is in; a run checked by the warm-up is not checked twice.
import { describe, expect, it } from 'vitest';
import { RunHealth, type Health } from '../../electron/core/runs/run-health.js';
import type { RunManifest } from '../../electron/core/store/types.js';

const run = (id: string, updatedAt = '2026-01-01T00:00:00Z', agentIds: string[] = []) =>
  ({ id, updatedAt, agents: agentIds.map((a) => ({ id: a })) }) as unknown as RunManifest;
const nobodyLive = () => false;
const tick = () => new Promise((r) => setTimeout(r, 5));

/** Checks that answer when the test says (`slow`) or at once, counting how often each run is checked. */
function checks(answers: Record<string, Health>) {
  const checked = new Map<string, number>();
  const gates: (() => void)[] = [];
  let slow = false;
  return {
    checked,
    setSlow: (s: boolean) => (slow = s),
    release: () => gates.splice(0).forEach((g) => g()),
    check: (r: RunManifest) => {
      checked.set(r.id, (checked.get(r.id) ?? 0) + 1);
      const answer = answers[r.id] ?? 'resumable';
      if (!slow) return Promise.resolve(answer);
      return new Promise<Health>((resolve) => gates.push(() => resolve(answer)));
    },
  };
}

describe('run health for run.list', () => {
  it('gives `checking` past the wait, then names each such run once its answer is in', async () => {
    const c = checks({ a: 'stale', b: 'missing' });
    const changed: string[] = [];
    const health = new RunHealth(c.check, (id) => changed.push(id));
    c.setSlow(true);
    const runs = [run('a'), run('b')];
    expect(await health.of(runs, nobodyLive, 10)).toEqual(['checking', 'checking']);
    expect(changed).toEqual([]);
    c.release();
    await tick();
    expect(changed.sort()).toEqual(['a', 'b']);
    // The next list gives the answers, and nothing more is announced.
    expect(await health.of(runs, nobodyLive, 10)).toEqual(['stale', 'missing']);
    await tick();
    expect(changed).toHaveLength(2);
    expect(c.checked.get('a')).toBe(1);
  });

  it('announces nothing for answers in before the list answered, and waits without a budget', async () => {
    const c = checks({ a: 'stale' });
    const changed: string[] = [];
    const health = new RunHealth(c.check, (id) => changed.push(id));
    expect(await health.of([run('a'), run('live', undefined, ['agt'])], (id) => id === 'agt', 50)).toEqual([
      'stale',
      'live',
    ]);
    // A changed run is checked again; with no budget the list waits for it however long it takes.
    c.setSlow(true);
    const waiting = health.of([run('a', '2026-01-02T00:00:00Z')], nobodyLive);
    await tick();
    c.release();
    expect(await waiting).toEqual(['stale']);
    await tick();
    expect(changed).toEqual([]);
  });

  it('a list during the warm-up gives its runs as `checking` without checking them again', async () => {
    const c = checks({ a: 'missing' });
    const changed: string[] = [];
    const health = new RunHealth(c.check, (id) => changed.push(id));
    c.setSlow(true);
    const runs = [run('a'), run('b'), run('c')];
    health.warm(runs);
    await tick();
    const listed = await health.of(runs, nobodyLive, 10);
    expect(listed).toEqual(['checking', 'checking', 'checking']);
    // A run the store gained after open is not the warm-up's: the list checks it itself.
    expect(await health.of([run('new')], nobodyLive, 10)).toEqual(['checking']);
    for (let i = 0; i < 5; i++) {
      c.release();
      await tick();
    }
    await health.settled();
    expect(changed.sort()).toEqual(['a', 'b', 'c', 'new']);
    expect([...c.checked.values()].every((n) => n === 1)).toBe(true);
    expect(await health.of(runs, nobodyLive, 10)).toEqual(['missing', 'resumable', 'resumable']);
  });

  it('a deleted run given as `checking` is not announced', async () => {
    const c = checks({});
    const changed: string[] = [];
    const health = new RunHealth(c.check, (id) => changed.push(id));
    c.setSlow(true);
    expect(await health.of([run('a')], nobodyLive, 10)).toEqual(['checking']);
    health.forget('a');
    c.release();
    await tick();
    expect(changed).toEqual([]);
  });
});
