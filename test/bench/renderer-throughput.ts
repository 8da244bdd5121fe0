// The renderer bench's throughput scene (BENCH_ONLY=throughput): PTY → core → visible pane, against xterm's own write
// rate (a fresh xterm of the same size) in the same page, with the CPU each MiB costs the page and the core, the pane
// with one part of its output path (renderer/panes/pane-output.ts) switched off at a time, BENCH_THROUGHPUT_VS='<tuning
// JSON>' as a paired variant in the same rounds, the core alone into a plain client, and a byte-exact check of the
// pane's last lines. BENCH_THREADS=1 adds the browser's CPU per MiB by thread, BENCH_PROFILE=throughput a profile.
import { printProfile, startProfile } from './page-profile.js';
import {
  MB,
  ROUNDS,
  line,
  list,
  mark,
  paneBytes,
  rate,
  sleep,
  startAgents,
  withPage,
  type Scene,
} from './renderer-kit.js';
import { addRound, budgetText, cpuSnapshot, emptyBudget, leastWall, type Budget } from './cpu-budget.js';
import {
  browserCpuSeconds,
  busy,
  cpuSeconds,
  mainThread,
  paneReady,
  type BenchBrowser,
  type BenchGlobal,
} from './renderer-page.js';
import { coreOnly, FRAME_TRACE, mainThreadFrames, styleRecalcs } from './renderer-throughput-measures.js';
import type { OutputTuning } from '../../shared/output-tuning.js';
import { LINE_BYTES, workloadLine } from './renderer-scripts.js';
import { fmt, mbps, median, ms } from './stats.js';

const GOAL_THROUGHPUT = 0.8;
/** Size the workload so one baseline write takes about this long, within [8, 48] MiB. */
const TARGET_BASELINE_MS = 1500;
const MIN_MIB = 8;
const MAX_MIB = 48;
const WARMUP_LINES = 40_000;
/** Lines compared between the pane, the core's mirror and the workload after the throughput rounds. */
const TAIL_LINES = 200;

/** Parts of the page's output path the throughput scene switches off one at a time (pane-output.ts). */
const ABLATIONS = ['renderThrottle', 'vs'] as const;
type Ablation = (typeof ABLATIONS)[number];
/** BENCH_THROUGHPUT_VS='{"floodFrameMs":100}' weighs a change of OutputTuning in the same rounds (paired A/B). */
const THROUGHPUT_VS: Partial<OutputTuning> | null = process.env.BENCH_THROUGHPUT_VS
  ? (JSON.parse(process.env.BENCH_THROUGHPUT_VS) as Partial<OutputTuning>)
  : null;
/**
 * BENCH_DEVTOOLS_NETWORK=1: the 'vs' rounds also enable DevTools' Network domain on a second session of the page, so
 * every WebSocket frame is reported twice: what Playwright's own listener (the bench's, not the product's) costs.
 */
const DEVTOOLS_NETWORK = process.env.BENCH_DEVTOOLS_NETWORK === '1';
const ABLATIONS_RUN = ABLATIONS.filter((a) => a !== 'vs' || THROUGHPUT_VS !== null || DEVTOOLS_NETWORK);
const ABLATION_TEXT: Record<Ablation, string> = {
  renderThrottle: 'drawing every frame',
  vs: `with ${process.env.BENCH_THROUGHPUT_VS ?? ''}${DEVTOOLS_NETWORK ? ' a second DevTools Network listener' : ''}`,
};

interface Cpu {
  page: number;
  core: number;
  /** The pane's draws in the round (NaN for the baseline, which is not a pane). */
  draws: number;
  /** The page's style recalculations per MiB (Performance.getMetrics): about one per frame that changed the page. */
  recalcs: number;
  /** BENCH_FRAMES=1: main-thread frames per MiB (the trace's BeginMainThreadFrame events); NaN otherwise. */
  frames: number;
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
  /** BENCH_THREADS=1: the CPU per MiB of every process and thread, baseline and pane (cpu-budget.ts). */
  budget: { baseline: Budget; pane: Budget } | null;
}

