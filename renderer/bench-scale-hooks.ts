// Measurement hooks of the scale bench (test/bench/renderer-scale.ts), in the bench build only (bench-main.ts), as
// `window.__batonScale`: switching runs until every pane shows its agent's current output, the page's long tasks,
// and typing into the history's search box. Figures are taken inside the page, with no round trip to the bench.
import { existingPane, getPane, paneRenderer, settled } from './panes/terminal-registry.js';
import { useBaton } from './state/store.js';
import { FULL_SCROLLBACK } from './panes/pane-history.js';
import { lot, type PaneTerminal } from './panes/pane-terminal.js';
import { urgentTask } from './panes/show-slices.js';
import { armTyping, typingKeys, type TypingKey } from './bench-typing-hooks.js';

export interface SwitchResult {
  /** Per agent: the run was selected → the first frame in which its pane showed output at least as new as the switch. */
  ms: Record<string, number>;
  /**
   * Per agent: the run was selected → that frame painted (a task queued from its animation frame callback runs once
   * the frame's style, layout, paint and commit are done). `ms` is the frame's start, before that frame's work.
   */
  painted?: Record<string, number>;
  /**
   * The switch's own task (ms): the run selected → React's render, commit and effects done (they run in a microtask
   * queued by the selection, so a microtask queued after it runs once they are done).
   */
  ownTask?: number;
  /** How many messages the page wrote on its socket in that task (each a send: docs/performance.md, flow13). */
  ownTaskSends?: number;
  /** Agents whose pane showed no output within the time allowed. */
  blank: string[];
  /** Agents whose pane showed only output older than the switch within the time allowed. */
  stale: string[];
  /** For each pane not current, where its view stands (the bench prints it with BENCH_DIAG=1). */
  diag: string[];
  /** Per agent, where its switch's time went (BENCH_SWITCH_DETAIL=1 prints it; renderer-scale-switch.ts). */
  detail: Record<string, PaneSwitchDetail>;
  /** The animation frames after the switch: each one's start (its rAF time stamp) and when its callback ran (ms from the switch). */
  frames: { start: number; ran: number }[];
}

/** When, from the switch (ms), a pane's output came into its buffer and it into the grid. */
export interface PaneSwitchDetail {
  /** The pane's place in its run (0 first). */
  index: number;
  /** The pane's offset (bytes it had from the core) at the switch, and the first parse after it. */
  offsetAt0: number;
  /** Its first write parsed after the switch (any), and the first that left a current tick on its screen. */
  firstParsed: number | null;
  currentParsed: number | null;
  /** Bytes it had by then. */
  offsetCurrent: number | null;
  /** The first frame callback that found it in the grid (index, 0 first). */
  inGridFrame: number | null;
  /** Its buffer's newest tick at the switch, against the switch's `current`. */
  tickAt0: number;
  current: number;
}

/** A pane's view against its buffer: the view's rows and newest tick, and where the buffer's newest tick is. */
function diagnose(agentId: string): string {
  const pane = existingPane(agentId);
  if (!pane) return `${agentId}: no pane`;
  const b = pane.term.buffer.active;
  let newestAnywhere = -1;
  let newestLine = -1;
  for (let y = 0; y < b.length; y++) {
    const text = b.getLine(y)?.translateToString(true) ?? '';
    for (const m of text.matchAll(/tick (\d{10})/g))
      if (Number(m[1]) >= newestAnywhere) {
        newestAnywhere = Number(m[1]);
        newestLine = y;
      }
  }
  const rows: string[] = [];
  for (let y = 0; y < pane.term.rows; y++) rows.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '');
  return [
    `${agentId}: now=${Math.floor(Date.now() / 1000)} visible=${pane.visible} stream=${pane.stream !== null} offset=${pane.offset} size=${pane.term.cols}x${pane.term.rows} viewportY=${b.viewportY} baseY=${b.baseY} length=${b.length} cursorY=${b.cursorY} newestTick=${newestTick(agentId)} newestAnywhere=${newestAnywhere}@${newestLine} host=${pane.element.parentElement?.className ?? 'none'} ${pane.element.clientWidth}x${pane.element.clientHeight}`,
    '    viewport: ' + JSON.stringify(rows.filter((r) => r.trim() !== '').slice(-6)),
  ].join('\n');
}

