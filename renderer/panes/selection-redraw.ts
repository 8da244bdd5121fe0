// xterm 6 asks its renderer to redraw the selection after every scroll of the buffer (CoreBrowserTerminal: onScroll →
// SelectionService.refresh → RenderService.handleSelectionChanged in the next animation frame), and the DOM renderer
// answers by rendering every row of the viewport again. That call bypasses the pause xterm gives a terminal out of
// view: a parked pane that took a line re-rendered all its rows in the parking lot, and the next frame that laid the
// lot out (a switch's) laid out all of them (docs/performance.md, switch7: layouts of 3,400-6,500 dirty objects,
// 20-44 ms of CPU, against 1,400 for a switch's own panes). With no selection before or after, nothing a redraw
// would draw changes (a scroll's rows are redrawn by the scroll's own refresh); a change of selection while paused is
// kept and drawn with the full refresh xterm does when the pane is in view again. This reaches into xterm's private
// RenderService, checked at run time: a field that is missing leaves xterm as it is (slower, never broken).

interface SelectionState {
  start: unknown;
  end: unknown;
  columnSelectMode: unknown;
}

const patched = new WeakSet<object>();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function isSelectionState(v: unknown): v is SelectionState {
  return isObject(v) && 'start' in v && 'end' in v;
}

/** Skips the selection redraws that change nothing, and defers those of a paused terminal (see above). */
export function quietSelectionRedraws(term: object): void {
  const core = (term as Record<string, unknown>)['_core'];
  const service = isObject(core) ? core['_renderService'] : undefined;
  if (!isObject(service) || patched.has(service)) return;
  const original = service['handleSelectionChanged'];
  if (typeof original !== 'function' || !isSelectionState(service['_selectionState'])) return;
  if (typeof service['_isPaused'] !== 'boolean' || typeof service['_needsFullRefresh'] !== 'boolean') return;
  patched.add(service);
  service['handleSelectionChanged'] = (start: unknown, end: unknown, columnSelectMode: unknown): unknown => {
    const state = service['_selectionState'];
    if (!isSelectionState(state)) return Reflect.apply(original, service, [start, end, columnSelectMode]);
    if (!start && !end && !state.start && !state.end) return undefined;
    if (service['_isPaused'] === true) {
      state.start = start;
      state.end = end;
      state.columnSelectMode = columnSelectMode;
      service['_needsSelectionRefresh'] = true;
      service['_needsFullRefresh'] = true;
      return undefined;
    }
    return Reflect.apply(original, service, [start, end, columnSelectMode]);
  };
}

/** Whether `term`'s selection redraws are trimmed (for tests: an xterm upgrade must be noticed). */
export const quietsSelection = (term: object): boolean => {
  const core = (term as Record<string, unknown>)['_core'];
  const service = isObject(core) ? core['_renderService'] : undefined;
  return isObject(service) && patched.has(service);
};
