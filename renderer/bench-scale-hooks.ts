// Measurement hooks of the scale bench (test/bench/renderer-scale.ts), in the bench build only (bench-main.ts), as
// `window.__batonScale`: switching runs until every pane shows its agent's current output, the page's long tasks,
// and typing into the history's search box. Figures are taken inside the page, with no round trip to the bench.
import { existingPane, getPane, paneRenderer } from './panes/terminal-registry.js';
import { useBaton } from './state/store.js';

export interface SwitchResult {
  /** Per agent: the run was selected → the first frame in which its pane showed output at least as new as the switch. */
  ms: Record<string, number>;
  /** Agents whose pane showed no output within the time allowed. */
  blank: string[];
  /** Agents whose pane showed only output older than the switch within the time allowed. */
  stale: string[];
  /** For each pane not current, where its view stands (the bench prints it with BENCH_DIAG=1). */
  diag: string[];
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
  /** Starts timing keystrokes in the history's search box: keydown → the filtered list committed. */
  armTyping(): void;
  /** The samples since `armTyping`, ms. */
  typingSamples(): number[];
  /**
   * Per sample, how long the key waited before the page ran its first handler (ms): the machine's and the page's
   * queue, not the filter's work. On a loaded machine it is most of a slow sample.
   */
  typingWaits(): number[];
  /** Per sample, keydown → the first frame after the list's commit painted (ms): what the user sees. */
  typingPainted(): number[];
  /** Durations (ms) of each phase of showing a pane (terminal-registry.ts's `baton:pane-*` measures) since `since`. */
  paneTimings(since: number): Record<string, number[]>;
}

declare global {
  interface Window {
    __batonScale?: BatonScale;
  }
}

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
      longFrames.push({ start: e.startTime, duration: e.duration, scripts });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
} catch {
  // No Long Animation Frames API: no attribution.
}

/** The newest `tick N` in the pane's screen (its viewport rows), or -1. */
function newestTick(agentId: string): number {
  if (paneRenderer(agentId) === null) return -1;
  const pane = getPane(agentId);
  if (!pane.visible) return -1;
  const buffer = pane.term.buffer.active;
  let newest = -1;
  for (let y = 0; y < pane.term.rows; y++) {
    const text = buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '';
    for (const m of text.matchAll(/tick (\d{10})/g)) newest = Math.max(newest, Number(m[1]));
  }
  return newest;
}

function timeSwitch(runId: string, agentIds: string[], timeoutMs = 10_000): Promise<SwitchResult> {
  // The agents print every second: the last line before the switch is at most that old (and a second of slack).
  const current = Math.floor(Date.now() / 1000) - 2;
  const t0 = performance.now();
  useBaton.getState().selectRun(runId);
  const ms: Record<string, number> = {};
  return new Promise((resolve) => {
    const frame = (now: number) => {
      for (const id of agentIds) if (!(id in ms) && newestTick(id) >= current) ms[id] = now - t0;
      if (Object.keys(ms).length === agentIds.length || now - t0 > timeoutMs) {
        const late = agentIds.filter((id) => !(id in ms));
        return resolve({
          ms,
          blank: late.filter((id) => newestTick(id) < 0),
          stale: late.filter((id) => newestTick(id) >= 0),
          diag: late.map(diagnose),
        });
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

let typing: number[] = [];
let waits: number[] = [];
let painted: number[] = [];
let armed = false;

function armTyping(): void {
  typing = [];
  waits = [];
  painted = [];
  if (armed) return;
  armed = true;
  let keyAt: number | null = null;
  let waited = 0;
  window.addEventListener(
    'keydown',
    (e) => {
      keyAt = e.timeStamp;
      waited = performance.now() - e.timeStamp;
    },
    true,
  );
  window.addEventListener(
    'input',
    (e) => {
      if (keyAt === null || !(e.target instanceof HTMLInputElement) || e.target.type !== 'search') return;
      const start = keyAt;
      keyAt = null;
      // React commits a discrete event's update before the next task: this timer runs once the list is updated.
      const wait = waited;
      setTimeout(() => {
        typing.push(performance.now() - start);
        waits.push(wait);
      }, 0);
      // A task queued from the next frame's callbacks runs once that frame (style, layout, paint) is done.
      requestAnimationFrame(() => setTimeout(() => painted.push(performance.now() - start), 0));
    },
    true,
  );
}

window.__batonScale = {
  timeSwitch,
  longFrames: (since: number) =>
    longFrames
      .filter((f) => f.start >= since)
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 12)
      .map((f) => `${Math.round(f.duration)}ms: ${f.scripts}`),
  longestTask: (since) => longTasks.filter((t) => t.start >= since).reduce((m, t) => Math.max(m, t.duration), 0),
  armTyping,
  typingSamples: () => typing.slice(),
  typingWaits: () => waits.slice(),
  typingPainted: () => painted.slice(),
  paneTimings: (since) => {
    const phases: Record<string, number[]> = {};
    for (const m of performance.getEntriesByType('measure'))
      if (m.name.startsWith('baton:pane-') && m.startTime >= since)
        (phases[m.name.slice('baton:pane-'.length)] ??= []).push(m.duration);
    return phases;
  },
};
