// A flooding pane draws at most every `FLOOD_FRAME_MS` (docs/performance.md, "Panes: output at xterm's own speed").
// xterm draws a terminal once per animation frame whenever its rows changed, and a pane taking a flood scrolls every
// row every frame: its DOM renderer rebuilds all its rows up to 60 times a second, on a machine whose two cores the
// page shares with the core, the PTY's writer and Chromium's other processes. Text scrolling by at that speed cannot
// be read anyway, and the last screen is always drawn. A pane is throttled only while more than `FLOOD_BYTES` came
// since its last draw but one, so a keystroke's echo, a prompt or a redraw is drawn at the next frame as before; a
// pane typed into during the last `TYPED_MS` is not throttled until `TYPED_FLOOD_BYTES` came since the key (a command
// that floods, `cat big.log`, is a flood after its first screenful, not an echo). While a keystroke's echo is due in one pane, the
// others do not draw at all (at most 50 ms): the echo's frame draws the echo.
// A pane that waits to draw waits on a timer, not by asking for animation frames: a page that asks for a frame every
// 16 ms keeps Chromium drawing continuously, and then a keystroke's echo in another pane arrives just after a frame
// and waits for the next one (measured: the idle echo's p50 went from 5 to 30 ms with a bare loop of empty frames).
// It reaches into xterm's RenderDebouncer (xterm 6: Terminal._core._renderService._renderDebouncer), checked at run
// time: a field that is missing or changed leaves xterm drawing every frame (slower, never broken).

/** Bytes since the last draw above which a pane is taking a flood. */
export const FLOOD_BYTES = 16 * 1024;
/** A flooding pane draws at most this often (20 frames a second). */
export const FLOOD_FRAME_MS = 50;
/** While the user types into another pane, a flooding pane draws at most this often (each draw is a frame). */
export const TYPING_FLOOD_FRAME_MS = 200;
/** A pane typed into draws every frame for this long after the key. */
export const TYPED_MS = 1000;
/** Bytes since the last key above which a pane typed into is taking a flood (and throttled) all the same. */
export const TYPED_FLOOD_BYTES = 64 * 1024;
/** A pane held while an echo is due looks again this often (a timer: no frame is asked for meanwhile). */
export const HOLD_POLL_MS = 4;
/** Stands in xterm's `_animationFrame` while the draw waits on a timer, so xterm asks for no frame of its own. */
const WAITING = -1;

interface DebouncerLike {
  _innerRefresh(): void;
  dispose(): void;
  _animationFrame: number | undefined;
  /** Set while rows wait to be drawn (xterm leaves it unset, or undefined, when none do). */
  _rowStart?: number | undefined;
}

export interface RenderThrottle {
  /** `bytes` more went to the pane's xterm. */
  wrote(bytes: number): void;
  /** The user typed into the pane. */
  typed(): void;
  /** Switched off (the bench weighs it), the pane draws every frame again. */
  enabled: boolean;
  /** Wait on timers rather than animation frames (the bench weighs the old way: false). */
  timers: boolean;
  /**
   * While this says so, the pane (unless typed into) does not draw at all: a keystroke's echo in another pane is due,
   * and its frame is kept clear of other panes' drawing (write-pacer.ts bounds how long an echo is due).
   */
  hold: () => boolean;
  /** The least time between a flooding pane's draws now (FLOOD_FRAME_MS unless told otherwise). */
  floodFrameMs: () => number;
  /** Bytes since a key above which a typed pane is throttled (0: a typed pane is never throttled; the bench weighs it). */
  typedFloodBytes: number;
  /** Times the pane has drawn (for the bench). */
  readonly draws: number;
  /** Whether the pane's rows are held now because it floods (flood-quiet.ts holds its scrollbar along with them). */
  flooding(): boolean;
  /** `flooding()` reads the clock only when a key may still count (false: on every call, as before; the bench weighs it). */
  lazyClock: boolean;
  /** Runs just before each draw, in the draw's frame (flood-quiet.ts does what it held). */
  beforeDraw: (() => void) | null;
  /**
   * Draws the rows waiting to be drawn now, in this task, held or not (a pane just shown: show-slices.ts); false if
   * none wait. The frame xterm may have asked for finds nothing left to draw.
   */
  drawNow(): boolean;
}

export interface FrameClock {
  now(): number;
  frame(run: () => void): number;
  /** Runs `run` in `ms` (a timer: no frame is asked for); returns what cancels it. */
  later(run: () => void, ms: number): () => void;
}

