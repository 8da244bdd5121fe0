// The renderer bench: `npm run bench:renderer` (needs `npm run build` first for `baton serve`; it builds the bench page
// itself: `npm run build:renderer-bench`, dist/renderer-bench, the dashboard plus renderer/bench-hooks.ts, which the
// product bundle never carries). BENCH_RENDERERS=dom (or webgl) runs one renderer only, for a shorter run;
// BENCH_ONLY=echo the keystroke scene only, BENCH_ONLY=throughput the throughput scene only, BENCH_ONLY=scale the
// hundred-agent scenes only, BENCH_ONLY=bare the bare-driven throughput scene only, BENCH_ONLY=history the history's typing scene only (renderer-history.ts). Paired A/B of the output path's tuning (renderer/panes/pane-output.ts) in one run:
// BENCH_ECHO_VS='<tuning JSON>' for the echo scene's alternating flood blocks (default: no write pacer),
// BENCH_THROUGHPUT_VS for an extra throughput variant; BENCH_ECHO_SAMPLES=n keys per side (200); BENCH_THREADS=1
// the browser's CPU per MiB by thread; BENCH_PROFILE=echo|throughput|bare a main-thread profile; BENCH_IDLE_FRAMES=1 and
// BENCH_FRAME_GAPS=1 run an animation-frame loop (idle samples / flood blocks), which itself delays echoes.
// The throughput scene runs twice: driven by Playwright, then in a Chromium this bench drives without DevTools network
// reporting (renderer-bare.ts: the product's own figure; BENCH_BARE=0 leaves it out).
// A real `baton serve`, Debian's Chromium on the bench page (served in place of the server's own files), `shell` agents
// running small Node programs (renderer-scripts.ts). Every figure is taken inside the page and set against a
// baseline taken in the same page in the same run (shared machines are noisy: the ratios mean something, the
// absolute figures less):
//   - throughput PTY → core → visible pane, against xterm's own write rate (a fresh xterm of the same size);
//   - keystroke → painted echo, idle and while the other visible pane floods, against xterm echoing locally;
//   - renderer memory per pane with 5,000 lines of scrollback, against the same page with no pane.
// Twice: xterm's DOM renderer (no 3D APIs, as the end-to-end journeys run) and WebGL (Chromium's software GL).
// Nothing here asserts a time; `ok` is false only when a pane's output is not byte-exact or a measurement breaks.
// The scenes: renderer-throughput.ts, renderer-echo.ts, memory per pane here, renderer-scale.ts; what they share is in
// renderer-kit.ts.
import { availableParallelism, cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { skipUnlessChromium } from '../e2e/browser.js';
import { echo, reportEcho } from './renderer-echo.js';
import { MB, Scene, line, load, mark, mbText, sleep, startAgents, withPage } from './renderer-kit.js';
import {
  launchBenchBrowser,
  memory,
  paneReady,
  type BenchBrowser,
  type BenchGlobal,
  type MemorySample,
} from './renderer-page.js';
import { historyBench } from './renderer-history.js';
import { scaleBench } from './renderer-scale.js';
import { LINE_BYTES } from './renderer-scripts.js';
import { reportThroughput, throughput } from './renderer-throughput.js';
import { bareThroughput, reportBare, reportDevtoolsCost } from './renderer-bare.js';
import { fmt } from './stats.js';

const GOAL_MEMORY_MB = 25;
const MEMORY_PANES = 4;
const SCROLLBACK_LINES = 5000;
/** Lines written into each memory pane: enough to fill the scrollback and the screen below it. */
const FILL_LINES = SCROLLBACK_LINES + 200;
/** Wide enough that four panes in a 2×2 grid hold a 100-character line without wrapping. */
const MEMORY_VIEWPORT = { width: 2200, height: 1000 } as const;

// ---------------------------------------------------------------- 3. memory per pane

interface MemoryResult {
  renderer: string;
  size: string;
  bufferLines: number;
  none: MemorySample;
  empty: MemorySample;
  filled: MemorySample;
}

/** Everything the page's JavaScript and DOM hold: V8's heap, Blink's heap, ArrayBuffer backing stores. */
const pageBytes = (m: MemorySample) => m.v8Used + m.embedder + m.backing;
const perPane = (a: number | null, b: number | null) => (a === null || b === null ? null : (b - a) / MEMORY_PANES);

async function memoryPerPane(b: BenchBrowser, scene: Scene): Promise<MemoryResult> {
  const { server, client } = await scene.server();
  const result = await withPage(
    b,
    server,
    async (p) => {
      // No run yet: the first-launch page, no pane.
      await p.page.getByRole('region', { name: 'Welcome to Baton' }).waitFor();
      await sleep(1000);
      const none = await memory(b, p);
      const ids = await startAgents(
        client,
        scene,
        'bench-memory',
        Array.from({ length: MEMORY_PANES }, (_, i) => ({
          label: `m${i + 1}`,
          argv: [process.execPath, scene.scripts.writer, String(FILL_LINES)],
        })),
      );
      // The page shows the new run on its own (it is the only one).
      const infos = [];
      for (const id of ids) infos.push(await paneReady(p.page, id));
      await sleep(500);
      const empty = await memory(b, p);
      await p.page.evaluate(
        ([all, n, bytes]) =>
          Promise.all(all.map((id) => (globalThis as BenchGlobal).__batonBench.timePaneOutput(id, `${n}\r`, bytes))),
        [ids, FILL_LINES, FILL_LINES * LINE_BYTES] as const,
      );
      await sleep(500);
      const filled = await memory(b, p);
      const after = (await p.page.evaluate((id) => (globalThis as BenchGlobal).__batonBench.pane(id), ids[0]!))!;
      return {
        renderer: infos[0]!.renderer,
        size: `${after.cols}×${after.rows}`,
        bufferLines: after.bufferLines,
        none,
        empty,
        filled,
      };
    },
    MEMORY_VIEWPORT,
  );
  await client.call('run.stop', { run: 'bench-memory' });
  return result;
}

function reportMemory(m: MemoryResult): void {
  const per = (perPane(pageBytes(m.none), pageBytes(m.filled)) ?? 0) / MB;
  line(
    `renderer memory per pane, ${SCROLLBACK_LINES.toLocaleString('en')} lines scrollback`,
    `${fmt(per, 1).padStart(5)} MB     (goal ≤ ${GOAL_MEMORY_MB} MB) ${mark(per <= GOAL_MEMORY_MB)}   = (${MEMORY_PANES} filled panes − no pane) / ${MEMORY_PANES}, page total ${mbText(pageBytes(m.none))} → ${mbText(pageBytes(m.filled))}`,
  );
  const d = (f: (s: MemorySample) => number | null, a: MemorySample, b: MemorySample) => mbText(perPane(f(a), f(b)));
  line(
    '  of it: JS heap / ArrayBuffers / DOM (Blink heap)',
    `${d((s) => s.v8Used, m.none, m.filled)} / ${d((s) => s.backing, m.none, m.filled)} / ${d((s) => s.embedder, m.none, m.filled)}`,
  );
  line(
    '  usedJSHeapSize (performance.memory) per pane',
    `${d((s) => s.usedJSHeapSize, m.none, m.filled)}   (JS heap and ArrayBuffers, not the DOM)`,
  );
  line(
    '  an empty pane / its filled scrollback',
    `${mbText(perPane(pageBytes(m.none), pageBytes(m.empty)))} / ${mbText(perPane(pageBytes(m.empty), pageBytes(m.filled)))}`,
  );
  line(
    '  RSS per pane: renderer / GPU process',
    `${d((s) => s.rendererRss, m.none, m.filled)} / ${d((s) => s.gpuRss, m.none, m.filled)}   (DOM nodes ${fmt(m.none.nodes)} → ${fmt(m.filled.nodes)})`,
  );
  console.log(
    `  (panes ${m.size}, buffer ${m.bufferLines} rows each after ${FILL_LINES.toLocaleString('en')} lines of 100 characters; after a full GC)`,
  );
}

// ---------------------------------------------------------------- the bench

export async function rendererBench(): Promise<{ ok: boolean }> {
  const skip = skipUnlessChromium();
  if (skip) {
    console.log(`renderer bench ${skip}`);
    return { ok: true };
  }
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  let ok = true;
  const scene = new Scene();
  try {
    // BENCH_RENDERERS=dom or =webgl runs one of the two.
    const modes = (process.env.BENCH_RENDERERS ?? 'dom,webgl').split(',').map((m) => m.trim());
    for (const webgl of [false, true].filter((w) => modes.includes(w ? 'webgl' : 'dom'))) {
      const b = await launchBenchBrowser(webgl);
      try {
        console.log(
          `\nBaton renderer bench, ${webgl ? 'WebGL allowed' : 'no WebGL (--disable-3d-apis)'}  ` +
            `(Chromium ${b.version}, node ${process.version}, ${availableParallelism()} cores, ${cpu}, load ${load()})`,
        );
        // BENCH_ONLY=echo runs the keystroke scene alone (for work on the input path).
        if (process.env.BENCH_ONLY === 'echo') {
          reportEcho(await echo(b, scene));
          continue;
        }
        // BENCH_ONLY=history runs the history's typing scene alone (10,000 stored runs, no agents).
        if (process.env.BENCH_ONLY === 'history') {
          if (!webgl && !(await historyBench(b, scene.root))) ok = false;
          continue;
        }
        // BENCH_ONLY=scale runs the hundred-agent scenes alone (switching, long tasks, memory, idle CPU, history typing).
        if (process.env.BENCH_ONLY === 'scale') {
          if (!webgl && !(await scaleBench(b, scene.root))) ok = false;
          continue;
        }
        // BENCH_ONLY=bare runs the bare-driven throughput scene alone, BENCH_BARE_MIB per round (16 unless told).
        if (process.env.BENCH_ONLY === 'bare') {
          const mib = Number(process.env.BENCH_BARE_MIB ?? 16);
          const bare = await bareThroughput(b, scene, Math.floor((mib << 20) / LINE_BYTES));
          reportBare(bare);
          if (bare.problems.length > 0) ok = false;
          continue;
        }
        const t = await throughput(b, scene);
        console.log(`(panes rendered by: ${t.renderer})`);
        reportThroughput(t);
        if (!t.exact) ok = false;
        // The same scene in a Chromium driven without Playwright's DevTools network reporting (renderer-bare.ts):
        // the product's own figure, next to the Playwright-driven one. BENCH_BARE=0 leaves it out.
        if (process.env.BENCH_BARE !== '0') {
          const bare = await bareThroughput(b, scene, t.lines);
          reportBare(bare);
          if (t.budget && bare.budget) reportDevtoolsCost(t.budget.pane, bare.budget.pane);
          if (bare.problems.length > 0) ok = false;
        }
        // BENCH_ONLY=throughput runs the throughput scene alone (for work on the output path).
        if (process.env.BENCH_ONLY === 'throughput') continue;
        const e = await echo(b, scene);
        reportEcho(e);
        const m = await memoryPerPane(b, scene);
        reportMemory(m);
        // The hundred-agent scenes once, on the DOM renderer (as the journeys run); BENCH_SCALE=0 leaves them out.
        if (!webgl && process.env.BENCH_SCALE !== '0' && !(await scaleBench(b, scene.root))) ok = false;
        if (e.renderer !== t.renderer || m.renderer !== t.renderer)
          console.log(`  ! renderers differed between scenarios: ${t.renderer} / ${e.renderer} / ${m.renderer}`);
        console.log(`(load at the end: ${load()})`);
      } finally {
        await b.close();
      }
    }
  } catch (err) {
    ok = false;
    console.error(`renderer bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } finally {
    await scene.close();
    console.log(`(removed ${scene.root})`);
  }
  return { ok };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ok } = await rendererBench();
  if (!ok) process.exitCode = 1;
}
