// Fitting panes to their hosts, batched per frame, without reading layout. Every pane shown or resized since the last
// frame is fitted together from sizes the page already measured: its host's size as a ResizeObserver reported it after
// the frame's own layout, and the cell size xterm holds (fit-size.ts). Reading the size instead (the fit addon's
// `proposeDimensions()`) forced a style recalculation and layout of every pane xterm had just redrawn, inside the task
// where xterm resumes them (docs/performance.md, "Longest task: fits without forced layout").
//
// A pane is resized only once xterm knows it is in view. xterm pauses the renderer of a terminal out of view (an
// IntersectionObserver on its screen), and a paused renderer keeps its old size: resized then, a pane just moved out
// of the parking lot had its scroll area clamped to the old, taller canvas by every line written before xterm saw it
// in view, which xterm takes for the user scrolling up. The view then stayed above the bottom while the agent printed
// (docs/performance.md, "The screen first, the history when wanted"). So a pane not yet seen in view is fitted in the
// same task as xterm's own observer resumes its renderer: no write can come between. The host's new size is known by
// then: resize observations are delivered inside the frame, intersection observations in a task after it.
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';
import { cellSize, elementPadding, fitDimensions, scrollbarWidth, type BoxSize, type Padding } from './fit-size.js';
import { SHAPE_ATTRIBUTE } from './pane-shape.js';
import { resizeRendererNow } from './renderer-resume.js';

interface Fittable {
  fit: FitAddon;
  term: Terminal;
  /** The element the xterm is opened in (moved between a pane's body and the parking lot). */
  element: HTMLElement;
}

const fittable = new Map<string, Fittable>();
/**
 * The xterm element's padding, the same for every pane (one style sheet styles them all): read once, when the first
 * pane opens. Read for each pane, it forced a style recalculation of the page in every pane opener's task.
 */
let padding: Padding | null = null;
const toFit = new Set<string>();
/** Panes to fit as soon as they are in view (asked while out of it). */
const whenInView = new Set<string>();
/** The agent of each observed xterm screen, and the screens in view. */
const screens = new Map<Element, string>();
const inView = new Set<string>();
/** The agent of each observed host and back, the panes in a pane's place (not parked), their hosts' last sizes. */
const hosts = new Map<Element, string>();
const observedHost = new Map<string, Element>();
const mounted = new Set<string>();
const hostSizes = new Map<string, BoxSize>();
/**
 * The shape (pane-shape.ts) of each shown pane's grid, of the grid each pane loaded ahead will be shown in (`fitAhead`,
 * until it is shown), and the size last fitted in a grid of each shape.
 */
const shownShape = new Map<string, string>();
const parkedShape = new Map<string, string>();
const shapeSizes = new Map<string, { cols: number; rows: number }>();

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

// A pane's host size as the frame laid it out (the content box of the pane's body: the box its xterm fills, the
// width and height the fit addon reads). Only the hosts of panes in view are observed, from when a pane is shown to
// when it is parked, as the panes' own observers did before; a host's first report comes after the frame that lays
// it out.
const sizes =
  typeof ResizeObserver === 'function'
    ? new ResizeObserver((entries) => {
        for (const e of entries) {
          const agentId = hosts.get(e.target);
          if (agentId === undefined) continue;
          hostSizes.set(agentId, { width: e.contentRect.width, height: e.contentRect.height });
          fitSoon(agentId);
        }
      })
    : null;

