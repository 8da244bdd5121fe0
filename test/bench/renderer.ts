// The renderer bench: `npm run bench:renderer` (needs `npm run build` first for `baton serve`; it builds the bench page
// itself: `npm run build:renderer-bench`, dist/renderer-bench, the dashboard plus renderer/bench-hooks.ts, which the
// product bundle never carries). BENCH_RENDERERS=dom (or webgl) runs one renderer only, for a shorter run;
// BENCH_ONLY=echo the keystroke scene only, BENCH_ONLY=throughput the throughput scene only, BENCH_ONLY=scale the
// hundred-agent scenes only, BENCH_ONLY=history the history's typing scene only (renderer-history.ts).
// A real `baton serve`, Debian's Chromium on the bench page (served in place of the server's own files), `shell` agents
// running small Node programs (renderer-scripts.ts). Every figure is taken inside the page and set against a
// baseline taken in the same page in the same run (shared machines are noisy: the ratios mean something, the
// absolute figures less):
//   - throughput PTY → core → visible pane, against xterm's own write rate (a fresh xterm of the same size);
//   - keystroke → painted echo, idle and while the other visible pane floods, against xterm echoing locally;
//   - renderer memory per pane with 5,000 lines of scrollback, against the same page with no pane.
// Twice: xterm's DOM renderer (no 3D APIs, as the end-to-end journeys run) and WebGL (Chromium's software GL).
// Nothing here asserts a time; `ok` is false only when a pane's output is not byte-exact or a measurement breaks.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RpcClient } from '../../shared/client.js';
import { skipUnlessChromium } from '../e2e/browser.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import {
  browserCpuSeconds,
  busy,
  cpuSeconds,
  launchBenchBrowser,
  mainThread,
  memory,
  openBenchPage,
  paneReady,
  type BenchBrowser,
  type BenchGlobal,
  type BenchPage,
  type EchoSample,
  type MemorySample,
  type OutputTuning,
} from './renderer-page.js';
import { printProfile, startProfile } from './page-profile.js';
import { historyBench } from './renderer-history.js';
import { scaleBench } from './renderer-scale.js';
import { LINE_BYTES, workloadLine, writeAgentScripts, type AgentScripts } from './renderer-scripts.js';
import { fmt, max, mbps, median, ms, quantile } from './stats.js';

const GOAL_THROUGHPUT = 0.8;
/** Keystroke → painted echo p99 against xterm's own local echo p99 (idle) in the same page. */
const GOAL_IDLE_RATIO = 1.25;
const GOAL_FLOOD_RATIO = 2;
const GOAL_MEMORY_MB = 25;

/** BENCH_ROUNDS=n for more pairs when the machine is noisy. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Size the workload so one baseline write takes about this long, within [8, 48] MiB. */
const TARGET_BASELINE_MS = 1500;
const MIN_MIB = 8;
const MAX_MIB = 48;
const WARMUP_LINES = 40_000;
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
/** Lines compared between the pane, the core's mirror and the workload after the throughput rounds. */
const TAIL_LINES = 200;

const MB = 1e6;
const LABEL = 52;
const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
/** MB/s with one decimal below 10 (software WebGL is that slow), none above. */
const rate = (v: number) => fmt(v, Math.abs(v) < 10 ? 1 : 0);
const list = (values: number[]) => values.map(rate).join(' / ');
const mark = (good: boolean) => (good ? '✓' : '✗');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));
const mbText = (bytes: number | null) =>
  bytes === null || !Number.isFinite(bytes) ? '–' : `${(bytes / MB).toFixed(1)} MB`;

// ---------------------------------------------------------------- servers, clients, cleanup

class Scene {
  readonly root = realpathSync(tempDir('baton-rbench-'));
  readonly work = join(this.root, 'work');
  readonly scripts: AgentScripts;
  private readonly env: Record<string, string>;
  private readonly servers: ServerProcess[] = [];
  private readonly clients: RpcClient[] = [];
  private serverCount = 0;

  constructor() {
    mkdirSync(this.work, { recursive: true });
    this.scripts = writeAgentScripts(this.work);
    this.env = testEnv(join(this.root, 'home'));
  }

  /** A fresh `baton serve` on its own data directory (so the page opens on exactly the runs a scenario starts). */
  async server(): Promise<{ server: ServerProcess; client: RpcClient }> {
    const server = await startServer(join(this.root, `data-${++this.serverCount}`), this.env);
    this.servers.push(server);
    const client = await server.connect();
    this.clients.push(client);
    return { server, client };
  }

