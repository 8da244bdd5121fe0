// The scale part of the renderer bench (run from renderer.ts, DOM renderer; BENCH_SCALE=0 leaves it out): 100 agents
// in 10 runs, each a shell printing an agent-like burst every second after 5,000 lines of history, next to 10,000
// stored runs. In the page (renderer/bench-scale-hooks.ts): switching to every run until each pane shows its agent's
// current output (first visits, then again; on a page that has opened and loaded every pane ahead, with a cold page's
// first visits before it as a diagnostic), the longest main-thread task meanwhile, renderer memory with every pane
// filled, typing into the history's search box, and the dashboard's cold start. Outside: core + page CPU with the
// 100 agents idle. Each figure is printed next to its goal (docs/performance.md).
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RpcClient } from '../../shared/client.js';
import { startServer, testEnv, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import type { PaneSwitchDetail } from '../../renderer/bench-scale-hooks.js';
import { printProfile, startProfile } from './page-profile.js';
import { printHeapSampling, startHeapSampling } from './page-heap.js';
import { cpuProfileEnv, windowMarker } from './cpu-profile-env.js';
import { printMirrorTrace } from './mirror-trace.js';
import { AGENT_GROUP_NICE_VS, MIRROR_NICE_VS, poolSamples } from './mirror-nice.js';
import { printTrace, startTrace } from './page-trace.js';
import { typeAndPrint } from './renderer-history.js';
import { memory, openBenchPage, type BenchBrowser, type BenchPage } from './renderer-page.js';
import { idleWindow, snapshotsAfter } from './renderer-scale-idle.js';
import { coreTuning } from './renderer-kit.js';
import { burstyAgent } from './renderer-scripts.js';
import {
  ownTaskLines,
  phases,
  switchThrough,
  waitCurrent,
  waitLoadedAhead,
  watchLongTasks,
} from './renderer-scale-switch.js';
import { fmt, max, ms, quantile } from './stats.js';

const RUNS = 10;
const AGENTS_PER_RUN = 10;
const STORED_RUNS = 10_000;
const HISTORY_LINES = 5000;
const IDLE_SECONDS = 10;
/** The longest the settled scene waits for the page to load every pane ahead before it switches anyway. */
const AHEAD_TIMEOUT_MS = 30_000;
const GOAL = { switchP99Ms: 100, longTaskMs: 50, idleCpu: 0.02, memoryMb: 800, typingMs: 16, coldStartMs: 1000 };

export interface ScaleGlobal {
  __batonScale: {
    timeSwitch(
      runId: string,
      agentIds: string[],
      timeoutMs?: number,
    ): Promise<{
      ms: Record<string, number>;
      painted?: Record<string, number>;
      ownTask?: number;
      ownTaskSends?: number;
      blank: string[];
      stale: string[];
      diag: string[];
      detail?: Record<string, SwitchDetail>;
      frames?: { start: number; ran: number }[];
    }>;
    longestTask(since: number): number;
    socketSends?(): number;
    longFrames(since: number): string[];
    armTyping(): void;
    paneTimings(since: number): Record<string, number[]>;
    trimmedPanes?(agentIds: string[]): number;
    loadedAhead?(agentIds: string[], timeoutMs: number): Promise<{ at: number; loaded: number }>;
  };
  __coldStart?: number;
}

/** Where one pane's switch went (older builds have none). */
export type SwitchDetail = PaneSwitchDetail;

/** Counts the page's elements by region and one grid pane's by class (a string: evaluated as it is in the page). */
const DOM_COUNT = `(() => {
  const count = (sel) => [...document.querySelectorAll(sel)].reduce((n, e) => n + e.querySelectorAll('*').length + 1, 0);
  const pane = document.querySelector('.bt-grid .xterm');
  const kinds = new Map();
  for (const e of pane ? pane.querySelectorAll('*') : []) {
    const k = e.className.toString().split(' ')[0] || e.tagName;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  const body = document.querySelector('.bt-grid .bt-pane-body')?.getBoundingClientRect();
  return 'DOM: all ' + document.querySelectorAll('*').length + ', sidebar ' + count('.bt-sidebar') + ', grid ' + count('.bt-grid') +
    ', body children ' + [...document.body.children].map((c) => c.tagName + '.' + c.className + ':' + c.querySelectorAll('*').length).join(' ') +
    '; one pane: ' + [...kinds].map(([k, n]) => k + '×' + n).join(' ') + '; its body ' + body?.width + 'x' + body?.height;
})()`;

/** Records, from the first script on, when the dashboard first shows its run list and its New run button. */
const COLD_START_PROBE = `(() => {
  const seen = () => document.querySelector('[aria-label="Runs"]') && [...document.querySelectorAll('button')].some((b) => b.textContent === 'New run');
  new MutationObserver((_, o) => { if (seen()) { globalThis.__coldStart = performance.now(); o.disconnect(); } })
    .observe(document, { subtree: true, childList: true });
})();`;

/** A pane parked this long gives its history back (renderer/panes/pane-history.ts, TRIM_AFTER_MS). */
const TRIM_AFTER_MS = 60_000;
/** After the parked panes' trims, time for the page's garbage collection of what they freed. */
const POST_TRIM_MS = 10_000;

const LABEL = 52;
const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
const mark = (good: boolean) => (good ? '✓' : '✗');
const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));