export function trackFit(agentId: string, entry: Fittable): void {
  if (!padding && entry.term.element) padding = elementPadding(entry.term.element);
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

/** The pane is in `host` now: fitted at the next frame, and again whenever the host's size changes. */
export function fitShown(agentId: string, host: HTMLElement): void {
  mounted.add(agentId);
  // An ancestor's attribute: a walk up the tree, no style or layout read.
  const shape = host.closest(`[${SHAPE_ATTRIBUTE}]`)?.getAttribute(SHAPE_ATTRIBUTE);
  parkedShape.delete(agentId);
  if (shape) shownShape.set(agentId, shape);
  else shownShape.delete(agentId);
  const observed = observedHost.get(agentId);
  if (sizes && observed !== host) {
    if (observed) unobserve(agentId, observed);
    // Another host (a pane shown again, or moved): its size is not known until the observer's first report.
    hostSizes.delete(agentId);
    observedHost.set(agentId, host);
    hosts.set(host, agentId);
    sizes.observe(host);
  }
  fitSoon(agentId);
}

/** The pane went to the parking lot: it is not fitted there. */
export function fitParked(agentId: string): void {
  mounted.delete(agentId);
  shownShape.delete(agentId);
  const observed = observedHost.get(agentId);
  if (observed) unobserve(agentId, observed);
}

function unobserve(agentId: string, host: Element): void {
  sizes?.unobserve(host);
  hosts.delete(host);
  observedHost.delete(agentId);
}

/** Fits the pane at the next frame; the agent's terminal follows through the xterm's resize event. */
function fitSoon(agentId: string): void {
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
    return entry && mounted.has(id) ? { id, term: entry.term, dims: proposed(id, entry) } : null;
  });
  for (const size of sizes) {
    const dims = size?.dims;
    if (!size || !dims || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows)) continue;
    const shape = shownShape.get(size.id);
    if (shape) learnShape(shape, dims);
    if (size.term.cols !== dims.cols || size.term.rows !== dims.rows) size.term.resize(dims.cols, dims.rows);
  }
}

/**
 * A parked pane sized to the cell a grid of `shape` gave the last pane fitted in one: now if that size is known, else
 * as soon as a first pane is fitted in such a grid. The resize (the buffer's reflow and the renderer's rows) happens in the
 * lot instead of in the frame that shows the pane. The agent's terminal follows through the xterm's resize event, as
 * for any fit; the fit on show corrects a guess the pane's own cell does not match (a warning line above it).
 */
export function fitAhead(agentId: string, shape: string): void {
  if (mounted.has(agentId)) return;
  parkedShape.set(agentId, shape);
  sizeParked(agentId);
}

function learnShape(shape: string, dims: { cols: number; rows: number }): void {
  const known = shapeSizes.get(shape);
  shapeSizes.set(shape, { cols: dims.cols, rows: dims.rows });
  // The parked panes loaded ahead before the shape's size was known follow in idle time, a few at a time. Only then:
  // a grid's cells can differ by a column (fractions of a pixel), and a size changed at every fit would resize every
  // parked pane of the shape, and its agent's terminal, back and forth. A pane shown before is fitted when shown.
  if (!known) sizeParkedWhenIdle();
}

let idleSizing = false;
function sizeParkedWhenIdle(): void {
  if (idleSizing) return;
  idleSizing = true;
  whenIdle((timeLeft) => {
    idleSizing = false;
    for (const agentId of parkedShape.keys()) {
      if (timeLeft() < MIN_IDLE_LEFT_MS) return sizeParkedWhenIdle();
      sizeParked(agentId);
    }
  });
}

/** A pane resized in the idle callback takes a few milliseconds; less left than this waits for the next one. */
const MIN_IDLE_LEFT_MS = 8;
const whenIdle = (run: (timeLeft: () => number) => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback((d) => run(() => d.timeRemaining()));
  else setTimeout(() => run(() => MIN_IDLE_LEFT_MS), 50);
};

function sizeParked(agentId: string): void {
  const entry = fittable.get(agentId);
  const shape = parkedShape.get(agentId);
  const dims = shape === undefined ? undefined : shapeSizes.get(shape);
  if (!entry || !dims || mounted.has(agentId)) return;
  if (entry.term.cols === dims.cols && entry.term.rows === dims.rows) return;
  entry.term.resize(dims.cols, dims.rows);
  // xterm defers a paused renderer's resize to an idle task: done now, so that nothing written before the pane is
  // shown meets a renderer of the old size (the view clamping described at the top of this file).
  resizeRendererNow(entry.term);
}

/** From the measured host and xterm's cell; the addon's way (a layout read) only where either is out of reach. */
function proposed(id: string, entry: Fittable): { cols: number; rows: number } | undefined {
  const cell = cellSize(entry.term);
  if (!sizes || !cell || !padding) {
    if (!entry.element.isConnected || entry.element.clientWidth === 0) return undefined;
    return entry.fit.proposeDimensions();
  }
  const host = hostSizes.get(id);
  // Not measured yet: the observer's first report, after this frame's layout, fits it.
  return host ? fitDimensions(host, cell, padding, scrollbarWidth(entry.term)) : undefined;
}
