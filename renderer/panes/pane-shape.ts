// Which panes share a cell size: those of runs shown the same way with as many panes (a grid of ten panes has the same
// cells in every run). A pane loaded ahead is sized to the cell its run's grid will give it, from the last pane fitted
// in a grid of that shape (pane-fit.ts `fitAhead`), so its first visit does not resize it in the switch's frame.

/** The attribute on a run's grid (or tab panel, RunView.tsx) that names its shape; a shown pane's host sits inside it. */
export const SHAPE_ATTRIBUTE = 'data-pane-shape';

/** The shape of a run's panes: its layout and, in a grid, how many panes share it (the grid's rows and columns). */
export const paneShape = (layout: 'grid' | 'tabs', panes: number): string =>
  layout === 'tabs' ? 'tabs' : `grid:${panes}`;
