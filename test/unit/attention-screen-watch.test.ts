// The screen watch over a terminal whose TUI animates its working line without pause (as Codex's and Gemini's do):
// work must be seen while the output streams, and a prompt glimpsed mid-burst must wait for the output to settle.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchScreen, type WatchedTerminal } from '../../electron/core/attention/screen.js';
import type { ScreenPatterns, StateSignal } from '../../electron/core/attention/signals.js';

const PATTERNS: ScreenPatterns = { asking: [], working: [/Working \(\d+s/], waiting: [/^› /m], lines: 5 };
const TIMINGS = { pollMs: 10, quietMs: 80, busyReadMs: 40 };

/** A terminal that prints `screen` as a spinner would: new output every 15 ms until `settle()`. */
function spinningTerminal(screen: () => string) {
  let lastOutputAt = Date.now();
  const spinner = setInterval(() => (lastOutputAt = Date.now()), 15);
  const terminal: WatchedTerminal = {
    get lastOutputAt() {
      return lastOutputAt;
    },
    exited: false,
    capture: () => Promise.resolve({ text: screen() }),
  };
  return { terminal, settle: () => clearInterval(spinner) };
}

const stops: (() => void)[] = [];
// Fake clocks: on a loaded machine a real 15 ms spinner can miss its turn for longer than the quiet period, which
// would look like settled output; what is tested is the watch's rule, not the machine's timer accuracy.
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.useRealTimers();
});

const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('the screen watch', () => {
  it('reads the text of the screen only, never the history (a full capture per read held the mirrors back)', async () => {
    const asked: (number | undefined)[] = [];
    const terminal: WatchedTerminal = {
      lastOutputAt: Date.now(),
      exited: false,
      capture: (_lines, scrollback) => {
        asked.push(scrollback);
        return Promise.resolve({ text: 'answer text\n› ' });
      },
    };
    const seen: StateSignal[] = [];
    stops.push(watchScreen(terminal, PATTERNS, (s) => seen.push(s), TIMINGS));
    await sleep(250);
    expect(seen.map((s) => s.state)).toEqual(['waiting']);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((n) => n === 0)).toBe(true);
  });

  it('sees work while a spinner never lets the output settle', async () => {
    const { terminal, settle } = spinningTerminal(() => '› fix the bug\n\n• Working (3s • esc to interrupt)');
    const seen: StateSignal[] = [];
    stops.push(
      watchScreen(terminal, PATTERNS, (s) => seen.push(s), TIMINGS),
      settle,
    );
    await sleep(300);
    expect(seen.map((s) => s.state)).toContain('working');
    expect(seen.every((s) => s.state === 'working')).toBe(true);
  });

  it('believes a prompt only once the output settles', async () => {
    const { terminal, settle } = spinningTerminal(() => 'answer text\n› ');
    const seen: StateSignal[] = [];
    stops.push(
      watchScreen(terminal, PATTERNS, (s) => seen.push(s), TIMINGS),
      settle,
    );
    await sleep(250);
    expect(seen).toEqual([]);
    settle();
    await sleep(250);
    expect(seen.map((s) => s.state)).toEqual(['waiting']);
  });
});