export interface BatonScale {
  /**
   * Selects the run and waits, frame by frame, until each agent's pane is in view and shows a `tick <unix seconds>`
   * line no older than the switch (the bench's agents print one every second): its current screen is painted.
   */
  timeSwitch(runId: string, agentIds: string[], timeoutMs?: number): Promise<SwitchResult>;
  /** The longest animation frames since `since`, with the scripts that ran in them. */
  longFrames(since: number): string[];
  /** The longest main-thread task (ms) since `since` (performance.now()), from the Long Tasks API (tasks > 50 ms). */
  longestTask(since: number): number;
  /** Messages the page has written on its sockets since it loaded. */
  socketSends(): number;
  /** Starts timing keystrokes in the history's search box (docs/performance.md "Typing in the history: what a key costs"). */
  armTyping(): void;
  /** Per key since `armTyping`, in the order typed. */
  typingKeys(): TypingKey[];
  /** Durations (ms) of each phase of showing a pane (terminal-registry.ts's `baton:pane-*` measures) since `since`. */
  paneTimings(since: number): Record<string, number[]>;
  /** How many of these agents' panes hold less than the full history now (parked a while: pane-history.ts trims). */
  trimmedPanes(agentIds: string[]): number;
  /**
   * Resolves once every one of these agents' panes is attached to its terminal and what the core sent it so far is
   * parsed (loaded ahead by pane-warmup.ts, or in view), or at the timeout: the page's clock then (ms since it began
   * loading) and how many were loaded.
   */
  loadedAhead(agentIds: string[], timeoutMs: number): Promise<{ at: number; loaded: number }>;
}

declare global {
  interface Window {
    __batonScale?: BatonScale;
  }
}

/** Messages written on the page's sockets so far (the switch timer reads it around a switch's own task). */
let socketSends = 0;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (this: WebSocket, data: Parameters<WebSocket['send']>[0]) {
  socketSends++;
  return send.call(this, data);
};

const longTasks: { start: number; duration: number }[] = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // No Long Tasks API: longestTask reports 0 and the bench says so.
}

