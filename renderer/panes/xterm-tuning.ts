// Five costs of xterm's DOM renderer that grow with the number of panes, trimmed from outside xterm
// (docs/performance.md, "Output path and panes"). Profiled while switching through 100 panes:
// - Each DOM renderer keeps its own WidthCache and measures every new character with a span's offsetWidth: a forced
//   layout of the page per character per pane (and four more whenever it recomputes its letter spacing). 19% of the
//   main thread went there. Every pane uses the same font, so the panes share one set of widths per font.
// - The scrollbar's fade-out timer is cancelled and set again (clearTimeout + setTimeout) for every line that
//   scrolls: 9% of the main thread while a pane took its 5,000 lines of history. One timer per pane that re-arms
//   itself once when it fires late does the same with a clock read per line.
// - Output that grows the buffer scrolls a pane that follows it, and xterm shows its scrollbar for every such scroll,
//   then fades it out: a pane printing in bursts flashed its scrollbar after each one, and with ten panes in view a
//   fade was nearly always running (frames with style recalculation and transition events, while the user types in
//   the history too). The scrollbar now shows when the pointer is over the pane or the view is scrolled (a wheel, a
//   key, a drag), as overlay scrollbars do, and not because output arrived.
// - Each DOM renderer writes two style sheets of its own (its theme and its rows' dimensions) into its screen: with a
//   hundred panes, two hundred sheets that differ only in the terminal's number, every element matched against a
//   hundred copies of each rule, and every pane moved in or out of the grid changing the page's sheets. The panes
//   share one copy instead (shared-styles.ts); a write of the text already held changes nothing.
// - A pane parked out of layout (pane-terminal.ts) would measure every width as 0: widths are measured aside, in one
//   element of the page's (hidden-measure.ts), so the shared widths and the renderer's letter spacing are right
//   wherever the pane is, and each pane's own measuring elements (five) leave the DOM: fewer elements moved per switch.
// All reach into xterm's private fields, checked at run time: a field that is missing or changed leaves xterm as it
// is (slower, never broken).

import { measureAside } from './hidden-measure.js';
import { shareStyle, SharedSheets } from './shared-styles.js';

/** xterm's Viewport and its ScrollableElement (from VS Code): what the quiet scrollbar needs of them. */
interface ViewportLike {
  /** True while the viewport follows the buffer (output, a resize), not while the user scrolls it. */
  _isSyncing: boolean;
  _scrollableElement: ScrollableLike;
}
interface ScrollableLike {
  _onDidScroll(e: unknown): void;
  _revealOnScroll: boolean;
}

/** What the tuning needs of xterm's internals (xterm 6: Terminal._core…). */
interface WidthCacheLike {
  _flat: Float32Array;
  _holey: Map<string, number> | undefined;
  _font: string;
  _fontSize: number;
  _weight: unknown;
  _weightBold: unknown;
  clear(): void;
}

export interface TimerLike {
  cancel(): void;
  cancelAndSet(runner: () => void, timeout: number): void;
}

interface Widths {
  flat: Float32Array;
  holey: Map<string, number>;
}

/** xterm's sentinel for a width not yet measured (WidthCacheSettings.FLAT_UNSET). */
const FLAT_UNSET = -9999;

