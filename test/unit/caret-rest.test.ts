// Carets stand still after a while with no key, click or focus, and blink again at the next (renderer/state/caret-rest.ts).
import { describe, expect, it } from 'vitest';
import { CARET_REST_CLASS, restCarets } from '../../renderer/state/caret-rest.js';

/** A fake clock whose timers run when `advance` passes their time. */
function fakeClock() {
  let now = 0;
  const timers: { at: number; run: () => void }[] = [];
  return {
    timers: { now: () => now, set: (run: () => void, ms: number) => timers.push({ at: now + ms, run }) },
    pending: () => timers.length,
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const due = timers[0];
        if (!due || due.at > until) break;
        timers.shift();
        now = due.at;
        due.run();
      }
      now = until;
    },
  };
}

function page() {
  const classes = new Set<string>();
  const listeners = new Map<string, () => void>();
  return {
    root: {
      classList: {
        add: (c: string) => void classes.add(c),
        remove: (c: string) => void classes.delete(c),
        contains: (c: string) => classes.has(c),
      },
    },
    events: { addEventListener: (type: string, l: () => void) => listeners.set(type, l) },
    resting: () => classes.has(CARET_REST_CLASS),
    fire: (type: string) => listeners.get(type)!(),
  };
}

describe('restCarets', () => {
  it('rests the carets 10 s after the last key, and a key, a click or a focus wakes them', () => {
    const clock = fakeClock();
    const p = page();
    restCarets(p.root, p.events, clock.timers, 10_000);
    clock.advance(9_999);
    expect(p.resting()).toBe(false);
    clock.advance(1);
    expect(p.resting()).toBe(true);
    expect(clock.pending()).toBe(0); // at rest nothing is scheduled: the idle page wakes for nothing
    for (const wake of ['keydown', 'pointerdown', 'focusin']) {
      p.fire(wake);
      expect(p.resting()).toBe(false);
      clock.advance(10_000);
      expect(p.resting()).toBe(true);
    }
  });

  it('keeps the carets blinking while keys keep coming, with one timer however many keys', () => {
    const clock = fakeClock();
    const p = page();
    restCarets(p.root, p.events, clock.timers, 10_000);
    for (let i = 0; i < 100; i++) {
      clock.advance(500);
      p.fire('keydown');
      expect(p.resting()).toBe(false);
      expect(clock.pending()).toBeLessThanOrEqual(1);
    }
    clock.advance(9_999);
    expect(p.resting()).toBe(false);
    clock.advance(1);
    expect(p.resting()).toBe(true);
  });
});