  async close(): Promise<void> {
    for (const c of this.clients.splice(0)) c.close();
    await Promise.all(this.servers.splice(0).map((s) => stopServer(s)));
    rmSync(this.root, { recursive: true, force: true });
  }
}

async function stopServer(s: ServerProcess): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 15_000)));
  const outcome = await Promise.race([s.exited, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    s.child.kill('SIGKILL');
    await s.exited;
  }
}

async function startAgents(
  client: RpcClient,
  scene: Scene,
  name: string,
  commands: { label: string; argv: string[] }[],
): Promise<string[]> {
  const run = await client.call('run.start', {
    name,
    agents: commands.map((c) => ({ vendor: 'shell' as const, label: c.label, cwd: scene.work, command: c.argv })),
  });
  const ids = run.agents.map((a) => a.id);
  for (const agentId of ids) {
    await waitFor(
      async () => / ready/.test((await client.call('agent.screen', { agentId })).text),
      `agent ${agentId} to start`,
      30_000,
    );
  }
  return ids;
}

async function withPage<T>(
  b: BenchBrowser,
  server: ServerProcess,
  fn: (p: BenchPage) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<T> {
  const p = await openBenchPage(b, server);
  try {
    if (viewport) await p.page.setViewportSize(viewport);
    const result = await fn(p);
    if (p.errors.length > 0) console.log(`  ! the page reported: ${p.errors.slice(0, 5).join(' | ')}`);
    return result;
  } finally {
    await p.close();
  }
}

// ---------------------------------------------------------------- 1. throughput

/** Parts of the page's output path the throughput scene switches off one at a time (pane-output.ts). */
const ABLATIONS = ['renderThrottle'] as const;
type Ablation = (typeof ABLATIONS)[number];
const ABLATION_TEXT: Record<Ablation, string> = {
  renderThrottle: 'drawing every frame',
};

interface Cpu {
  page: number;
  core: number;
  /** The pane's draws in the round (NaN for the baseline, which is not a pane). */
  draws: number;
}

interface ThroughputResult {
  renderer: string;
  size: string;
  mib: number;
  lines: number;
  baseline: number[];
  pane: number[];
  /** The pane with one part of its output path switched off, in the same rounds. */
  without: Record<Ablation, number[]>;
  /** CPU seconds per MiB, per variant. */
  cpu: Record<Ablation | 'shipped' | 'baseline', Cpu[]>;
  core: number[];
  /** Share of the time the page's main thread was busy (all tasks / script) during the baseline and the pane rounds. */
  busyBaseline: { task: number; script: number };
  busyPane: { task: number; script: number };
  exact: boolean;
  problems: string[];
}

const paneBytes = (p: BenchPage, agentId: string) =>
  p.page.evaluate((id) => (globalThis as BenchGlobal).__batonBench.paneBytes(id), agentId);

/** The same trigger and bytes through the core into a plain client (no page): what the core alone delivers. */
async function coreOnly(client: RpcClient, agentId: string, lines: number): Promise<number> {
  const bytes = lines * LINE_BYTES;
  let got = 0;
  let finish: (t: number) => void = () => undefined;
  const done = new Promise<number>((r) => (finish = r));
  let counting = false;
  const stream = await client.attach(
    agentId,
    { autoAck: true, visible: true },
    {
      onData: (data) => {
        if (!counting) return;
        got += data.length;
        if (got >= bytes) finish(performance.now());
      },
      onReset: () => undefined,
    },
  );
  try {
    await sleep(200);
    counting = true;
    const t0 = performance.now();
    await client.call('agent.write', { agentId, data: `${lines}\r` });
    let timer: NodeJS.Timeout | undefined;
    const t1 = await Promise.race([
      done,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error('the core-only run got stuck')), 120_000)),
      ),
    ]).finally(() => clearTimeout(timer));
    if (got !== bytes) throw new Error(`the core delivered ${got} bytes, expected ${bytes}`);
    return mbps(bytes, t1 - t0);
  } finally {
    stream.detach();
    await sleep(200);
  }
}

