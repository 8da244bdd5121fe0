// Text carets stand still once the user has left the keyboard and mouse alone for a while, as terminal panes' cursors
// do (panes/cursor-blink.ts) and as GTK's text fields do after 10 s. Chromium blinks a focused field's caret by
// drawing a frame twice a second for as long as it has focus: the history's search box left focused, or a pane's
// hidden input, kept the idle page drawing 20 frames in every 10 s, most of what the page still did with nothing
// happening (docs/performance.md, "Longest task and idle page"). At rest the caret is drawn still, and visible
// (CSS `caret-animation: manual`, the class below); a key, a click or a new focus makes it blink again.
import { BLINK_FOR_MS } from '../panes/cursor-blink.js';

/** The class on the document's root element while carets are at rest (styles.css). */
export const CARET_REST_CLASS = 'bt-caret-rest';

/** What the user does that wakes the carets. */
export const WAKE_EVENTS = ['keydown', 'pointerdown', 'focusin'] as const;

export interface RestTimers {
  now(): number;
  set(run: () => void, ms: number): unknown;
}

const browserTimers: RestTimers = {
  now: () => performance.now(),
  set: (run, ms) => setTimeout(run, ms),
};

interface Root {
  classList: { add(name: string): void; remove(name: string): void; contains(name: string): boolean };
}

/**
 * Rests the carets under `root` `restAfterMs` after the last of `WAKE_EVENTS` on `events`. One timer at a time: a key
 * only notes its time, and the timer, when it fires early, waits out the rest (no timer set and cleared per key).
 */
export function restCarets(
  root: Root,
  events: Pick<EventTarget, 'addEventListener'>,
  timers: RestTimers = browserTimers,
  restAfterMs = BLINK_FOR_MS,
): void {
  let lastAt = timers.now();
  let armed = false;
  const check = () => {
    const left = lastAt + restAfterMs - timers.now();
    if (left > 0) {
      timers.set(check, left);
      return;
    }
    armed = false;
    root.classList.add(CARET_REST_CLASS);
  };
  const arm = () => {
    if (armed) return;
    armed = true;
    timers.set(check, restAfterMs);
  };
  const wake = () => {
    lastAt = timers.now();
    if (root.classList.contains(CARET_REST_CLASS)) root.classList.remove(CARET_REST_CLASS);
    arm();
  };
  for (const type of WAKE_EVENTS) events.addEventListener(type, wake, { capture: true, passive: true });
  arm();
}
