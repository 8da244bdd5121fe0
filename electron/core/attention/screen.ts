// Reading a vendor's state from its screen (docs/attention.md §3): the adapter's patterns (data) over the last lines
// of the mirror's text. Looked at only once output has been quiet for a moment, so a burst of output is never a turn.
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
 * What is lowest on the screen wins: an answered dialog stays in the scrollback above the prompt that followed it.
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
  return (best as { signal: StateSignal } | null)?.signal ?? null;
}

/** The parts of a terminal the screen watch reads. */
export interface WatchedTerminal {
  readonly lastOutputAt: number;
  readonly exited: unknown;
  capture(textLines?: number): Promise<{ text: string }>;
}

export const SCREEN_TIMINGS = Object.freeze({
  /** How often the watch checks whether output arrived. */
  pollMs: 150,
  /** Output must have been quiet this long before the screen is read (a spinner keeps it from settling). */
  quietMs: 400,
});

/**
 * Reads the screen each time output settles after a change, and reports what it shows. Returns a stop function.
 * A screen that cannot be read (the terminal just ended) is skipped.
 */
export function watchScreen(
  terminal: WatchedTerminal,
  patterns: ScreenPatterns,
  onSignal: (s: StateSignal) => void,
  timings: { pollMs: number; quietMs: number } = SCREEN_TIMINGS,
): () => void {
  let seenOutputAt = -1;
  let reading = false;
  const timer = setInterval(() => {
    const at = terminal.lastOutputAt;
    if (reading || at === seenOutputAt || terminal.exited || Date.now() - at < timings.quietMs) return;
    seenOutputAt = at;
    reading = true;
    terminal
      .capture(patterns.lines + 5)
      .then(
        ({ text }) => {
          const seen = readScreen(text, patterns);
          if (seen) onSignal(seen);
        },
        () => undefined,
      )
      .finally(() => (reading = false));
  }, timings.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