const shared = new Map<string, Widths>();
const sheets = new SharedSheets();
const tunedCaches = new WeakSet<object>();
const tunedTimers = new WeakSet<object>();
const quietViewports = new WeakSet<object>();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function field(from: unknown, ...path: string[]): unknown {
  let at = from;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

function isWidthCache(v: unknown): v is WidthCacheLike {
  return (
    isObject(v) &&
    v._flat instanceof Float32Array &&
    typeof v._font === 'string' &&
    typeof v._fontSize === 'number' &&
    typeof v.clear === 'function'
  );
}

export function isTimer(v: unknown): v is TimerLike {
  return isObject(v) && typeof v.cancel === 'function' && typeof v.cancelAndSet === 'function';
}

/**
 * Points the cache at the widths shared by every cache with the same font (and device pixel ratio, which changes how
 * widths round). xterm clears a cache when the font, the char size or the pixel ratio changes: a cleared cache is
 * pointed at the set for its new font instead of being emptied, so the other panes keep theirs.
 */
function shareWidths(cache: WidthCacheLike): void {
  /** `own`: the cache's widths are of its current font (not just cleared for a new one), and seed a new set. */
  const repoint = (own = false) => {
    const key = [cache._font, cache._fontSize, String(cache._weight), String(cache._weightBold), devicePixelRatio].join(
      '\u0000',
    );
    let widths = shared.get(key);
    if (!widths) {
      widths =
        own && cache._holey
          ? { flat: cache._flat, holey: cache._holey }
          : { flat: new Float32Array(cache._flat.length).fill(FLAT_UNSET), holey: new Map() };
      shared.set(key, widths);
    }
    cache._flat = widths.flat;
    cache._holey = widths.holey;
  };
  repoint(true);
  cache.clear = () => repoint();
}

/**
 * Shares the widths of every later cache from its construction on. A DOM renderer measures 'W' in its constructor
 * (its letter spacing), inside `term.open`, before `tuneXterm` can reach its cache: a forced layout of the page in
 * every pane's open, 22% of a run switch's profile (docs/performance.md, "Long tasks"). xterm's constructor sets the
 * font (`setFont`) before it measures, so the class's `setFont` shares the cache's widths once the font is set.
 */
function shareFromConstruction(cache: WidthCacheLike): void {
  const proto: unknown = Object.getPrototypeOf(cache);
  if (!isObject(proto) || proto === Object.prototype || !Object.prototype.hasOwnProperty.call(proto, 'setFont')) return;
  const setFont = proto.setFont;
  if (typeof setFont !== 'function' || patchedSetFont.has(setFont)) return;
  const shared = function (this: unknown, ...args: unknown[]): unknown {
    const result: unknown = Reflect.apply(setFont, this, args);
    if (isWidthCache(this) && !tunedCaches.has(this)) {
      tunedCaches.add(this);
      shareWidths(this);
      dropContainer(this);
    }
    return result;
  };
  patchedSetFont.add(shared);
  proto.setFont = shared;
}
const patchedSetFont = new WeakSet<object>();

/**
 * Every WidthCache measures (its class's `_measure(c, variant)`) outside the panes, in the page's one measuring element:
 * a parked pane, out of layout, would read 0 for every character in its own.
 */
function measureHiddenAside(cache: WidthCacheLike): void {
  const proto: unknown = Object.getPrototypeOf(cache);
  if (!isObject(proto) || proto === Object.prototype || !Object.prototype.hasOwnProperty.call(proto, '_measure'))
    return;
  const measure = proto._measure;
  if (typeof measure !== 'function' || patchedMeasure.has(measure)) return;
  const aside = function (this: unknown, c: unknown, variant: unknown): unknown {
    if (isWidthCache(this) && typeof c === 'string' && typeof variant === 'number')
      return measureAside(this, c, variant);
    return Reflect.apply(measure, this, [c, variant]) as unknown;
  };
  patchedMeasure.add(aside);
  proto._measure = aside;
}
const patchedMeasure = new WeakSet<object>();

/**
 * The cache's own measuring elements (a container and four spans, xterm 6: WidthCache._container) leave the pane: every
 * width is measured aside, and a switch moves ten panes' hosts in and out of the grid with all they hold (restyled and
 * laid out each time). xterm still sets their font, and removes the container on dispose; both work on a detached node.
 */
function dropContainer(cache: WidthCacheLike): void {
  const container = (cache as unknown as Record<string, unknown>)['_container'];
  if (isObject(container) && typeof container.remove === 'function') (container.remove as () => void).call(container);
}

/** xterm's 'W', the character whose width against the cell's gives a DOM renderer its letter spacing. */
const W = 'W'.charCodeAt(0);

/**
 * A renderer built before its cache's measure was patched (the first pane, opened in the lot) reckoned its letter
 * spacing from a 'W' that read 0 (kept out of the cache): reckoned again now, measured aside.
 */
function respaceIfUnmeasured(renderer: unknown, cache: WidthCacheLike): void {
  if (cache._flat[W] !== FLAT_UNSET || !isObject(renderer)) return;
  const respace = renderer._setDefaultSpacing;
  if (typeof respace === 'function') (respace as () => void).call(renderer);
}

/**
 * The same contract as xterm's TimeoutTimer.cancelAndSet (the runner runs `timeout` ms after the last call, once),
 * with one browser timer that is re-armed only when it fires before the newest deadline.
 */
export function lazyTimer(timer: TimerLike, now: () => number = () => performance.now()): void {
  let runner: (() => void) | null = null;
  let due = 0;
  let handle: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    handle = null;
    const left = due - now();
    if (left > 0) {
      handle = setTimeout(fire, left);
      return;
    }
    const run = runner;
    runner = null;
    run?.();
  };
  timer.cancelAndSet = (next, timeout) => {
    runner = next;
    due = now() + timeout;
    handle ??= setTimeout(fire, timeout);
  };
  timer.cancel = () => {
    runner = null;
    if (handle !== null) clearTimeout(handle);
    handle = null;
  };
}