/** Runs the scale scenes in `root` (a temporary directory the caller removes); false if a measurement broke. */
export async function scaleBench(b: BenchBrowser, root: string): Promise<boolean> {
  const work = join(root, 'scale-work');
  const dataDir = join(root, 'scale-data');
  // BATON_MIRROR_TRACE=<file>: the core's mirror thread logs each capture's hops there, and the page's fetches follow.
  // Every BATON_MIRROR_* and BATON_OUTPUT_* variable goes to the core (its A/B switches, docs/performance.md).
  const mirrorTrace = process.env.BATON_MIRROR_TRACE;
  const env = testEnv(join(root, 'scale-home'), coreTuning());
  mkdirSync(work, { recursive: true });
  writeStoredRuns(dataDir, STORED_RUNS, work);
  const quiet = join(work, 'quiet');
  let server: ServerProcess | null = null;
  let client: RpcClient | null = null;
  let p: BenchPage | null = null;
  try {
    // BATON_BENCH_PROFILE=<dir>: CPU profiles of the core's threads (main, mirrors, search) over the idle window there
    // (test/bench/profile-summary.ts reads it).
    const profileDir = process.env.BATON_BENCH_PROFILE;
    // BENCH_CORE_GC=1: the core's garbage collections in each idle window (V8's --trace-gc on its output).
    const traceGc = process.env.BENCH_CORE_GC === '1';
    server = await startServer(
      dataDir,
      traceGc
        ? { ...env, NODE_OPTIONS: `--require=${join(import.meta.dirname, 'gc-trace-preload.cjs')}` }
        : profileDir
          ? { ...env, ...cpuProfileEnv(profileDir, true) }
          : env,
    );
    client = await server.connect();
    const runs: { id: string; agentIds: string[] }[] = [];
    const t0 = performance.now();
    for (let r = 0; r < RUNS; r++) {
      const run = await client.call('run.start', {
        name: `scale-${String(r + 1).padStart(2, '0')}`,
        agents: Array.from({ length: AGENTS_PER_RUN }, (_, k) => ({
          vendor: 'shell' as const,
          label: `a${k + 1}`,
          cwd: work,
          command: burstyAgent(quiet, HISTORY_LINES),
        })),
      });
      runs.push({ id: run.id, agentIds: run.agents.map((a) => a.id) });
    }
    console.log(
      `  (${RUNS * AGENTS_PER_RUN} agents started in ${fmt((performance.now() - t0) / 1000, 1)} s, beside ${STORED_RUNS.toLocaleString('en')} stored runs)`,
    );
    await sleep(3000);

    p = await openBenchPage(b, server, COLD_START_PROBE);
    await p.page.waitForFunction(() => (globalThis as unknown as ScaleGlobal).__coldStart !== undefined);
    const cold = await p.page.evaluate(() => (globalThis as unknown as ScaleGlobal).__coldStart!);
    line(
      'dashboard cold start → run list and New run (web)',
      `${ms(cold).padStart(9)}  (goal ≤ ${GOAL.coldStartMs} ms) ${mark(cold <= GOAL.coldStartMs)}`,
    );
    const allAgents = runs.flatMap((r) => r.agentIds);
    const longestSince = (page: Page, since: number) =>
      page.evaluate((t) => (globalThis as unknown as ScaleGlobal).__batonScale.longestTask(t), since);
    const longText = (t: number) => (t === 0 ? 'none > 50 ms' : ms(t));
    // The goal is a switch on a page that has opened and settled (BENCH_SCALE_SETTLE=0: the first switches right after
    // the page opens, as the row was measured until switch6). Settled, the cold page's first visits are still timed,
    // on a page of their own before it, and printed as a diagnostic row: nothing is hidden (docs/performance.md, switch6).
    const settle = process.env.BENCH_SCALE_SETTLE !== '0';
    const opened = runs[runs.length - 1]!;
    let waits = '';
    if (settle) {
      const coldRuns = await switchThrough(p.page, client, server, runs, 1, undefined);
      const coldLongest = await longestSince(p.page, 0);
      line(
        '  diagnostic: cold page, first visits at once',
        `p50 ${ms(quantile(coldRuns.first, 0.5))} p99 ${ms(quantile(coldRuns.first, 0.99))}  blank ${coldRuns.blank.length}, stale ${coldRuns.stale.length}; longest task ${longText(coldLongest)}; n=${coldRuns.first.length}`,
      );
      console.log(`    by phase (p50 / p99 ms): ${phases(coldRuns.firstTimings, quantile)}`);
      await p.close();
      p = await openBenchPage(b, server);
      // The run the page opened on (the newest: the list's first) current, then every live agent's pane loaded ahead
      // (bounded): what a user who opened the page a moment ago sees when switching.
      // BENCH_TRACE_AHEAD=1: Chromium's timeline of the page from here until every pane is loaded ahead.
      const traceAhead = process.env.BENCH_TRACE_AHEAD === '1';
      if (traceAhead) await startTrace(p);
      const current = await waitCurrent(p.page, opened);
      const ahead = await waitLoadedAhead(p.page, allAgents, AHEAD_TIMEOUT_MS);
      if (traceAhead) await printTrace(p, 'opening and loading every pane ahead');
      const aheadLongest = await longestSince(p.page, 0);
      const aheadTimings = await p.page.evaluate(() =>
        (globalThis as unknown as ScaleGlobal).__batonScale.paneTimings(0),
      );
      line(
        'all panes loaded ahead (page open → attached, parsed)',
        ahead === null
          ? '  – (this build has no loadedAhead hook)'
          : `${ms(ahead.at).padStart(9)}  ${ahead.loaded}/${allAgents.length} panes${ahead.loaded < allAgents.length ? ` (stopped waiting at ${AHEAD_TIMEOUT_MS / 1000} s)` : ''}; longest task meanwhile ${longText(aheadLongest)}`,
      );
      // When the page asked for its first pane's catch-up and when the last one's was parsed: the span the loading took.
      const span = await p.page.evaluate(() => {
        const m = performance.getEntriesByType('measure');
        const fetches = m.filter((e) => e.name === 'baton:pane-fetch').map((e) => e.startTime);
        const parsed = m.filter((e) => e.name === 'baton:pane-parse').map((e) => e.startTime + e.duration);
        return { from: Math.min(...fetches), to: Math.max(...parsed) };
      });
      console.log(
        `    loading the panes, by phase (p50 / p99 ms): ${phases(aheadTimings, quantile)}; first fetch at ${ms(span.from)}, last parsed at ${ms(span.to)}`,
      );
      waits = `, after the opened run current (${ms(current)}) and the panes loaded ahead`;
    }
    const page = p.page;

    const profiling = process.env.BENCH_PROFILE === '1';
    if (profiling) await startProfile(p);
    const heap = process.env.BENCH_HEAP === '1';
    if (heap) await startHeapSampling(p);
    const tracing = process.env.BENCH_TRACE === '1';
    if (tracing) await startTrace(p);
    // BENCH_PROFILE_WINDOW=switch: the core's thread profiles (BATON_BENCH_PROFILE) cover the switching, not the idle.
    const switchWindow = profileDir && process.env.BENCH_PROFILE_WINDOW === 'switch' ? windowMarker(profileDir) : null;
    if (switchWindow) {
      mkdirSync(profileDir!, { recursive: true });
      writeFileSync(switchWindow, '');
      await sleep(500); // every thread has seen the marker
    }
    // Which agents are whose, for the trace's per-switch reading (a switch's window may hold other panes' attaches).
    if (mirrorTrace) appendFileSync(mirrorTrace, JSON.stringify({ k: 'runs', runs }) + '\n');
    const longTasks = await watchLongTasks(page);
    const since = await page.evaluate(() => performance.now());
    const switchFrom = Date.now();
    const switched = await switchThrough(page, client, server, runs, 2, mirrorTrace);
    const { first, again, painted, vs, blank, stale, firstTimings } = switched;
    if (switchWindow) rmSync(switchWindow);
    // The last panes were parked by the last switch.
    const switchedAt = Date.now();
    if (mirrorTrace) {
      const fetches = await page.evaluate(() =>
        performance.getEntriesByName('baton:pane-fetch').map((e) => ({
          k: 'page-fetch',
          start: performance.timeOrigin + e.startTime,
          ms: e.duration,
          agentId: (e as PerformanceMeasure).detail as string,
        })),
      );
      appendFileSync(mirrorTrace, fetches.map((f) => JSON.stringify(f)).join('\n') + '\n');
      await sleep(1500); // each thread writes its trace a second after a line
      printMirrorTrace(mirrorTrace, switchFrom, Date.now());
    }
    if (profiling) await printProfile(p, 'switching through every run twice');
    if (heap) await printHeapSampling(p, 'switching through every run twice');
    if (tracing) await printTrace(p, 'switching through every run twice');
    const longest = await longestSince(page, since);
    const longTaskText = await longTasks();
    // BENCH_DOM_COUNT=1: where the page's elements are (the sidebar, the grid, the parking lot) and one pane's.
    if (process.env.BENCH_DOM_COUNT === '1') console.log(await page.evaluate(DOM_COUNT));
    if (process.env.BENCH_DIAG === '1')
      for (const f of await page.evaluate(
        (t) => (globalThis as unknown as ScaleGlobal).__batonScale.longFrames(t),
        since,
      ))
        console.log(`  long frame ${f}`);
    // The goal row is the frame that shows every pane current, painted (its end); an older bench build gives only its
    // start, which leaves out that frame's own style, layout and paint.
    const byPaint = painted.first.length + painted.again.length > 0;
    const [f, a] = byPaint ? [painted.first, painted.again] : [first, again];
    const p99 = quantile([...f, ...a], 0.99);
    line(
      'switch to a run → every pane current, p99',
      `${ms(p99).padStart(9)}  (goal ≤ ${GOAL.switchP99Ms} ms) ${mark(p99 <= GOAL.switchP99Ms && blank.length + stale.length === 0)}  blank panes ${blank.length}, stale ${stale.length}  ` +
        `first visit p50 ${ms(quantile(f, 0.5))} p99 ${ms(quantile(f, 0.99))}; again p50 ${ms(quantile(a, 0.5))} p99 ${ms(quantile(a, 0.99))}; n=${f.length + a.length}${settle ? ' (settled page)' : ' (cold page)'}` +
        (byPaint ? ", to that frame's end (painted)" : ", to that frame's start (an older bench build)"),
    );
    if (byPaint)
      console.log(
        `    to that frame's start: p99 ${ms(quantile([...first, ...again], 0.99))}; first visit p50 ${ms(quantile(first, 0.5))} p99 ${ms(quantile(first, 0.99))}; again p50 ${ms(quantile(again, 0.5))} p99 ${ms(quantile(again, 0.99))}`,
      );
    for (const l of ownTaskLines(switched)) console.log(l);
    if (waits) console.log(`    (switching through every run twice${waits})`);
    if (MIRROR_NICE_VS !== null || AGENT_GROUP_NICE_VS !== null) {
      const side = (f: number[], a: number[]) =>
        `p99 ${ms(quantile([...f, ...a], 0.99))}; first visit p50 ${ms(quantile(f, 0.5))} p99 ${ms(quantile(f, 0.99))}; again p50 ${ms(quantile(a, 0.5))} p99 ${ms(quantile(a, 0.99))}; n=${f.length + a.length}`;
      line('  every other run: as the core started', side(first, again));
      poolSamples('scale', 'shipped', { first, again });
      poolSamples('scale', 'niced', { first: vs.first, again: vs.again });
      line(
        MIRROR_NICE_VS !== null
          ? `  the others: mirror threads at nice ${MIRROR_NICE_VS}`
          : `  the others: agents' autogroups at nice ${AGENT_GROUP_NICE_VS}`,
        `${side(vs.first, vs.again)} (reniced ${vs.reniced.join(' ')})`,
      );
    }
    // Where a first visit's time goes, phase by phase (each pane's own; the phases of a run's panes overlap).
    console.log(`  first visits by phase (p50 / p99 ms): ${phases(firstTimings, quantile)}`);
    line(
      '100 agents printing: longest main-thread task',
      `${longest === 0 ? '  none > 50 ms' : ms(longest).padStart(9)}  (goal ≤ ${GOAL.longTaskMs} ms) ${mark(longest <= GOAL.longTaskMs)}  (Long Tasks API, while switching through every run twice)`,
    );
    console.log(`    (while switching: ${longTaskText})`);
    // BENCH_SCALE_SWITCH_ONLY=1: the switching figures only (paired runs of the longest task and the switch p99).
    if (process.env.BENCH_SCALE_SWITCH_ONLY === '1') return true;

    const m = await memory(b, p);
    const pageMb = (m.v8Used + m.embedder + m.backing) / 1e6;
    const rssMb = (m.rendererRss ?? Number.NaN) / 1e6;
    line(
      `renderer memory, 100 panes × ${HISTORY_LINES.toLocaleString('en')} lines`,
      `${fmt(rssMb).padStart(6)} MB RSS  (goal ≤ ${GOAL.memoryMb} MB) ${mark(rssMb <= GOAL.memoryMb)}  JS + DOM + buffers ${fmt(pageMb)} MB, DOM nodes ${fmt(m.nodes)}`,
    );

    await typeAndPrint(p, LABEL);
    // BENCH_SCALE_TYPING_ONLY=1: up to the history's typing among the printing agents (paired runs of that figure).
    if (process.env.BENCH_SCALE_TYPING_ONLY === '1') return true;

    writeFileSync(quiet, '');
    const quietAt = Date.now();
    // Settling, measured on its own: the fakes go quiet (each prints at most once more, within a second), cursors
    // blink their while, the process tracker backs off, and the core snapshots each run once after its last output
    // (the periodic snapshot, once a minute while output changed). The idle window starts when that has happened.
    const settling = await idleWindow(b, p, server, allAgents, async () => {
      await sleep(15_000);
      await snapshotsAfter(
        client!,
        runs.map((r) => r.id),
        quietAt + 1500,
      );
      // And the page's own deferred work: each parked pane gives its history back 60 s after it was parked
      // (pane-history.ts), which frees tens of megabytes at once, and the garbage collection that follows took the
      // page from 0.3 % to 1.1–1.7 % in the windows it landed in (docs/performance.md, "Longest task and idle page").
      await sleep(Math.max(0, switchedAt + TRIM_AFTER_MS + 1000 - Date.now()));
      await sleep(POST_TRIM_MS);
    });
    line(
      '  settling: until each run was snapshotted after its last output and parked panes gave their history back',
      `${fmt((settling.core + settling.page) * 100, 1).padStart(7)} %   over ${fmt(settling.seconds, 0)} s: core ${fmt(settling.core * 100, 1)}% + page ${fmt(settling.page * 100, 1)}%`,
    );
    const marker = profileDir && !switchWindow ? windowMarker(profileDir) : null;
    if (marker) {
      mkdirSync(profileDir!, { recursive: true });
      writeFileSync(marker, '');
    }
    await sleep(marker ? 500 : 0); // every thread has seen the marker
    // BENCH_TRACE_IDLE=1: Chromium's timeline of the page over this idle window (what the idle page still does).
    const traceIdle = process.env.BENCH_TRACE_IDLE === '1';
    const rest = await idleWindow(b, p, server, allAgents, async () => {
      if (traceIdle) await startTrace(p!);
      if (profiling) await startProfile(p!);
      await sleep(IDLE_SECONDS * 1000);
      if (profiling) await printProfile(p!, 'the page with 100 idle agents');
      if (traceIdle) await printTrace(p!, 'the page with 100 idle agents');
    });
    if (marker) rmSync(marker);
    const idle = rest.core + rest.page;
    line(
      '100 idle agents: core + page CPU',
      `${fmt(idle * 100, 1).padStart(7)} %   (goal ≤ ${GOAL.idleCpu * 100}% of a core) ${mark(idle <= GOAL.idleCpu)}  core ${fmt(rest.core * 100, 1)}% + page ${fmt(rest.page * 100, 1)}% (its main thread busy ${fmt(rest.busy * 100, 1)}%)`,
    );
    // Still idle: whether anything in that window was the tail of the settling rather than the rest itself.
    const later = await idleWindow(b, p, server, allAgents, () => sleep(IDLE_SECONDS * 1000));
    line(
      '  the same, the next 10 s',
      `${fmt((later.core + later.page) * 100, 1).padStart(7)} %   core ${fmt(later.core * 100, 1)}% + page ${fmt(later.page * 100, 1)}%`,
    );
    return true;
  } catch (err) {
    console.error(`scale bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return false;
  } finally {
    await p?.close();
    if (client)
      for (let r = 0; r < RUNS; r++)
        await client.call('run.stop', { run: `scale-${String(r + 1).padStart(2, '0')}` }).catch(() => undefined);
    client?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
}
