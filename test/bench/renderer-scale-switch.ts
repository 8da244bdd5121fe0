// The scale scene's switching (renderer-scale.ts): switching to each run in turn until every pane of it shows its
// agent's current output, in the page (renderer/bench-scale-hooks.ts), and the waits before it: the run the page opened
// on current, and every live agent's pane loaded ahead (renderer/panes/pane-warmup.ts).
import { appendFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { RpcClient } from '../../shared/client.js';
import type { ServerProcess } from '../helpers/server.js';
import { AGENT_GROUP_NICE_VS, MIRROR_NICE_VS, niceAgentGroups, reniceMirrors } from './mirror-nice.js';
import type { ScaleGlobal, SwitchDetail } from './renderer-scale.js';
import { fmt, ms, quantile } from './stats.js';

export interface ScaleRun {
  id: string;
  agentIds: string[];
}

export interface Switched {
  /** First visits (the first pass), per pane: the switch → its current screen painted (ms). */
  first: number[];
  /** Revisits (the second pass). */
  again: number[];
  /** The same to the end of that frame: its style, layout, paint and commit done (empty from an older build). */
  painted: { first: number[]; again: number[] };
  /** Per switch: the switch's own task, React's render, commit and effects (ms; a bench build from stop 30 on). */
  ownTask: { first: number[]; again: number[] };
  /** Per switch: the messages the page wrote on its socket in that task. */
  ownTaskSends: number[];
  /** The messages the page wrote on its socket while switching, and over how many seconds (null: an older build). */
  sends: { count: number; seconds: number } | null;
  /** The same on the niced side of BENCH_MIRROR_NICE / BENCH_AGENT_GROUP_NICE (empty without). */
  vs: { first: number[]; again: number[]; reniced: number[] };
  blank: string[];
  stale: string[];
  /** The phases of showing a pane (`baton:pane-*` measures) during the first pass. */
  firstTimings: Record<string, number[]>;
}

// Functions passed to page.evaluate run in the page: each names the hooks itself (no closure crosses).

/** Selects the run and waits until each of its panes is current (untimed for the bench's figures; the time printed). */
export async function waitCurrent(page: Page, run: ScaleRun): Promise<number> {
  const r = await page.evaluate(
    ([id, agents]) => (globalThis as unknown as ScaleGlobal).__batonScale.timeSwitch(id, agents),
    [run.id, run.agentIds] as const,
  );
  return Math.max(...Object.values(r.ms));
}

/**
 * Waits until every agent's pane in the page is attached and what it was sent is parsed (the page loaded them ahead,
 * or they are in view), at most `timeoutMs`: the page's clock then (ms since it began loading) and how many were.
 */
export async function waitLoadedAhead(
  page: Page,
  agentIds: string[],
  timeoutMs: number,
): Promise<{ at: number; loaded: number } | null> {
  return page.evaluate(
    ([ids, timeout]) => {
      const s = (globalThis as unknown as ScaleGlobal).__batonScale;
      return s.loadedAhead ? s.loadedAhead(ids, timeout) : null;
    },
    [agentIds, timeoutMs] as const,
  );
}

/** `passes` times through every run, in order; the first pass's switches are first visits on a page that never showed them. */
export async function switchThrough(
  page: Page,
  client: RpcClient,
  server: ServerProcess,
  runs: ScaleRun[],
  passes: 1 | 2,
  mirrorTrace: string | undefined,
): Promise<Switched> {
  const since = await page.evaluate(() => performance.now());
  const sendsAt = async () =>
    page.evaluate(() => (globalThis as unknown as ScaleGlobal).__batonScale.socketSends?.() ?? null);
  const [sendsBefore, startedAt] = [await sendsAt(), Date.now()];
  const out: Switched = {
    first: [],
    again: [],
    painted: { first: [], again: [] },
    ownTask: { first: [], again: [] },
    ownTaskSends: [],
    sends: null,
    vs: { first: [], again: [], reniced: [] },
    blank: [],
    stale: [],
    firstTimings: {},
  };
  const { vs } = out;
  for (let pass = 0; pass < passes; pass++) {
    const into = pass === 0 ? out.first : out.again;
    if (pass === 1)
      out.firstTimings = await page.evaluate(
        (t) => (globalThis as unknown as ScaleGlobal).__batonScale.paneTimings(t),
        since,
      );
    for (const [i, run] of runs.entries()) {
      // BENCH_MIRROR_NICE=n: every other run is switched to with the core's mirror threads at niceness n
      // (mirror-nice.ts), the even ones (BENCH_MIRROR_NICE_FIRST=1: the odd ones; alternate it between bench runs).
      const niced =
        (MIRROR_NICE_VS !== null || AGENT_GROUP_NICE_VS !== null) &&
        i % 2 === (process.env.BENCH_MIRROR_NICE_FIRST === '1' ? 0 : 1);
      if (AGENT_GROUP_NICE_VS !== null)
        vs.reniced.push(niceAgentGroups(server.child.pid, niced ? AGENT_GROUP_NICE_VS : 0));
      if (MIRROR_NICE_VS !== null)
        vs.reniced.push(
          reniceMirrors(server.child.pid, niced ? MIRROR_NICE_VS : Number(process.env.BATON_MIRROR_NICE ?? 0) || 0),
        );
      const sideFrom = Date.now();
      const r = await page.evaluate(
        ([id, agents]) => (globalThis as unknown as ScaleGlobal).__batonScale.timeSwitch(id, agents),
        [run.id, run.agentIds] as const,
      );
      // Which side of the A/B each switch was, for the trace's split of the page's fetches (mirror-trace.ts).
      if (mirrorTrace && (MIRROR_NICE_VS !== null || AGENT_GROUP_NICE_VS !== null))
        appendFileSync(mirrorTrace, JSON.stringify({ k: 'side', niced, start: sideFrom, end: Date.now() }) + '\n');
      (niced ? (pass === 0 ? vs.first : vs.again) : into).push(...Object.values(r.ms));
      if (!niced) (pass === 0 ? out.painted.first : out.painted.again).push(...Object.values(r.painted ?? {}));
      if (!niced && r.ownTask !== undefined) (pass === 0 ? out.ownTask.first : out.ownTask.again).push(r.ownTask);
      if (!niced && r.ownTaskSends !== undefined) out.ownTaskSends.push(r.ownTaskSends);
      if (process.env.BENCH_SWITCH_DETAIL === '1') printDetail(pass, i, r.ms, r.detail, r.frames);
      out.blank.push(...r.blank);
      out.stale.push(...r.stale);
      // Where each pane not current stands: its view against its buffer, and the core's screen.
      if (process.env.BENCH_DIAG === '1') await printDiag(client, r.diag);
    }
  }
  if (passes === 1)
    out.firstTimings = await page.evaluate(
      (t) => (globalThis as unknown as ScaleGlobal).__batonScale.paneTimings(t),
      since,
    );
  const sendsAfter = await sendsAt();
  if (sendsBefore !== null && sendsAfter !== null)
    out.sends = { count: sendsAfter - sendsBefore, seconds: (Date.now() - startedAt) / 1000 };
  return out;
}

/**
 * BENCH_SWITCH_DETAIL=1: per switch, its first frames (start / callback ran, ms from the switch) and each pane's
 * current frame, when its catch-up was parsed and the bytes it caught up ("late" panes: not current in frame 0).
 */
function printDetail(
  pass: number,
  run: number,
  ms: Record<string, number>,
  detail: Record<string, SwitchDetail> | undefined,
  frames: { start: number; ran: number }[] | undefined,
): void {
  if (!detail || !frames) return;
  const f = (v: number | null) => (v === null ? '-' : v.toFixed(0));
  const frameOf = (t: number) => frames.findIndex((x) => Math.abs(x.start - t) < 0.01);
  const panes = Object.entries(detail).map(([id, d]) => ({ id, d, at: ms[id] ?? NaN, frame: frameOf(ms[id] ?? NaN) }));
  const late = panes.filter((p) => p.frame !== 0);
  console.log(
    `  detail pass ${pass} run ${run}: frames ${frames
      .slice(0, 5)
      .map((x) => `${f(x.start)}/${f(x.ran)}`)
      .join(' ')}; late ${late.length}/${panes.length}; parsed current at ${panes
      .map((p) => f(p.d.currentParsed))
      .join(',')}`,
  );
  for (const p of late)
    console.log(
      `    late pane #${p.d.index}: ${p.at.toFixed(1)} ms (frame ${p.frame}); in grid at frame ${p.d.inGridFrame}; first parse ${f(p.d.firstParsed)}, current parse ${f(p.d.currentParsed)} ms; caught up ${p.d.offsetCurrent === null ? '-' : p.d.offsetCurrent - p.d.offsetAt0} B; tick at switch ${p.d.tickAt0 - p.d.current} s vs current`,
    );
}

async function printDiag(client: RpcClient, diag: string[]): Promise<void> {
  for (const d of diag) {
    console.log(d);
    const id = d.slice(0, d.indexOf(':'));
    const screen = await client.call('agent.screen', { agentId: id });
    const rows = screen.text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-4);
    console.log(`    core screen ${screen.cols}x${screen.rows}: ${JSON.stringify(rows)}`);
  }
}