/** The longest animation frames and the scripts in them (Long Animation Frames API), for BENCH_DIAG=1. */
const longFrames: { start: number; duration: number; scripts: string }[] = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & {
      renderStart?: number;
      styleAndLayoutStart?: number;
      scripts?: {
        invoker: string;
        sourceFunctionName: string;
        sourceURL: string;
        sourceCharPosition: number;
        duration: number;
        forcedStyleAndLayoutDuration: number;
      }[];
    })[]) {
      const scripts = (e.scripts ?? [])
        .filter((x) => x.duration > 5)
        .map(
          (x) =>
            `${x.invoker}|${x.sourceFunctionName}@${x.sourceURL.split('/').pop() ?? ''}:${x.sourceCharPosition} ${Math.round(x.duration)}ms (layout ${Math.round(x.forcedStyleAndLayoutDuration)})`,
        )
        .join('; ');
      // The frame's rendering after its scripts: requestAnimationFrame callbacks and ResizeObservers (render →
      // style-and-layout), then the frame's own style and layout (style-and-layout → end).
      const end = e.startTime + e.duration;
      const render = e.renderStart ? Math.round((e.styleAndLayoutStart ?? end) - e.renderStart) : 0;
      const layout = e.styleAndLayoutStart ? Math.round(end - e.styleAndLayoutStart) : 0;
      longFrames.push({
        start: e.startTime,
        duration: e.duration,
        scripts: `[rAF ${render}, style+layout ${layout}] ${scripts}`,
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
} catch {
  // No Long Animation Frames API: no attribution.
}

/** The newest `tick N` in the pane's screen (its viewport rows), or -1. */
function newestTick(agentId: string): number {
  if (paneRenderer(agentId) === null) return -1;
  const pane = getPane(agentId);
  // Shown means in the page's grid, not only marked visible: a pane still in the parking lot is not on screen.
  if (!pane.visible || !pane.element.isConnected || lot().contains(pane.element)) return -1;
  return viewportTick(pane.term);
}

/** The newest `tick N` in the pane's viewport rows whether or not it is in the grid (-1 without a pane). */
function bufferTick(agentId: string): number {
  const pane = existingPane(agentId);
  return pane ? viewportTick(pane.term) : -1;
}

/** The newest `tick N` in a terminal's viewport rows, or -1. */
function viewportTick(term: PaneTerminal['term']): number {
  const buffer = term.buffer.active;
  // From the bottom row up: the agents print their ticks in order, so the lowest row holding one holds the newest.
  // Read downward, every row of every pane waiting was turned into a string at each frame and write: a tenth of the
  // page's allocations while switching, and so of its garbage collections (docs/performance.md, flow13).
  for (let y = term.rows - 1; y >= 0; y--) {
    const text = buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '';
    let newest = -1;
    for (const m of text.matchAll(/tick (\d{10})/g)) newest = Math.max(newest, Number(m[1]));
    if (newest >= 0) return newest;
  }
  return -1;
}

function timeSwitch(runId: string, agentIds: string[], timeoutMs = 10_000): Promise<SwitchResult> {
  // The agents print every second: the last line before the switch is at most that old (and a second of slack).
  const current = Math.floor(Date.now() / 1000) - 2;
  const t0 = performance.now();
  const detail: Record<string, PaneSwitchDetail> = {};
  const frames: { start: number; ran: number }[] = [];
  const listeners: { dispose(): void }[] = [];
  for (const [index, id] of agentIds.entries()) {
    const pane = existingPane(id);
    const d: PaneSwitchDetail = {
      index,
      offsetAt0: pane?.offset ?? -1,
      firstParsed: null,
      currentParsed: null,
      offsetCurrent: null,
      inGridFrame: null,
      tickAt0: bufferTick(id),
      current,
    };
    detail[id] = d;
    if (pane)
      listeners.push(
        pane.term.onWriteParsed(() => {
          const at = performance.now() - t0;
          d.firstParsed ??= at;
          if (d.currentParsed === null && bufferTick(id) >= current) {
            d.currentParsed = at;
            d.offsetCurrent = existingPane(id)?.offset ?? -1;
          }
        }),
      );
  }
  const selectedAt = performance.now();
  const sendsBefore = socketSends;
  useBaton.getState().selectRun(runId);
  let ownTask = 0;
  let ownTaskSends = 0;
  queueMicrotask(() => {
    ownTask = performance.now() - selectedAt;
    // The flow messages of the task are flushed in a microtask the task's effects queued, after this one.
    queueMicrotask(() => (ownTaskSends = socketSends - sendsBefore));
  });
  const ms: Record<string, number> = {};
  const painted: Record<string, number> = {};
  return new Promise((resolve) => {
    const frame = (now: number) => {
      frames.push({ start: now - t0, ran: performance.now() - t0 });
      for (const id of agentIds) {
        const pane = existingPane(id);
        const d = detail[id];
        if (d && d.inGridFrame === null && pane?.element.isConnected && !lot().contains(pane.element))
          d.inGridFrame = frames.length - 1;
      }
      const nowCurrent = agentIds.filter((id) => !(id in ms) && newestTick(id) >= current);
      for (const id of nowCurrent) ms[id] = now - t0;
      const done = Object.keys(ms).length === agentIds.length || now - t0 > timeoutMs;
      if (!done) requestAnimationFrame(frame);
      if (nowCurrent.length === 0 && !done) return;
      // This frame's end: a task queued now runs after its style, layout, paint and commit; at the highest priority a
      // page can ask for, so that it does not also wait behind the output tasks queued meanwhile.
      urgentTask(() => {
        const at = performance.now() - t0;
        for (const id of nowCurrent) painted[id] = at;
        if (!done) return;
        const late = agentIds.filter((id) => !(id in ms));
        for (const l of listeners) l.dispose();
        resolve({
          ms,
          painted,
          ownTask,
          ownTaskSends,
          blank: late.filter((id) => newestTick(id) < 0),
          stale: late.filter((id) => newestTick(id) >= 0),
          diag: late.map(diagnose),
          detail,
          frames,
        });
      });
    };
    requestAnimationFrame(frame);
  });
}

/** Checked every 50 ms (a finer poll would cut the page's idle periods, in which the panes are loaded ahead). */
async function loadedAhead(agentIds: string[], timeoutMs: number): Promise<{ at: number; loaded: number }> {
  const until = performance.now() + timeoutMs;
  const attached = () => agentIds.filter((id) => existingPane(id)?.stream != null);
  for (;;) {
    const loaded = attached();
    if (loaded.length === agentIds.length || performance.now() > until) {
      await Promise.all(loaded.map((id) => settled(id)));
      return { at: performance.now(), loaded: loaded.length };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

window.__batonScale = {
  loadedAhead,
  timeSwitch,
  longFrames: (since: number) =>
    longFrames
      .filter((f) => f.start >= since)
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 12)
      .map((f) => `${Math.round(f.duration)}ms: ${f.scripts}`),
  socketSends: () => socketSends,
  longestTask: (since) => longTasks.filter((t) => t.start >= since).reduce((m, t) => Math.max(m, t.duration), 0),
  armTyping,
  typingKeys,
  paneTimings: (since) => {
    const phases: Record<string, number[]> = {};
    for (const m of performance.getEntriesByType('measure'))
      if (m.name.startsWith('baton:pane-') && m.startTime >= since)
        (phases[m.name.slice('baton:pane-'.length)] ??= []).push(m.duration);
    return phases;
  },
  trimmedPanes: (agentIds) =>
    agentIds.filter((id) => (existingPane(id)?.term.options.scrollback ?? FULL_SCROLLBACK) < FULL_SCROLLBACK).length,
};
