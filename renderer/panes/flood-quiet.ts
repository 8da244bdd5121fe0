// While a pane floods, what xterm redraws on every scroll waits for the pane's own (throttled) draw
// (docs/performance.md, "A flooding pane's frames"). On every scroll xterm 6 asks its selection service to refresh:
// an animation frame in which the DOM renderer redraws every row of the pane, even with nothing selected. So a pane
// whose rows the render throttle draws 20 times a second (render-throttle.ts) was in fact redrawn at every frame, and
// the page drew 60 frames a second. It also syncs its viewport (the scrollbar's slider) on every scroll, and moves the
// textarea that takes keys to the cursor on every cursor move, as DOM style writes.
// While the throttle holds a flooding pane's rows:
// - a selection refresh with nothing selected, and nothing selected at the last one let through, is dropped: the
//   pane's next draw draws those rows anyway, and there is no highlight to move or clear;
// - the scrollbar's and the textarea's syncs are held and done just before the pane's next draw, in its frame; the
//   scrollbar only while the view is at the bottom (once the user scrolled up, it syncs as xterm does).
// A pane typed into is never throttled, so its textarea (where an IME composes) follows the cursor as before.
// It reaches xterm's private fields (Terminal._core._viewport._sync, ._syncTextArea, ._selectionService.refresh),
// checked at run time: a field that is missing leaves xterm as it is (more frames, never broken).
import type { RenderThrottle } from './render-throttle.js';

interface ViewportLike {
  _sync(ydisp?: number): void;
}
interface SelectionLike {
  refresh(isLinuxMouseSelection?: boolean): void;
  readonly hasSelection: boolean;
}
interface CoreLike {
  _viewport?: ViewportLike;
  _syncTextArea(): void;
  _selectionService?: SelectionLike;
}
/** The public part of xterm's Terminal this needs. */
interface TermLike {
  buffer: { active: { viewportY: number; baseY: number } };
}

export interface FloodQuiet {
  /** Switched off (the bench weighs it), the scrollbar and textarea sync when xterm asks, as before. */
  enabled: boolean;
  /** Switched off (the bench weighs it), every selection refresh asks for its frame, as before. */
  selection: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function coreOf(term: object): CoreLike | null {
  const core = (term as Record<string, unknown>)._core;
  if (!isObject(core) || typeof core._syncTextArea !== 'function') return null;
  const viewport = core._viewport;
  if (!isObject(viewport) || typeof viewport._sync !== 'function') return null;
  const selection = core._selectionService;
  if (!isObject(selection) || typeof selection.refresh !== 'function' || !('hasSelection' in selection)) return null;
  return core as unknown as CoreLike;
}

/** Whether `term`'s viewport and textarea syncs can be held (an xterm upgrade that renames them should be noticed). */
export function canQuiet(term: object): boolean {
  return coreOf(term) !== null;
}

/** Holds `term`'s scrollbar and textarea syncs while `throttle` holds its rows; null if xterm is not as expected. */
export function quietWhileFlooding(term: TermLike & object, throttle: RenderThrottle): FloodQuiet | null {
  const core = coreOf(term);
  if (!core?._viewport || !core._selectionService) return null;
  const viewport = core._viewport;
  const selection = core._selectionService;
  const syncViewport = viewport._sync.bind(viewport);
  const syncTextArea = core._syncTextArea.bind(core);
  let viewportDue = false;
  let textAreaDue = false;
  const quiet: FloodQuiet = { enabled: true, selection: true };
  const holding = () => quiet.enabled && throttle.flooding();
  const atBottom = () => term.buffer.active.viewportY === term.buffer.active.baseY;
  viewport._sync = (ydisp?: number) => {
    if (ydisp === undefined && holding() && atBottom()) {
      viewportDue = true;
      return;
    }
    viewportDue = false;
    syncViewport(ydisp);
  };
  core._syncTextArea = () => {
    if (holding()) {
      textAreaDue = true;
      return;
    }
    textAreaDue = false;
    syncTextArea();
  };
  const refreshSelection = selection.refresh.bind(selection);
  let selectedAtLastRefresh = selection.hasSelection;
  selection.refresh = (isLinuxMouseSelection?: boolean) => {
    const selected = selection.hasSelection;
    if (!isLinuxMouseSelection && !selected && !selectedAtLastRefresh && quiet.selection && throttle.flooding()) return;
    selectedAtLastRefresh = selected;
    refreshSelection(isLinuxMouseSelection);
  };
  const previous = throttle.beforeDraw;
  throttle.beforeDraw = () => {
    previous?.();
    if (viewportDue) {
      viewportDue = false;
      syncViewport();
    }
    if (textAreaDue) {
      textAreaDue = false;
      syncTextArea();
    }
  };
  return quiet;
}