/** The phases of a pass's first visits, p50 / p99 each (the phases of a run's panes overlap). */
export const phases = (timings: Record<string, number[]>, quantile: (v: number[], q: number) => number): string =>
  Object.entries(timings)
    .map(([phase, d]) => `${phase} ${ms(quantile(d, 0.5))} / ${ms(quantile(d, 0.99))} (n=${d.length})`)
    .join('; ');

/**
 * Every long task (> 50 ms, the Long Tasks API) from now until the returned function is called: how many, their
 * median and the longest few. The page's own hook keeps only the longest; one task of a noisy minute decides that
 * figure, while the count and median show whether the switches' frames as a whole got shorter. Observed from the
 * bench, so an older build's page (BENCH_RENDERER_DIR) is read the same way.
 */
export async function watchLongTasks(page: Page): Promise<() => Promise<string>> {
  await page.evaluate(() => {
    const g = globalThis as unknown as { __benchLongTasks?: number[] };
    const seen: number[] = (g.__benchLongTasks = []);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  return async () => {
    const seen = await page.evaluate(
      () => (globalThis as unknown as { __benchLongTasks?: number[] }).__benchLongTasks ?? [],
    );
    const sorted = [...seen].sort((a, b) => a - b);
    const mid = sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
    return `${sorted.length} tasks > 50 ms, median ${mid.toFixed(0)} ms, longest ${
      sorted
        .slice(-3)
        .reverse()
        .map((d) => d.toFixed(0))
        .join(', ') || '–'
    } ms`;
  };
}

/** The switches' own tasks (React's render, commit and effects) and the messages the page sent, as printed lines. */
export function ownTaskLines({ ownTask, ownTaskSends, sends }: Switched): string[] {
  const lines: string[] = [];
  if (ownTask.first.length > 0)
    lines.push(
      `    the switch's own task (React's render, commit and effects): first visit p50 ${ms(quantile(ownTask.first, 0.5))} p99 ${ms(quantile(ownTask.first, 0.99))}; again p50 ${ms(quantile(ownTask.again, 0.5))} p99 ${ms(quantile(ownTask.again, 0.99))}` +
        (ownTaskSends.length > 0
          ? `; messages sent on the socket by it, p50 ${quantile(ownTaskSends, 0.5)}, most ${Math.max(...ownTaskSends)}`
          : ''),
    );
  if (sends)
    lines.push(
      `    messages the page sent on its socket while switching: ${sends.count} in ${fmt(sends.seconds, 1)} s (${fmt(sends.count / sends.seconds, 0)} a second)`,
    );
  return lines;
}