const browserFrames: FrameClock = {
  now: () => performance.now(),
  frame: (run) => requestAnimationFrame(() => run()),
  later: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function debouncerOf(term: object): DebouncerLike | null {
  let at: unknown = term;
  for (const key of ['_core', '_renderService', '_renderDebouncer']) at = isObject(at) ? at[key] : undefined;
  return isObject(at) &&
    typeof at._innerRefresh === 'function' &&
    typeof at.dispose === 'function' &&
    '_animationFrame' in at
    ? (at as unknown as DebouncerLike)
    : null;
}

/** Throttles `term`'s drawing while it takes a flood; null if xterm's internals are not what it expects. */
export function throttleRendering(term: object, clock: FrameClock = browserFrames): RenderThrottle | null {
  const debouncer = debouncerOf(term);
  if (!debouncer) return null;
  let bytes = 0;
  let previous = 0;
  let drawnAt = -Infinity;
  let typedAt = -Infinity;
  let sinceKey = 0;
  const typedInto = (now: number) =>
    now - typedAt <= TYPED_MS && (throttle.typedFloodBytes <= 0 || sinceKey <= throttle.typedFloodBytes);
  // `flooding()` runs on every line xterm scrolls (flood-quiet.ts: the scrollbar's, the textarea's and the selection's
  // syncs), 10,000 times and more a MiB: it reads the clock only when a key may still count, after the byte checks.
  const maybeTyped = () =>
    typedAt !== -Infinity && (throttle.typedFloodBytes <= 0 || sinceKey <= throttle.typedFloodBytes);
  let draws = 0;
  let cancelWait: (() => void) | null = null;
  const draw = debouncer._innerRefresh.bind(debouncer);
  const dispose = debouncer.dispose.bind(debouncer);
  debouncer.dispose = () => {
    cancelWait?.();
    cancelWait = null;
    if (debouncer._animationFrame === WAITING) debouncer._animationFrame = undefined;
    dispose();
  };
  const throttle: RenderThrottle = {
    wrote: (n) => {
      bytes += n;
      sinceKey += n;
    },
    typed: () => {
      typedAt = clock.now();
      sinceKey = 0;
    },
    typedFloodBytes: TYPED_FLOOD_BYTES,
    enabled: true,
    timers: true,
    hold: () => false,
    floodFrameMs: () => FLOOD_FRAME_MS,
    get draws() {
      return draws;
    },
    lazyClock: true,
    flooding: () =>
      throttle.lazyClock
        ? throttle.enabled && bytes + previous > FLOOD_BYTES && !(maybeTyped() && typedInto(clock.now()))
        : throttle.enabled && !typedInto(clock.now()) && bytes + previous > FLOOD_BYTES,
    beforeDraw: null,
    drawNow: () => {
      if (debouncer._rowStart === undefined) return false;
      cancelWait?.();
      cancelWait = null;
      drawn(clock.now());
      return true;
    },
  };
  /** Draws what waits (xterm's own draw), after the throttle's books: the bytes since, the time, the count. */
  function drawn(now: number): number {
    const lastTwo = previous + bytes;
    previous = bytes;
    bytes = 0;
    drawnAt = now;
    draws++;
    throttle.beforeDraw?.();
    draw();
    return lastTwo;
  }
  debouncer._innerRefresh = () => {
    // Nothing to draw (drawn already by drawNow): xterm's own call only runs its callbacks; the books are left alone.
    if (debouncer._rowStart === undefined) return draw();
    const now = clock.now();
    const typed = typedInto(now);
    // The bytes since the last draw, and those of the draw before: xterm parses behind what it is given, so rows keep
    // changing for a while after the bytes came.
    const flooding = bytes + previous > FLOOD_BYTES && now - drawnAt < throttle.floodFrameMs();
    const held = throttle.hold();
    if (throttle.enabled && !typed && (flooding || held)) {
      // Not yet: the rows to draw stay collected. A timer asks for the frame once the pane may draw (dispose cancels
      // it); the old way asked for every frame meanwhile.
      if (!throttle.timers) {
        debouncer._animationFrame = clock.frame(() => debouncer._innerRefresh());
        return;
      }
      waitToDraw(held ? HOLD_POLL_MS : Math.max(1, throttle.floodFrameMs() - (now - drawnAt)));
      return;
    }
    const lastTwo = drawn(now);
    // Still flooding: the next draw cannot come before `floodFrameMs`. Wait for it on a timer, not by asking for
    // frames (xterm asks for one with every parse); then one frame draws whatever changed meanwhile.
    if (throttle.enabled && throttle.timers && !typed && lastTwo > FLOOD_BYTES) waitToDraw(throttle.floodFrameMs());
  };
  function waitToDraw(ms: number): void {
    const d = debouncer!;
    d._animationFrame = WAITING;
    cancelWait = clock.later(
      () => {
        cancelWait = null;
        // Still held for another pane's echo, or still too early (a long wait is looked at again every
        // FLOOD_FRAME_MS, so a wait set while the user typed ends when the typing does): again later, without a frame.
        const now = clock.now();
        if (throttle.enabled && throttle.timers && !typedInto(now)) {
          if (throttle.hold()) return waitToDraw(HOLD_POLL_MS);
          const left = throttle.floodFrameMs() - (now - drawnAt);
          if (left >= 1 && bytes + previous > FLOOD_BYTES) return waitToDraw(left);
        }
        d._animationFrame = clock.frame(() => d._innerRefresh());
      },
      Math.min(ms, FLOOD_FRAME_MS),
    );
  }
  return throttle;
}

/** Whether `term`'s drawing can be throttled (for tests: an xterm upgrade that renames a field should be noticed). */
export function canThrottle(term: object): boolean {
  return debouncerOf(term) !== null;
}
