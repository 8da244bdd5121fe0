// The focused pane's cursor blinks only while the user is not typing (docs/performance.md, "Keystrokes").
// xterm's DOM renderer blinks with a CSS animation, which keeps Chromium drawing frames on the main thread for as long
// as it runs; measured in the renderer bench, a blinking cursor held a keystroke's echo from the network behind
// those frames (key → echo parsed 11 ms p50, parsed → painted a whole frame, 17 ms) where a still cursor let the page
// take it at once (3.3 ms, then 1.9 ms). So the cursor stands still from a key until a moment after the last one,
// as in many desktop terminals.

/** How long after the last key the cursor starts blinking again. */
export const BLINK_AFTER_MS = 1000;

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
  let resume: unknown = null;
  const set = (blink: boolean) => {
    // Changing the option redraws the cursor's row: only when it changes.
    if (term.options.cursorBlink !== blink) term.options.cursorBlink = blink;
  };
  const cancel = () => {
    if (resume !== null) timers.clear(resume);
    resume = null;
  };
  return {
    focused() {
      focused = true;
      if (resume === null) set(true);
    },
    blurred() {
      focused = false;
      cancel();
      set(false);
    },
    typed() {
      set(false);
      cancel();
      resume = timers.set(() => {
        resume = null;
        if (focused) set(true);
      }, BLINK_AFTER_MS);
    },
  };
}
