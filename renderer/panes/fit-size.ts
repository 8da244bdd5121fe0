// A pane's columns and rows from sizes the page already knows, without reading layout. The fit addon's
// `proposeDimensions()` reads the host's computed width and height and the xterm element's padding: a forced style
// recalculation and layout of every pane that changed since the last frame, paid inside the fit (in the task where
// xterm resumes a pane's renderer, right after it redrew). Here the host's size comes from a ResizeObserver entry
// (measured by the frame's own layout), the padding is read once for all panes, and the cell size is the one
// xterm's renderer already holds. The arithmetic is the addon's (@xterm/addon-fit 0.11), so both give the same answer
// (docs/performance.md, "Longest task: fits without forced layout").
import type { Terminal } from '@xterm/xterm';

export interface BoxSize {
  width: number;
  height: number;
}

export interface Padding {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The fit addon's minimum and xterm's default scroll bar width (ViewportConstants.DEFAULT_SCROLL_BAR_WIDTH). */
const MINIMUM_COLS = 2;
const MINIMUM_ROWS = 1;
const DEFAULT_SCROLL_BAR_WIDTH = 14;

/** Columns and rows of a terminal whose element sits in a host of `host` size; undefined while it can't be known. */
export function fitDimensions(
  host: BoxSize,
  cell: BoxSize,
  padding: Padding,
  scrollbarWidth: number,
): { cols: number; rows: number } | undefined {
  if (cell.width <= 0 || cell.height <= 0 || host.width <= 0) return undefined;
  // The addon parses the computed "123.45px" with parseInt: the whole pixels, truncated.
  const height = Math.trunc(host.height) - padding.top - padding.bottom;
  const width = Math.max(0, Math.trunc(host.width)) - padding.left - padding.right - scrollbarWidth;
  return {
    cols: Math.max(MINIMUM_COLS, Math.floor(width / cell.width)),
    rows: Math.max(MINIMUM_ROWS, Math.floor(height / cell.height)),
  };
}

/** The scroll bar's width the fit leaves out, as the addon reckons it. */
export function scrollbarWidth(term: Terminal): number {
  return term.options.scrollback === 0 ? 0 : term.options.overviewRuler?.width || DEFAULT_SCROLL_BAR_WIDTH;
}

/** The xterm element's padding (a style read: no layout, but a style recalculation of the page if it is due). */
export function elementPadding(element: Element): Padding {
  const style = getComputedStyle(element);
  const px = (name: string) => parseInt(style.getPropertyValue(name)) || 0;
  return { top: px('padding-top'), bottom: px('padding-bottom'), left: px('padding-left'), right: px('padding-right') };
}

/**
 * The CSS size of one cell as xterm's renderer holds it (xterm 6: Terminal._core._renderService.dimensions.css.cell,
 * the field the fit addon reads too); undefined if that field is missing or changed, and the caller then fits the
 * addon's way.
 */
export function cellSize(term: Terminal): BoxSize | undefined {
  let at: unknown = term;
  for (const key of ['_core', '_renderService', 'dimensions', 'css', 'cell']) at = isObject(at) ? at[key] : undefined;
  if (!isObject(at)) return undefined;
  const { width, height } = at;
  return typeof width === 'number' && typeof height === 'number' ? { width, height } : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
