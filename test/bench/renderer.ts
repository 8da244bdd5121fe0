// The renderer bench: `npm run bench:renderer` (needs `npm run build` first for `baton serve`; it builds the bench page
// itself: `npm run build:renderer-bench`, dist/renderer-bench, the dashboard plus renderer/bench-hooks.ts, which the
// product bundle never carries). BENCH_RENDERERS=dom (or webgl) runs one renderer only, for a shorter run;
// BENCH_ONLY=echo the keystroke scene only, BENCH_ONLY=throughput the throughput scene only, BENCH_ONLY=scale the
// hundred-agent scenes only.
// A real `baton serve`, Debian's Chromium on the bench page (served in place of the server's own files), `shell` agents
// running small Node programs (renderer-scripts.ts). Every figure is taken inside the page and set against a
// baseline taken in the same page in the same run (shared machines are noisy: the ratios mean something, the
// absolute figures less):
//   - throughput PTY → core → visible pane, against xterm's own write rate (a fresh xterm of the same size;
//     renderer-throughput.ts);
//   - keystroke → painted echo, idle and while the other visible pane floods, against xterm echoing locally;
//   - renderer memory per pane with 5,000 lines of scrollback, against the same page with no pane.
// Twice: xterm's DOM renderer (no 3D APIs, as the end-to-end journeys run) and WebGL (Chromium's software GL).
// Nothing here asserts a time; `ok` is false only when a pane's output is not byte-exact or a measurement breaks.
import { availableParallelism, cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { skipUnlessChromium } from '../e2e/browser.js';
import { waitFor } from '../helpers/server.js';
import {
  launchBenchBrowser,
  memory,
  paneReady,
  type BenchBrowser,
  type BenchGlobal,
  type BenchPage,
  type EchoSample,
  type MemorySample,
} from './renderer-page.js';
import { scaleBench } from './renderer-scale.js';
import { LINE_BYTES } from './renderer-scripts.js';
import { fmt, max, mbps, ms, quantile } from './stats.js';
import { line, load, mark, mbText, MB, paneBytes, rate, Scene, sleep, startAgents, withPage } from './renderer-kit.js';
import { reportThroughput, throughput } from './renderer-throughput.js';

/** Keystroke → painted echo p99 against xterm's own local echo p99 (idle) in the same page. */
const GOAL_IDLE_RATIO = 1.25;
const GOAL_FLOOD_RATIO = 2;
const GOAL_MEMORY_MB = 25;
const ECHO_SAMPLES = 200;
const ECHO_WARMUP = 20;
/** The samples while flooding come in this many blocks with the write pacer, alternating with as many without. */
const ECHO_BLOCKS = 4;
const MEMORY_PANES = 4;
const SCROLLBACK_LINES = 5000;
/** Lines written into each memory pane: enough to fill the scrollback and the screen below it. */
const FILL_LINES = SCROLLBACK_LINES + 200;
/** Wide enough that four panes in a 2×2 grid hold a 100-character line without wrapping. */
const MEMORY_VIEWPORT = { width: 2200, height: 1000 } as const;

// ---------------------------------------------------------------- 2. keystroke → painted echo

interface EchoResult {
  renderer: string;
  size: string;
  localIdle: EchoSample[];
  idle: EchoSample[];
  flood: EchoSample[];
  localFlood: EchoSample[];
  /** The same while flooding, with the write pacer switched off (alternating blocks with `flood`). */
  unpaced: EchoSample[];
  /** MB/s the flooding pane took while the flood samples ran (with the pacer / without). */
  floodRate: number;
  unpacedRate: number;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `n` keystrokes, each a letter unlike the one before (so its echo is recognisable), at varying pauses. */
async function echoSamples(page: BenchPage['page'], target: string | null, n: number): Promise<EchoSample[]> {
  const out: EchoSample[] = [];
  let previous = '';
  for (let i = 0; i < n; i++) {
    let letter = previous;
    while (letter === previous) letter = LETTERS[Math.floor(Math.random() * LETTERS.length)]!;
    previous = letter;
    await page.evaluate(([t, l]) => (globalThis as BenchGlobal).__batonBench.armEcho(t, l), [target, letter] as const);
    await page.keyboard.press(letter);
    out.push(await page.evaluate(() => (globalThis as BenchGlobal).__batonBench.echoResult()));
    // A varying pause, so keystrokes do not phase-lock with the frames.
    await sleep(2 + Math.random() * 18);
  }
  return out;
}

async function echo(b: BenchBrowser, scene: Scene): Promise<EchoResult> {
  const { server, client } = await scene.server();
  const [echoId, floodId] = await startAgents(client, scene, 'bench-echo', [
    { label: 'echo', argv: [process.execPath, scene.scripts.echo] },
    { label: 'flood', argv: [process.execPath, scene.scripts.flood] },
  ]);
  const result = await withPage(b, server, async (p) => {
    const info = await paneReady(p.page, echoId!);
    await paneReady(p.page, floodId!);
    const focusPane = () => p.page.locator(`[data-agent-id="${echoId}"] .xterm-screen`).click();
    const local = async (n: number) => {
      await p.page.evaluate((id) => (globalThis as BenchGlobal).__batonBench.openLocalEcho(id), echoId!);
      await echoSamples(p.page, null, ECHO_WARMUP);
      const s = await echoSamples(p.page, null, n);
      await p.page.evaluate(() => (globalThis as BenchGlobal).__batonBench.closeLocalEcho());
      return s;
    };
    const baton = async (n: number) => {
      await focusPane();
      await echoSamples(p.page, echoId!, ECHO_WARMUP);
      return echoSamples(p.page, echoId!, n);
    };

    const localIdle = await local(ECHO_SAMPLES);
    const idle = await baton(ECHO_SAMPLES);

    await client.call('agent.write', { agentId: floodId!, data: 'f' });
    const floodStart = await paneBytes(p, floodId!);
    await waitFor(
      async () => (await paneBytes(p, floodId!)) - floodStart > 1 << 20,
      'the flood to reach its pane',
      60_000,
    );
    // With the write pacer (as shipped) and without it, in alternating blocks: its gain in the same run.
    const pacer = (on: boolean) =>
      p.page.evaluate((v) => (globalThis as BenchGlobal).__batonBench.setOutputTuning({ pacer: v }), on);
    const flood: EchoSample[] = [];
    const unpaced: EchoSample[] = [];
    const took = { paced: { bytes: 0, ms: 0 }, unpaced: { bytes: 0, ms: 0 } };
    for (let block = 0; block < 2 * ECHO_BLOCKS; block++) {
      const paced = block % 2 === 0;
      await pacer(paced);
      const b0 = await paneBytes(p, floodId!);
      const t0 = performance.now();
      (paced ? flood : unpaced).push(...(await baton(ECHO_SAMPLES / ECHO_BLOCKS)));
      const into = paced ? took.paced : took.unpaced;
      into.bytes += (await paneBytes(p, floodId!)) - b0;
      into.ms += performance.now() - t0;
    }
    await pacer(true);
    const floodRate = mbps(took.paced.bytes, took.paced.ms);
    const unpacedRate = mbps(took.unpaced.bytes, took.unpaced.ms);
    const localFlood = await local(ECHO_SAMPLES);
    await client.call('agent.write', { agentId: floodId!, data: 's' });
    return {
      renderer: info.renderer,
      size: `${info.cols}×${info.rows}`,
      localIdle,
      idle,
      flood,
      localFlood,
      unpaced,
      floodRate,
      unpacedRate,
    };
  });
  await client.call('run.stop', { run: 'bench-echo' });
  return result;
}

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

// ---------------------------------------------------------------- report

function reportEcho(e: EchoResult): void {
  const painted = (s: EchoSample[]) => s.map((x) => x.painted);
  const spread = (v: number[]) =>
    `p50 ${ms(quantile(v, 0.5)).padStart(8)}  p99 ${ms(quantile(v, 0.99)).padStart(8)}  max ${ms(max(v)).padStart(8)}`;
  // Both against the idle local echo: typing while another pane floods should feel like typing into an idle one.
  const row = (label: string, s: EchoSample[], goal: number, base: EchoSample[]) => {
    const ratio = quantile(painted(s), 0.99) / quantile(painted(base), 0.99);
    line(
      label,
      `${spread(painted(s))}  p99 = ${fmt(ratio, 2)} × idle local echo (goal ≤ ${goal}×) ${mark(ratio <= goal)}  n=${s.length}`,
    );
    const q = (f: (x: EchoSample) => number, at: number) => ms(quantile(s.map(f), at));
    const parts = (at: number) =>
      `${q((x) => x.queued, at)} / ${q((x) => x.parsed, at)} / ${q((x) => x.painted - x.parsed, at)}`;
    line('  of it: key queued / → parsed / parsed → frame', `p50 ${parts(0.5)}   p99 ${parts(0.99)}`);
  };
  line('xterm local echo, idle (baseline)', spread(painted(e.localIdle)));
  row('keystroke → painted echo, idle', e.idle, GOAL_IDLE_RATIO, e.localIdle);
  line('xterm local echo, other pane flooding (baseline)', spread(painted(e.localFlood)));
  row('keystroke → painted echo, other pane flooding', e.flood, GOAL_FLOOD_RATIO, e.localIdle);
  row('  the same without the write pacer (alternating)', e.unpaced, GOAL_FLOOD_RATIO, e.localIdle);
  console.log(
    `  (panes ${e.size}; the flooding pane took ${rate(e.floodRate)} MB/s meanwhile, ${rate(e.unpacedRate)} MB/s without the pacer; clock from the keydown's own timestamp to the first animation frame after the echo is in the buffer)`,
  );
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
        // BENCH_ONLY=scale runs the hundred-agent scenes alone (switching, long tasks, memory, idle CPU, history typing).
        if (process.env.BENCH_ONLY === 'scale') {
          if (!webgl && !(await scaleBench(b, scene.root))) ok = false;
          continue;
        }
        const t = await throughput(b, scene);
        console.log(`(panes rendered by: ${t.renderer})`);
        reportThroughput(t);
        if (!t.exact) ok = false;
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
