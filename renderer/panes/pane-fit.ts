// Fitting panes to their hosts, batched per frame: every pane shown or resized since the last frame is measured
// first (one layout of the page), then every terminal resized. Fitting one pane after another would lay the page
// out again for each, and with a grid of panes that was most of a run switch (docs/performance.md).
//
// A pane is resized only once xterm knows it is in view. xterm pauses the renderer of a terminal out of view (an
// IntersectionObserver on its screen), and a paused renderer keeps its old size: resized then, a pane just moved out
// of the parking lot had its scroll area clamped to the old, taller canvas by every line written before xterm saw it
// in view, which xterm takes for the user scrolling up. The view then stayed above the bottom while the agent printed
// (docs/performance.md, "The screen first, the history when wanted"). So a pane not yet seen in view is fitted in the
// same task as xterm's own observer resumes its renderer: no write can come between.
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';

interface Fittable {
  fit: FitAddon;
  term: Terminal;
  element: HTMLElement;
}

const fittable = new Map<string, Fittable>();
const toFit = new Set<string>();
/** Panes to fit as soon as they are in view (asked while out of it). */
const whenInView = new Set<string>();
/** The agent of each observed xterm screen, and the screens in view. */
const screens = new Map<Element, string>();
const inView = new Set<string>();

const observer =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          const now: string[] = [];
          for (const e of entries) {
            const agentId = screens.get(e.target);
            if (agentId === undefined) continue;
            if (!e.isIntersecting) {
              inView.delete(agentId);
              continue;
            }
            inView.add(agentId);
            if (whenInView.delete(agentId)) now.push(agentId);
          }
          if (now.length > 0) fit(now);
        },
        { threshold: 0 },
      )
    : null;

export function trackFit(agentId: string, entry: Fittable): void {
  fittable.set(agentId, entry);
  // The element xterm itself observes (created by term.open, before this observer sees it).
  const screen = entry.term.element?.querySelector('.xterm-screen');
  if (!observer || !screen) {
    inView.add(agentId);
    return;
  }
  screens.set(screen, agentId);
  observer.observe(screen);
}

/** Fits the pane at the next frame; the agent's terminal follows through the xterm's resize event. */
export function fitSoon(agentId: string): void {
  if (toFit.size === 0) requestAnimationFrame(fitAll);
  toFit.add(agentId);
}

function fitAll(): void {
  const ids = [...toFit];
  toFit.clear();
  const ready: string[] = [];
  for (const id of ids) {
    if (inView.has(id)) ready.push(id);
    else whenInView.add(id);
  }
  fit(ready);
}

function fit(ids: readonly string[]): void {
  const sizes = ids.map((id) => {
    const entry = fittable.get(id);
    if (!entry || !entry.element.isConnected || entry.element.clientWidth === 0) return null;
    return { term: entry.term, dims: entry.fit.proposeDimensions() };
  });
  for (const size of sizes) {
    const dims = size?.dims;
    if (!size || !dims || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows)) continue;
    if (size.term.cols !== dims.cols || size.term.rows !== dims.rows) size.term.resize(dims.cols, dims.rows);
  }
}
