// The throughput scene again, in a Chromium this bench drives without Playwright (bare-chromium.ts): the product's own
// figure, without the DevTools network reporting Playwright turns on (it copies every WebSocket frame to the bench).
// Same page (the bench build, same viewport, same switches), same xterm baseline (`xtermWriteRate` in that page), same
// bytes per round, the same byte-exact check; the ratio is against the baseline in this page in this run.
// BENCH_BARE=0 leaves it out; BENCH_THREADS=1 prints its CPU budget (every process and thread, per MiB).
import { launchBareBrowser, switchesOf, type BarePage } from './bare-chromium.js';
import { addRound, budgetText, cpuSnapshot, emptyBudget, leastWall, type Budget } from './cpu-budget.js';
import { MB, ROUNDS, line, list, load, mark, rate, sleep, startAgents, type Scene } from './renderer-kit.js';
import { cpuSeconds, type BenchBrowser, type PaneInfo } from './renderer-page.js';
import { LINE_BYTES, workloadLine } from './renderer-scripts.js';
import { fmt, mbps, median, ms } from './stats.js';
import { printProfile, startProfile } from './page-profile.js';
import type { OutputTuning } from '../../shared/output-tuning.js';

const GOAL_THROUGHPUT = 0.8;
const THROUGHPUT_VS: Partial<OutputTuning> | null = process.env.BENCH_THROUGHPUT_VS
  ? (JSON.parse(process.env.BENCH_THROUGHPUT_VS) as Partial<OutputTuning>)
  : null;
const WARMUP_LINES = 40_000;
const TAIL_LINES = 200;

export interface BareResult {
  size: string;
  renderer: string;
  mib: number;
  baseline: number[];
  pane: number[];
  /** CPU ms per MiB of Chromium's renderer and GPU processes (the page), and of the core, per round. */
  pageCpu: { baseline: number[]; pane: number[] };
  coreCpu: number[];
  budget: { baseline: Budget; pane: Budget; variant: Budget } | null;
  /** BENCH_THROUGHPUT_VS: the pane with that tuning, in the same rounds. */
  variant: { pane: number[]; pageCpu: number[]; coreCpu: number[] } | null;
  problems: string[];
  load: string;
}

const call = (id: string, method: string, ...args: unknown[]) =>
  `globalThis.__batonBench.${method}(${[id, ...args].map((a) => JSON.stringify(a)).join(', ')})`;

async function paneReady(page: BarePage, agentId: string): Promise<PaneInfo> {
  const info = () => page.evaluate<PaneInfo | null>(call(agentId, 'pane'));
  for (const t0 = Date.now(); (await info())?.ready !== true; await sleep(50))
    if (Date.now() - t0 > 60_000) throw new Error(`the bare page's pane for ${agentId} never became ready`);
  let last = '';
  for (let stable = 0; stable < 3;) {
    await sleep(150);
    const i = await info();
    const key = `${i?.cols}x${i?.rows}`;
    stable = key === last ? stable + 1 : 0;
    last = key;
  }
  return (await info())!;
}