export async function throughput(b: BenchBrowser, scene: Scene): Promise<ThroughputResult> {
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
    // machine the rates swing 2-5× between rounds, the CPU each byte costs much less. BENCH_THREADS=1: every process's
    // and thread's, within the round's clock (cpu-budget.ts).
    const budgets = new Map<Cpu[], Budget>();
    const cpuSpent = async <T>(into: Cpu[], what: () => Promise<T>) => {
      const draws = async () =>
        (await p.page.evaluate((aid) => (globalThis as BenchGlobal).__batonBench.pane(aid), id))?.draws ?? Number.NaN;
      const page0 = await browserCpuSeconds(b);
      const core0 = cpuSeconds(server.child.pid!);
      const draws0 = await draws();
      const threads0 = process.env.BENCH_THREADS ? await cpuSnapshot(b, server.child.pid!) : null;
      const recalcs0 = await styleRecalcs(p);
      if (process.env.BENCH_FRAMES) await b.browser.startTracing(p.page, { categories: [FRAME_TRACE] });
      const r = await what();
      const threads1 = threads0 ? await cpuSnapshot(b, server.child.pid!) : null;
      // The mirror may parse a flood after it was delivered (flow.ts, `mirrorLagBytes`): its CPU counts to this round,
      // and its parse must not run into the next round's clock (the baseline's, say).
      await client.call('agent.screen', { agentId: id });
      const frames = process.env.BENCH_FRAMES ? mainThreadFrames(await b.browser.stopTracing()) : Number.NaN;
      const recalcs = (await styleRecalcs(p)) - recalcs0;
      const mib = (lines * LINE_BYTES) / (1 << 20);
      if (threads0) {
        const budget = budgets.get(into) ?? emptyBudget();
        budgets.set(into, budget);
        addRound(budget, threads0, threads1!, await cpuSnapshot(b, server.child.pid!), mib);
      }
      into.push({
        page: ((await browserCpuSeconds(b)) - page0) / mib,
        core: (cpuSeconds(server.child.pid!) - core0) / mib,
        draws: (await draws()) - draws0,
        recalcs: recalcs / mib,
        frames: frames / mib,
      });
      return r;
    };
    const without: Record<Ablation, number[]> = { renderThrottle: [], vs: [] };
    const cpu: Record<Ablation | 'shipped' | 'baseline', Cpu[]> = {
      baseline: [],
      shipped: [],
      renderThrottle: [],
      vs: [],
    };
    const off: Record<Ablation, Partial<OutputTuning>> = {
      renderThrottle: { renderThrottle: false },
      vs: THROUGHPUT_VS ?? {},
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
        ...ABLATIONS_RUN.map((a) => async () => {
          await tune(off[a]);
          const listen = a === 'vs' && DEVTOOLS_NETWORK;
          if (listen) await p.cdp.send('Network.enable');
          without[a].push(await cpuSpent(cpu[a], () => profiled(`a pane round without ${a}`, () => paneRun(lines))));
          if (listen) await p.cdp.send('Network.disable');
          await tune(shipped);
        }),
      ];
      for (let k = 0; k < variants.length; k++) await variants[(k + i) % variants.length]!();
    }
    // BENCH_THREADS=1: which process and thread spent the CPU, ms per MiB (mean of the rounds).
    for (const [name, list] of [
      ['baseline', cpu.baseline],
      ['pane as shipped', cpu.shipped],
      ['pane with BENCH_THROUGHPUT_VS', cpu.vs],
    ] as const) {
      const budget = budgets.get(list);
      if (budget) for (const text of budgetText(name, budget, ms)) console.log(text);
    }
    // Byte-exact: nothing more came, and the pane's last lines are the workload's and the core mirror's.
    await sleep(300);
    const total = (await paneBytes(p, id)) - start;
    const expected = (WARMUP_LINES + (1 + ABLATIONS_RUN.length) * ROUNDS * lines) * LINE_BYTES;
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
      budget:
        budgets.has(cpu.baseline) && budgets.has(cpu.shipped)
          ? { baseline: budgets.get(cpu.baseline)!, pane: budgets.get(cpu.shipped)! }
          : null,
    };
  });
  // The core alone, with no page attached: where the pane's rate is lost, if it is.
  const core: number[] = [];
  for (let i = 0; i < ROUNDS; i++) core.push(await coreOnly(client, id, result.lines));
  await client.call('run.stop', { run: 'bench-throughput' });
  return { ...result, core, exact: problems.length === 0, problems };
}

export function reportThroughput(t: ThroughputResult): void {
  const base = median(t.baseline);
  const pane = median(t.pane);
  const cpuText = (c: Cpu[]) =>
    `CPU/MiB page ${ms(median(c.map((x) => x.page * 1000)))} core ${ms(median(c.map((x) => x.core * 1000)))}, draws ${c.map((x) => x.draws).join('/')}, ` +
    `style recalcs/MiB ${fmt(median(c.map((x) => x.recalcs)), 1)}` +
    (process.env.BENCH_FRAMES ? `, frames/MiB ${fmt(median(c.map((x) => x.frames)), 1)}` : '');
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
  if (t.budget) {
    // The pane can go no faster than its CPU on this machine's cores allows: against the baseline's own bound (both
    // from CPU, so the load cancels) and against the baseline as measured in this run.
    const paneWall = leastWall(t.budget.pane);
    line(
      `  ceiling on this machine (CPU per MiB / cores)`,
      `ratio ≤ ${fmt(leastWall(t.budget.baseline) / paneWall, 2)} against the baseline's own CPU bound, ` +
        `≤ ${fmt((1 << 20) / paneWall / MB / base, 2)} against its measured rate (goal ${fmt(GOAL_THROUGHPUT, 2)})`,
    );
  }
  for (const a of ABLATIONS_RUN)
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
