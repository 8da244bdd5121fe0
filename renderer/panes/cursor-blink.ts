// The focused pane's cursor blinks only while the user is not typing (docs/performance.md, "Keystrokes").
// xterm's DOM renderer blinks with a CSS animation, which keeps Chromium drawing frames on the main thread for as long
// as it runs; measured in the renderer bench, a blinking cursor held a keystroke's echo from the network behind
// those frames (key → echo parsed 11 ms p50, parsed → painted a whole frame, 17 ms) where a still cursor let the page
// take it at once (3.3 ms, then 1.9 ms). So the cursor stands still from a key until a moment after the last one,
// as in many desktop terminals.
// It also stops blinking, standing visible, once the user has left the pane alone for a while (as GTK's terminals
// do after 10 s): the same animation kept the page's main thread drawing frames with nothing happening, 2–3 % of a
// core for one blinking cursor in the idle bench (test/bench/idle.ts); a key or a new focus blinks it again.

/** How long after the last key the cursor starts blinking again. */
export const BLINK_AFTER_MS = 1000;
/** How long the cursor blinks after focus or the last key before it stands still (GTK's default timeout). */
export const BLINK_FOR_MS = 10_000;

export interface BlinkTarget {
  options: { cursorBlink?: boolean };
}

export interface CursorBlink {
  focused(): void;
  blurred(): void;
  /** A key went to the terminal: the cursor stands still until the user pauses. */
  typed(): void;
}

type Timers = {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
};

const browserTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function cursorBlink(term: BlinkTarget, timers: Timers = browserTimers): CursorBlink {
  let focused = false;
  let timer: unknown = null;
  const set = (blink: boolean) => {
    // Changing the option redraws the cursor's row: only when it changes.
    if (term.options.cursorBlink !== blink) term.options.cursorBlink = blink;
  };
  const cancel = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
  };
  const later = (ms: number, run: () => void) => {
    cancel();
    timer = timers.set(() => {
      timer = null;
      run();
    }, ms);
  };
  /** Blinks for a while, then stands still until the next key or focus. */
  const blinkAWhile = () => {
    set(true);
    later(BLINK_FOR_MS, () => set(false));
  };
  let typing = false;
  return {
    focused() {
      focused = true;
      if (!typing) blinkAWhile();
    },
    blurred() {
      focused = false;
      typing = false;
      cancel();
      set(false);
    },
    typed() {
      set(false);
      typing = true;
      later(BLINK_AFTER_MS, () => {
        typing = false;
        if (focused) blinkAWhile();
      });
    },
  };
}
