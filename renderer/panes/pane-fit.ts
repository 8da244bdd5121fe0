// Fitting panes to their hosts, batched per frame: every pane shown or resized since the last frame is measured
// first (one layout of the page), then every terminal resized. Fitting one pane after another would lay the page
// out again for each, and with a grid of panes that was most of a run switch (docs/performance.md).
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';

interface Fittable {
  fit: FitAddon;
  term: Terminal;
  element: HTMLElement;
}

const fittable = new Map<string, Fittable>();
const toFit = new Set<string>();

export function trackFit(agentId: string, entry: Fittable): void {
  fittable.set(agentId, entry);
}

/** Fits the pane at the next frame; the agent's terminal follows through the xterm's resize event. */
export function fitSoon(agentId: string): void {
  if (toFit.size === 0) requestAnimationFrame(fitAll);
  toFit.add(agentId);
}

function fitAll(): void {
  const ids = [...toFit];
  toFit.clear();
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