async function throughput(b: BenchBrowser, scene: Scene): Promise<ThroughputResult> {
  const { server, client } = await scene.server();
  const maxLines = Math.ceil((MAX_MIB << 20) / LINE_BYTES);
  const [agentId] = await startAgents(client, scene, 'bench-throughput', [
    { label: 'out', argv: [process.execPath, scene.scripts.writer, String(maxLines)] },
  ]);
  const id = agentId!;
  const problems: string[] = [];
  const result = await withPage(b, server, async (p) => {
    const info = await paneReady(p.page, id);
    const baselineRate = (lines: number) =>
      p.page.evaluate(([aid, n]) => (globalThis as BenchGlobal).__batonBench.xtermWriteRate(n, aid), [
        id,
        lines * LINE_BYTES,
      ] as const);
    const paneRun = async (lines: number) => {
      const bytes = lines * LINE_BYTES;
      const r = await p.page.evaluate(
        ([aid, n, trigger]) => (globalThis as BenchGlobal).__batonBench.timePaneOutput(aid, trigger, n),
        [id, bytes, `${lines}\r`] as const,
      );
      if (r.bytes !== bytes) problems.push(`a round brought ${r.bytes} bytes into the pane, expected ${bytes}`);
      return mbps(bytes, r.ms);
    };
    const start = await paneBytes(p, id);
    // Warm up both paths (JIT, xterm's parser, the renderer) and size the workload from the baseline's rate.
    const warm = await baselineRate(WARMUP_LINES);
    await paneRun(WARMUP_LINES);
    const mib = Math.min(
      MAX_MIB,
      Math.max(MIN_MIB, Math.round((warm * MB * (TARGET_BASELINE_MS / 1000)) / (1 << 20) / 4) * 4),
    );
    const lines = Math.min(maxLines, Math.floor((mib << 20) / LINE_BYTES));
    const baseline: number[] = [];
    const pane: number[] = [];
    const busyBaseline = { task: 0, script: 0 };
    const busyPane = { task: 0, script: 0 };
    const timed = async (into: { task: number; script: number }, what: () => Promise<number>) => {
      const a = await mainThread(p);
      const rate = await what();
      const share = busy(a, await mainThread(p));
      into.task += share.task / ROUNDS;
      into.script += share.script / ROUNDS;
      return rate;
    };
    // BENCH_PROFILE=throughput: where the page's main thread spends a baseline round and a pane round.
    const profiled = async (title: string, what: () => Promise<number>) => {
      if (process.env.BENCH_PROFILE !== 'throughput') return what();
      await startProfile(p);
      const r = await what();
      await printProfile(p, title, 12);
      return r;
    };
    // The pane as shipped and with one part of its output path switched off at a time (pane-output.ts), in an order
    // that turns each round after its baseline: each part's gain in the same run, at the same load.
    const tune = (t: Partial<OutputTuning>) =>
      p.page.evaluate((x) => (globalThis as BenchGlobal).__batonBench.setOutputTuning(x), t);
    const shipped = await tune({});
    // CPU per MiB of the page (renderer + GPU processes) and the core (main + mirror threads), per variant: on a loaded
    // machine the rates swing 2-5× between rounds, the CPU each byte costs much less.
    const cpuSpent = async <T>(into: Cpu[], what: () => Promise<T>) => {
      const draws = async () =>
        (await p.page.evaluate((aid) => (globalThis as BenchGlobal).__batonBench.pane(aid), id))?.draws ?? Number.NaN;
      const page0 = await browserCpuSeconds(b);
      const core0 = cpuSeconds(server.child.pid!);
      const draws0 = await draws();
      const r = await what();
      const mib = (lines * LINE_BYTES) / (1 << 20);
      into.push({
        page: ((await browserCpuSeconds(b)) - page0) / mib,
        core: (cpuSeconds(server.child.pid!) - core0) / mib,
        draws: (await draws()) - draws0,
      });
      return r;
    };
    const without: Record<Ablation, number[]> = { renderThrottle: [] };
    const cpu: Record<Ablation | 'shipped' | 'baseline', Cpu[]> = {
      baseline: [],
      shipped: [],
      renderThrottle: [],
    };
    const off: Record<Ablation, Partial<OutputTuning>> = {
      renderThrottle: { renderThrottle: false },
    };
    for (let i = 0; i < ROUNDS; i++) {
      baseline.push(
        await cpuSpent(cpu.baseline, () =>
          timed(busyBaseline, () => profiled('a baseline round', () => baselineRate(lines))),
        ),
      );
      const variants = [
        async () =>
          pane.push(
            await cpuSpent(cpu.shipped, () => timed(busyPane, () => profiled('a pane round', () => paneRun(lines)))),
          ),
        ...ABLATIONS.map((a) => async () => {
          await tune(off[a]);
          without[a].push(await cpuSpent(cpu[a], () => profiled(`a pane round without ${a}`, () => paneRun(lines))));
          await tune(shipped);
        }),
      ];
      for (let k = 0; k < variants.length; k++) await variants[(k + i) % variants.length]!();
    }
    // Byte-exact: nothing more came, and the pane's last lines are the workload's and the core mirror's.
    await sleep(300);
    const total = (await paneBytes(p, id)) - start;
    const expected = (WARMUP_LINES + (1 + ABLATIONS.length) * ROUNDS * lines) * LINE_BYTES;
    if (total !== expected) problems.push(`the pane got ${total} bytes in all, expected ${expected}`);
    const paneTail = (await p.page.evaluate((aid) => (globalThis as BenchGlobal).__batonBench.paneText(aid), id))
      .split('\n')
      .slice(-TAIL_LINES);
    const mirrorTail = (await client.call('agent.screen', { agentId: id })).text.split('\n').slice(-TAIL_LINES);
    const workloadTail = Array.from({ length: TAIL_LINES }, (_, k) => workloadLine(lines - TAIL_LINES + k));
    const firstDiff = (a: string[], b2: string[]) => a.findIndex((l, k) => l !== b2[k]);
    if (paneTail.join('\n') !== workloadTail.join('\n'))
      problems.push(
        `the pane's last ${TAIL_LINES} lines differ from the workload (first at ${firstDiff(paneTail, workloadTail)}: ${JSON.stringify(paneTail[firstDiff(paneTail, workloadTail)]?.slice(0, 40))})`,
      );
    if (paneTail.join('\n') !== mirrorTail.join('\n'))
      problems.push(
        `the pane's last ${TAIL_LINES} lines differ from the core's mirror (first at ${firstDiff(paneTail, mirrorTail)})`,
      );
    return {
      renderer: info.renderer,
      size: `${info.cols}×${info.rows}`,
      mib: (lines * LINE_BYTES) / (1 << 20),
      baseline,
      pane,
      without,
      cpu,
      lines,
      busyBaseline,
      busyPane,
    };
  });
  // The core alone, with no page attached: where the pane's rate is lost, if it is.
  const core: number[] = [];
  for (let i = 0; i < ROUNDS; i++) core.push(await coreOnly(client, id, result.lines));
  await client.call('run.stop', { run: 'bench-throughput' });
  return { ...result, core, exact: problems.length === 0, problems };
}

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