/** `lines` per round: the Playwright-driven scene's, so both rows move the same bytes. */
export async function bareThroughput(b: BenchBrowser, scene: Scene, lines: number): Promise<BareResult> {
  const { server, client } = await scene.server();
  const [agentId] = await startAgents(client, scene, 'bench-bare', [
    { label: 'out', argv: [process.execPath, scene.scripts.writer, String(Math.max(lines, WARMUP_LINES))] },
  ]);
  const id = agentId!;
  const bare = await launchBareBrowser(await switchesOf(b));
  const problems: string[] = [];
  try {
    const page = await bare.open(server);
    const info = await paneReady(page, id);
    const pageCpu = () =>
      bare
        .processes()
        .filter((p) => p.type === 'renderer' || p.type === 'GPU')
        .reduce((sum, p) => {
          try {
            return sum + cpuSeconds(p.id);
          } catch {
            return sum; // gone meanwhile
          }
        }, 0);
    // xterm's own write rate in this page, an xterm like the pane's (renderer/bench-hooks.ts).
    const baselineRate = (n: number) =>
      page.evaluate<number>(`globalThis.__batonBench.xtermWriteRate(${n * LINE_BYTES}, ${JSON.stringify(id)})`);
    const paneRun = async (n: number) => {
      const bytes = n * LINE_BYTES;
      const r = await page.evaluate<{ ms: number; bytes: number }>(call(id, 'timePaneOutput', `${n}\r`, bytes));
      if (r.bytes !== bytes) problems.push(`a round brought ${r.bytes} bytes into the pane, expected ${bytes}`);
      return mbps(bytes, r.ms);
    };
    const paneBytes = () => page.evaluate<number>(call(id, 'paneBytes'));
    const start = await paneBytes();
    await baselineRate(WARMUP_LINES);
    await paneRun(WARMUP_LINES);
    const mib = (lines * LINE_BYTES) / (1 << 20);
    const budgets = { baseline: emptyBudget(), pane: emptyBudget(), variant: emptyBudget() };
    const threads = process.env.BENCH_THREADS !== undefined;
    const corePid = server.child.pid!;
    const spent = async (budget: Budget, into: number[], what: () => Promise<number>) => {
      const page0 = pageCpu();
      const core0 = cpuSeconds(corePid);
      const before = threads ? await cpuSnapshot(bare.processes, corePid) : null;
      const r = await what();
      const after = before ? await cpuSnapshot(bare.processes, corePid) : null;
      into.push(((pageCpu() - page0) * 1000) / mib);
      const core = ((cpuSeconds(corePid) - core0) * 1000) / mib;
      // The mirror's deferred parse belongs to this round, not the next one's clock (as in renderer-throughput.ts).
      await client.call('agent.screen', { agentId: id });
      if (before && after) addRound(budget, before, after, await cpuSnapshot(bare.processes, corePid), mib);
      return { r, core };
    };
    const baseline: number[] = [];
    const pane: number[] = [];
    const cpu = { baseline: [] as number[], pane: [] as number[] };
    const coreCpu: number[] = [];
    // BENCH_PROFILE=bare: where the page's main thread spends a baseline round and a pane round, in this page.
    const profiled = async (title: string, what: () => Promise<number>) => {
      if (process.env.BENCH_PROFILE !== 'bare') return what();
      await startProfile(page);
      const r = await what();
      await printProfile(page, title, Number(process.env.BENCH_PROFILE_TOP ?? 12));
      return r;
    };
    // BENCH_THROUGHPUT_VS='<tuning JSON>': the pane with that output tuning too, in the same rounds, in turned order.
    const vs = THROUGHPUT_VS;
    const shipped = await page.evaluate<OutputTuning>('globalThis.__batonBench.setOutputTuning({})');
    const tune = (t: Partial<OutputTuning>) =>
      page.evaluate<OutputTuning>(`globalThis.__batonBench.setOutputTuning(${JSON.stringify(t)})`);
    const variant: number[] = [];
    const variantCpu: number[] = [];
    const variantCore: number[] = [];
    const sides = [
      async () => {
        const p = await spent(budgets.pane, cpu.pane, () => profiled('a bare pane round', () => paneRun(lines)));
        pane.push(p.r);
        coreCpu.push(p.core);
      },
      ...(vs
        ? [
            async () => {
              await tune(vs);
              const p = await spent(budgets.variant, variantCpu, () => paneRun(lines));
              await tune(shipped);
              variant.push(p.r);
              variantCore.push(p.core);
            },
          ]
        : []),
    ];
    for (let i = 0; i < ROUNDS; i++) {
      baseline.push(
        (
          await spent(budgets.baseline, cpu.baseline, () =>
            profiled('a bare baseline round', () => baselineRate(lines)),
          )
        ).r,
      );
      for (let k = 0; k < sides.length; k++) await sides[(k + i) % sides.length]!();
    }
    // Byte-exact: nothing more came, and the pane's last lines are the workload's and the core mirror's.
    await sleep(300);
    const total = (await paneBytes()) - start;
    const expected = (WARMUP_LINES + sides.length * ROUNDS * lines) * LINE_BYTES;
    if (total !== expected) problems.push(`the pane got ${total} bytes in all, expected ${expected}`);
    const paneTail = (await page.evaluate<string>(call(id, 'paneText'))).split('\n').slice(-TAIL_LINES);
    const mirrorTail = (await client.call('agent.screen', { agentId: id })).text.split('\n').slice(-TAIL_LINES);
    const workloadTail = Array.from({ length: TAIL_LINES }, (_, k) => workloadLine(lines - TAIL_LINES + k));
    if (paneTail.join('\n') !== workloadTail.join('\n'))
      problems.push(`the pane's last ${TAIL_LINES} lines differ from the workload`);
    if (paneTail.join('\n') !== mirrorTail.join('\n'))
      problems.push(`the pane's last ${TAIL_LINES} lines differ from the core's mirror`);
    return {
      size: `${info.cols}×${info.rows}`,
      renderer: info.renderer,
      mib,
      baseline,
      pane,
      pageCpu: cpu,
      coreCpu,
      budget: threads ? budgets : null,
      variant: vs ? { pane: variant, pageCpu: variantCpu, coreCpu: variantCore } : null,
      problems,
      load: load(),
    };
  } finally {
    await bare.close();
    await client.call('run.stop', { run: 'bench-bare' });
  }
}

