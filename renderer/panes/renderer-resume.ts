// A parked pane's xterm renderer resumed as the pane moves into the grid, not a frame later. xterm pauses the renderer
// of a terminal out of view (its IntersectionObserver) and redraws every row when it sees it again; that observer
// reports in a task after the frame. So a switch's frame laid out the ten moved-in panes' old rows, and the next frame
// laid them out again once redrawn: the page's longest task while switching (docs/performance.md, "Longest task: one
// layout per switch"). Resumed here, xterm redraws in the switch's own frame, before its layout: one layout. This
// reaches into xterm's private RenderService (xterm 6: Terminal._core._renderService._handleIntersectionChange), checked
// at run time: a field that is missing or changed leaves xterm to its own observer (slower, never broken).
import type { Terminal } from '@xterm/xterm';

/** Tells xterm its terminal is in view now (the pane was just moved into the grid). */
export function resumeRenderer(term: Terminal): void {
  const core: unknown = (term as unknown as Record<string, unknown>)['_core'];
  const service = isObject(core) ? core['_renderService'] : undefined;
  const handle = isObject(service) ? service['_handleIntersectionChange'] : undefined;
  if (typeof handle !== 'function') return;
  // The fields xterm's own observer entry gives it: in view, wholly.
  (handle as (entry: Pick<IntersectionObserverEntry, 'isIntersecting' | 'intersectionRatio'>) => void).call(service, {
    isIntersecting: true,
    intersectionRatio: 1,
  });
}

/**
 * Applies a resize xterm deferred for its paused renderer now (xterm 6: RenderService._pausedResizeTask, an idle task
 * xterm otherwise runs when the page is idle, or when the terminal is seen in view). Used for a pane sized while
 * parked (pane-fit.ts `fitAhead`): its renderer then has the new size before anything more is written to it.
 */
export function resizeRendererNow(term: Terminal): void {
  const core: unknown = (term as unknown as Record<string, unknown>)['_core'];
  const service = isObject(core) ? core['_renderService'] : undefined;
  const task = isObject(service) ? service['_pausedResizeTask'] : undefined;
  const flush = isObject(task) ? task['flush'] : undefined;
  if (typeof flush === 'function') (flush as () => void).call(task);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