function reportThroughput(t: ThroughputResult): void {
  const base = median(t.baseline);
  const pane = median(t.pane);
  const cpuText = (c: Cpu[]) =>
    `CPU/MiB page ${ms(median(c.map((x) => x.page * 1000)))} core ${ms(median(c.map((x) => x.core * 1000)))}, draws ${c.map((x) => x.draws).join('/')}`;
  const ratio = pane / base;
  line(
    `xterm write rate in the page (baseline)`,
    `${rate(base).padStart(5)} MB/s   (runs ${list(t.baseline)})  page CPU/MiB ${ms(median(t.cpu.baseline.map((x) => x.page * 1000)))}`,
  );
  line(
    `PTY → core → visible pane throughput`,
    `${rate(pane).padStart(5)} MB/s   ratio ${fmt(ratio, 2)}  (goal ≥ ${fmt(GOAL_THROUGHPUT, 2)}) ${mark(ratio >= GOAL_THROUGHPUT)}  ` +
      `${t.exact ? 'byte-exact ✓' : 'NOT byte-exact ✗'}   (runs ${list(t.pane)})  ${cpuText(t.cpu.shipped)}`,
  );
  for (const a of ABLATIONS)
    line(
      `  the same pane ${ABLATION_TEXT[a]}`,
      `${rate(median(t.without[a])).padStart(5)} MB/s   ratio ${fmt(median(t.without[a]) / base, 2)}   (runs ${list(t.without[a])})  ${cpuText(t.cpu[a])}`,
    );
  const pct = (b: { task: number; script: number }) => `${fmt(b.task * 100)}% (script ${fmt(b.script * 100)}%)`;
  line(`  page main thread busy: baseline / pane rounds`, `${pct(t.busyBaseline)} / ${pct(t.busyPane)}`);
  line(
    `  core → WebSocket → plain client (no page)`,
    `${rate(median(t.core)).padStart(5)} MB/s   = ${fmt(median(t.core) / base, 2)} × baseline   (runs ${list(t.core)})`,
  );
  console.log(
    `  (${fmt(t.mib, 1)} MiB of 100-character lines + CRLF per round, 64 KiB writes, pane ${t.size}, ${ROUNDS} rounds: a baseline, then the panes in turned order)`,
  );
  for (const problem of t.problems) console.log(`  ! ${problem}`);
}

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