function isViewport(v: unknown): v is ViewportLike {
  if (!isObject(v) || typeof v._isSyncing !== 'boolean') return false;
  const scrollable = v._scrollableElement;
  return (
    isObject(scrollable) &&
    typeof scrollable._onDidScroll === 'function' &&
    typeof scrollable._revealOnScroll === 'boolean'
  );
}

/**
 * A scroll made while the viewport follows the buffer (output arrived, the pane was resized) does not reveal the
 * scrollbar; one the user made (a wheel, a key, a drag) does, as before, and so does the pointer over the pane
 * (xterm's own mouse-over).
 */
function quietScrollbar(viewport: ViewportLike): void {
  const scrollable = viewport._scrollableElement;
  const onDidScroll = scrollable._onDidScroll.bind(scrollable);
  scrollable._onDidScroll = (e) => {
    if (!viewport._isSyncing || !scrollable._revealOnScroll) return onDidScroll(e);
    scrollable._revealOnScroll = false;
    try {
      onDidScroll(e);
    } finally {
      scrollable._revealOnScroll = true;
    }
  };
}

/**
 * Applies all of them to `term` (an opened xterm). Idempotent; call it again after the renderer changes (the DOM renderer
 * that takes over from WebGL has a new WidthCache).
 */
export function tuneXterm(term: object): void {
  const core = field(term, '_core');
  const cache = field(core, '_renderService', '_renderer', 'value', '_widthCache');
  if (isWidthCache(cache) && !tunedCaches.has(cache)) {
    tunedCaches.add(cache);
    shareWidths(cache);
    shareFromConstruction(cache);
    measureHiddenAside(cache);
    dropContainer(cache);
    respaceIfUnmeasured(field(core, '_renderService', '_renderer', 'value'), cache);
  }
  const renderer = field(core, '_renderService', '_renderer', 'value');
  for (const style of [field(renderer, '_dimensionsStyleElement'), field(renderer, '_themeStyleElement')])
    if (isObject(style)) shareStyle(style, sheets);
  const timer = field(core, '_viewport', '_scrollableElement', '_hideTimeout');
  if (isTimer(timer) && !tunedTimers.has(timer)) {
    tunedTimers.add(timer);
    lazyTimer(timer);
  }
  const viewport = field(core, '_viewport');
  if (isViewport(viewport) && !quietViewports.has(viewport)) {
    quietViewports.add(viewport);
    quietScrollbar(viewport);
  }
}

/** Whether `term` has both (for tests: an xterm upgrade that renames a field should be noticed, not silently slow). */
export function isTuned(term: object): boolean {
  const core = field(term, '_core');
  const cache = field(core, '_renderService', '_renderer', 'value', '_widthCache');
  const timer = field(core, '_viewport', '_scrollableElement', '_hideTimeout');
  const viewport = field(core, '_viewport');
  return (
    isObject(cache) &&
    tunedCaches.has(cache) &&
    isObject(timer) &&
    tunedTimers.has(timer) &&
    isObject(viewport) &&
    quietViewports.has(viewport)
  );
}
