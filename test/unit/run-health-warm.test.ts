// The health of a first start (nothing saved; runs/run-health.ts `warm`): the page's first screen, a list without a
// budget, answers with its own runs' health as soon as those are checked, not once the warm-up has checked every older
// run of a long history; nothing is checked twice, and every answer is the check's, never a guess.
import { describe, expect, it } from 'vitest';
import { RunHealth, type Health } from '../../electron/core/runs/run-health.js';
import type { RunManifest } from '../../electron/core/store/types.js';

const run = (id: string) => ({ id, updatedAt: '2026-01-01T00:00:00Z', agents: [] }) as unknown as RunManifest;
const nobodyLive = () => false;

/** Checks answering at once, but for the runs in `held`, which answer once `release` is called. */
function checks(answers: Record<string, Health>, held: Set<string>) {
  const checked = new Map<string, number>();
  const gates: (() => void)[] = [];
  return {
    checked,
    release: () => gates.splice(0).forEach((g) => g()),
    check: (r: RunManifest) => {
      checked.set(r.id, (checked.get(r.id) ?? 0) + 1);
      const answer = answers[r.id] ?? 'resumable';
      if (!held.has(r.id)) return Promise.resolve(answer);
      return new Promise<Health>((resolve) => gates.push(() => resolve(answer)));
    },
  };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), ms))]);

describe('run health at a first start', () => {
  it("a first screen during the warm-up answers with its runs' health, not after every older run's", async () => {
    // 40 runs, newest first; the warm-up checks 16 at a time and the older runs' checks are slow (a large store).
    const runs = Array.from({ length: 40 }, (_, i) => run(`r${i}`));
    const held = new Set(runs.slice(20).map((r) => r.id));
    const c = checks({ r0: 'missing', r1: 'stale', r25: 'missing' }, held);
    const changed: string[] = [];
    const health = new RunHealth(c.check, (id) => changed.push(id));
    health.warm(runs);

    // The page's first screen (no budget: it waits for every answer of its own) is not held by r20–r39.
    const screen = await within(health.of(runs.slice(0, 5), nobodyLive), 2000);
    expect(screen).toEqual(['missing', 'stale', 'resumable', 'resumable', 'resumable']);
    // A screen whose runs are still being checked waits for those answers: never `checking` without a budget.
    const later = health.of(runs.slice(24, 27), nobodyLive);
    expect(await within(later, 50)).toBe('held');
    // Runs the warm-up had not reached were checked by the list; the warm-up shares that answer.
    for (let i = 0; i < 5; i++) (c.release(), await new Promise((r) => setTimeout(r, 5)));
    expect(await later).toEqual(['resumable', 'missing', 'resumable']);
    await health.settled();
    expect([...c.checked.values()].every((n) => n === 1)).toBe(true);
    expect(c.checked.size).toBe(runs.length);
    expect(changed).toEqual([]);
  });
});
