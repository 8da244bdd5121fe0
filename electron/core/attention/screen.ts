// Reading a vendor's state from its screen (docs/attention.md §3): the adapter's patterns (data) over the last lines
// of the mirror's text. A turn's end or a dialog is believed only once output has been quiet for a moment, so a burst of
// output is never a turn; work is also read while output streams, since some TUIs animate their working line nonstop.
import type { ScreenPatterns, StateSignal } from './signals.js';

/** The last match of `re` in `text` (its end, and the match), or null. */
function lastMatch(re: RegExp, text: string): { end: number; match: RegExpExecArray } | null {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  let last: RegExpExecArray | null = null;
  for (let m = g.exec(text); m; m = g.exec(text)) {
    last = m;
    if (m[0] === '') g.lastIndex++;
  }
  return last ? { end: last.index + last[0].length, match: last } : null;
}

/**
 * What the screen shows, by the vendor's patterns: a dialog that asks, work, a waiting prompt, or nothing known.
 * What is lowest on the screen wins: an answered dialog stays in the scrollback above the prompt that followed it
 * (except a working line over a prompt box that stays while the vendor works: `promptStaysWhileWorking`).
 */
export function readScreen(text: string, patterns: ScreenPatterns): StateSignal | null {
  const lines = text.split('\n');
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const tail = lines.slice(-patterns.lines).join('\n');
  let best: { end: number; signal: StateSignal } | null = null;
  const consider = (end: number, signal: StateSignal) => {
    if (!best || end > best.end) best = { end, signal };
  };
  for (const rule of patterns.asking) {
    const m = lastMatch(rule.pattern, tail);
    if (m) consider(m.end, { state: 'asking', asks: rule.asks ? rule.asks(m.match) : null });
  }
  for (const re of patterns.working) {
    const m = lastMatch(re, tail);
    if (m) consider(m.end, { state: 'working' });
  }
  for (const re of patterns.waiting) {
    const m = lastMatch(re, tail);
    if (m) consider(m.end, { state: 'waiting' });
  }
  const seen = (best as { signal: StateSignal } | null)?.signal ?? null;
  if (seen?.state === 'waiting' && patterns.promptStaysWhileWorking && patterns.working.some((re) => re.test(tail))) {
    return { state: 'working' };
  }
  return seen;
}

/** The parts of a terminal the screen watch reads. */
export interface WatchedTerminal {
  readonly lastOutputAt: number;
  readonly exited: unknown;
  capture(textLines?: number, scrollback?: number): Promise<{ text: string }>;
}

export const SCREEN_TIMINGS = Object.freeze({
  /** How often the watch checks whether output arrived. */
  pollMs: 150,
  /** Output must have been quiet this long before the screen is read (a spinner keeps it from settling). */
  quietMs: 400,
  /**
   * While output keeps coming, the screen is still read this often, for work only: a spinner that never pauses (Codex,
   * Gemini) would otherwise hide a whole turn's work. A prompt seen mid-burst is not believed until output settles.
   */
  busyReadMs: 1000,
});

/**
 * Reads the screen each time output settles after a change, and reports what it shows; while output streams, reads it
 * every `busyReadMs` and reports work only. Returns a stop function. A screen that cannot be read (the terminal just
 * ended) is skipped.
 */
export function watchScreen(
  terminal: WatchedTerminal,
  patterns: ScreenPatterns,
  onSignal: (s: StateSignal) => void,
  timings: { pollMs: number; quietMs: number; busyReadMs: number } = SCREEN_TIMINGS,
): () => void {
  let seenOutputAt = -1;
  let readAt = 0;
  let reading = false;
  const timer = setInterval(() => {
    const at = terminal.lastOutputAt;
    const now = Date.now();
    if (reading || at === seenOutputAt || terminal.exited) return;
    const settled = now - at >= timings.quietMs;
    if (!settled && now - readAt < timings.busyReadMs) return;
    // A read mid-burst leaves the settled read to come.
    if (settled) seenOutputAt = at;
    readAt = now;
    reading = true;
    terminal
      // The text only: serializing 5,000 lines of history once a second for every printing agent kept the mirrors'
      // thread busy ahead of the captures panes wait for (docs/performance.md).
      .capture(patterns.lines + 5, 0)
      .then(
        ({ text }) => {
          const seen = readScreen(text, patterns);
          if (seen && (settled || seen.state === 'working')) onSignal(seen);
        },
        () => undefined,
      )
      .finally(() => (reading = false));
  }, timings.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