export function reportBare(t: BareResult): void {
  const base = median(t.baseline);
  const pane = median(t.pane);
  const ratio = pane / base;
  const exact = t.problems.length === 0;
  line(
    `bare Chromium (no DevTools network): xterm baseline`,
    `${rate(base).padStart(5)} MB/s   (runs ${list(t.baseline)})  page CPU/MiB ${ms(median(t.pageCpu.baseline))}`,
  );
  line(
    `bare Chromium: PTY → core → visible pane`,
    `${rate(pane).padStart(5)} MB/s   ratio ${fmt(ratio, 2)}  (goal ≥ ${fmt(GOAL_THROUGHPUT, 2)}) ${mark(ratio >= GOAL_THROUGHPUT)}  ` +
      `${exact ? 'byte-exact ✓' : 'NOT byte-exact ✗'}   (runs ${list(t.pane)})  CPU/MiB page ${ms(median(t.pageCpu.pane))} ` +
      `core ${ms(median(t.coreCpu))}`,
  );
  if (t.variant)
    line(
      `  the same bare pane with ${process.env.BENCH_THROUGHPUT_VS ?? ''}`,
      `${rate(median(t.variant.pane)).padStart(5)} MB/s   ratio ${fmt(median(t.variant.pane) / base, 2)}   (runs ${list(t.variant.pane)})  ` +
        `CPU/MiB page ${ms(median(t.variant.pageCpu))} core ${ms(median(t.variant.coreCpu))}`,
    );
  if (t.budget) {
    for (const [name, b] of [
      ['bare baseline', t.budget.baseline],
      ['bare pane', t.budget.pane],
      ...(t.variant ? ([['bare pane with BENCH_THROUGHPUT_VS', t.budget.variant]] as const) : []),
    ] as const)
      for (const text of budgetText(name, b, ms)) console.log(text);
    const paneWall = leastWall(t.budget.pane);
    line(
      `  ceiling, bare (CPU per MiB / cores)`,
      `ratio ≤ ${fmt(leastWall(t.budget.baseline) / paneWall, 2)} against the baseline's own CPU bound, ` +
        `≤ ${fmt((1 << 20) / paneWall / MB / base, 2)} against its measured rate (goal ${fmt(GOAL_THROUGHPUT, 2)})`,
    );
  }
  console.log(
    `  (${fmt(t.mib, 1)} MiB per round, pane ${t.size} ${t.renderer}, ${t.baseline.length} rounds of a baseline then the pane; load ${t.load})`,
  );
  for (const problem of t.problems) console.log(`  ! ${problem}`);
}

/** What the Playwright-driven pane round cost more than the bare one, per process (ms/MiB): DevTools' share. */
export function reportDevtoolsCost(driven: Budget, bare: Budget): void {
  const byGroup = (b: Budget) => {
    const out = new Map<string, number>();
    for (const [k, v] of b.threads) out.set(k.slice(0, k.indexOf('/')), (out.get(k.slice(0, k.indexOf('/'))) ?? 0) + v);
    return out;
  };
  const a = byGroup(driven);
  const z = byGroup(bare);
  const rows = [...new Set([...a.keys(), ...z.keys()])]
    .map((g) => [g, (a.get(g) ?? 0) - (z.get(g) ?? 0)] as const)
    .filter(([g, d]) => Math.abs(d) >= 0.0005 && g !== 'kernel')
    .sort((x, y) => y[1] - x[1]);
  line(
    `  Playwright-driven − bare pane, CPU ms/MiB`,
    rows.map(([g, d]) => `${g} ${d >= 0 ? '+' : ''}${ms(d * 1000)}`).join(', '),
  );
}
