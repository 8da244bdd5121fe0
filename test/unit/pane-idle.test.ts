// The panes' idle status shares one timer, running only while a pane listens (renderer/panes/pane-idle.ts).
import { describe, expect, it } from 'vitest';
import { SharedTicker } from '../../renderer/panes/pane-idle.js';

/** A fake interval clock: `tick()` fires every running interval once. */
function fakeTicker() {
  const running = new Map<number, () => void>();
  let next = 1;
  return {
    running,
    ticker: {
      set: (run: () => void) => {
        running.set(next, run);
        return next++;
      },
      clear: (handle: unknown) => running.delete(handle as number),
    },
    tick: () => [...running.values()].forEach((run) => run()),
  };
}

describe('SharedTicker', () => {
  it('runs one timer for every listener, and none once the last has left', () => {
    const clock = fakeTicker();
    const shared = new SharedTicker(clock.ticker, 1000);
    const calls: string[] = [];
    const leave = Array.from({ length: 10 }, (_, i) => shared.subscribe(() => calls.push(`pane-${i}`)));
    expect(clock.running.size).toBe(1);
    clock.tick();
    expect(calls).toHaveLength(10);
    leave.slice(0, 9).forEach((l) => l());
    calls.length = 0;
    clock.tick();
    expect(calls).toEqual(['pane-9']);
    leave[9]!();
    expect(clock.running.size).toBe(0);
    shared.subscribe(() => calls.push('again'));
    expect(clock.running.size).toBe(1);
  });
});
