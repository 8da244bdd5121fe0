// The renderer bench's keystroke scene (BENCH_ONLY=echo): keystroke → painted echo in a pane, idle and while the other
// visible pane floods, against xterm echoing locally in the same page. The flood's samples come in alternating blocks
// as shipped and as BENCH_ECHO_VS='<tuning JSON>' says (default: no write pacer), a paired A/B in one run;
// BENCH_ECHO_SAMPLES=n keys per side, BENCH_PROFILE=echo a main-thread profile, BENCH_IDLE_FRAMES=1 and
// BENCH_FRAME_GAPS=1 an animation-frame loop (which itself delays echoes).
import { waitFor } from '../helpers/server.js';
import { printProfile, startProfile } from './page-profile.js';
import { line, mark, paneBytes, rate, sleep, startAgents, withPage, type Scene } from './renderer-kit.js';
import {
  busy,
  mainThread,
  paneReady,
  type BenchBrowser,
  type BenchGlobal,
  type BenchPage,
  type EchoSample,
} from './renderer-page.js';
import type { OutputTuning } from '../../shared/output-tuning.js';
import { fmt, max, mbps, median, ms, quantile } from './stats.js';
import { MIRROR_NICE_VS, mirrorCpuMs, poolSamples, reniceMirrors } from './mirror-nice.js';

/** Keystroke → painted echo p99 against xterm's own local echo p99 (idle) in the same page. */
const GOAL_IDLE_RATIO = 1.25;
const GOAL_FLOOD_RATIO = 2;
const ECHO_SAMPLES = Number(process.env.BENCH_ECHO_SAMPLES ?? 200);
const ECHO_WARMUP = 20;
/** The samples while flooding come in this many blocks with the write pacer, alternating with as many without. */
const ECHO_BLOCKS = 4;
/**
 * The idle samples, the pane's and xterm's local echo alike, come in this many blocks each, alternating (each pair's
 * first side alternates too): both sides of the idle goal then meet the machine's load of the same minutes. Taken one
 * after the other (200 local, then 200 in the pane) the ratio moved 1.18–1.35× between runs on a shared machine.
 */
const ECHO_IDLE_BLOCKS = 4;
/**
 * What the flood's alternating blocks weigh against the shipped tuning: without the write pacer, or
 * BENCH_ECHO_VS='{"typingSliceMs":4}' (any of OutputTuning's switches) for a paired A/B of a change on the input path.
 */
const ECHO_VS: Partial<OutputTuning> = process.env.BENCH_ECHO_VS
  ? (JSON.parse(process.env.BENCH_ECHO_VS) as Partial<OutputTuning>)
  : MIRROR_NICE_VS !== null
    ? {}
    : { pacer: false };
/** BENCH_MIRROR_NICE=n: the "vs" blocks are the shipped tuning with the core's mirror threads at niceness n. */
const ECHO_VS_TEXT = process.env.BENCH_ECHO_VS
  ? `with ${process.env.BENCH_ECHO_VS}`
  : MIRROR_NICE_VS !== null
    ? `with the mirror threads at nice ${MIRROR_NICE_VS}`
    : 'without the write pacer';
const MIRROR_NICE_SHIPPED = Number(process.env.BATON_MIRROR_NICE ?? 0) || 0;

export interface EchoResult {
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
  /** Share of the time the page's main thread was busy in the flood blocks (median of blocks). */
  busy: { paced: number; vs: number };
  /** Time between animation frames in the flood blocks: p50, p90. */
  frames: { paced: number[]; vs: number[] };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `n` keystrokes, each a letter unlike the one before (so its echo is recognisable), at varying pauses. */
export async function echoSamples(page: BenchPage['page'], target: string | null, n: number): Promise<EchoSample[]> {
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

export async function echo(b: BenchBrowser, scene: Scene): Promise<EchoResult> {
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

    const localIdle: EchoSample[] = [];
    const idle: EchoSample[] = [];
    const inPane = async () => {
      // BENCH_IDLE_FRAMES=1: the pane's idle samples with animation frames running throughout (as a flood keeps them).
      if (process.env.BENCH_IDLE_FRAMES)
        await p.page.evaluate(
          'globalThis.__idleFrames = true; (function loop() { if (globalThis.__idleFrames) requestAnimationFrame(loop); })()',
        );
      idle.push(...(await baton(ECHO_SAMPLES / ECHO_IDLE_BLOCKS)));
      await p.page.evaluate('globalThis.__idleFrames = false');
    };
    const locally = async () => void localIdle.push(...(await local(ECHO_SAMPLES / ECHO_IDLE_BLOCKS)));
    for (let block = 0; block < ECHO_IDLE_BLOCKS; block++)
      for (const side of block % 2 === 0 ? [locally, inPane] : [inPane, locally]) await side();

    await client.call('agent.write', { agentId: floodId!, data: 'f' });
    const floodStart = await paneBytes(p, floodId!);
    await waitFor(
      async () => (await paneBytes(p, floodId!)) - floodStart > 1 << 20,
      'the flood to reach its pane',
      60_000,
    );
    // As shipped and as ECHO_VS says (without the write pacer unless told), in alternating blocks: in the same run.
    const shipped = await p.page.evaluate(() => (globalThis as BenchGlobal).__batonBench.setOutputTuning({}));
    const pacer = (on: boolean) =>
      p.page.evaluate((t) => (globalThis as BenchGlobal).__batonBench.setOutputTuning(t), on ? shipped : ECHO_VS);
    const flood: EchoSample[] = [];
    const unpaced: EchoSample[] = [];
    const took = { paced: { bytes: 0, ms: 0 }, unpaced: { bytes: 0, ms: 0 } };
    const busyShare = { paced: [] as number[], vs: [] as number[] };
    const frameGaps = { paced: [] as number[], vs: [] as number[] };
    const reniced: number[] = [];
    const mirrorCpu0 = mirrorCpuMs(server.child.pid);
    const blocksFrom = performance.now();
    for (let block = 0; block < 2 * ECHO_BLOCKS; block++) {
      const paced = block % 2 === 0;
      await pacer(paced);
      if (MIRROR_NICE_VS !== null)
        reniced.push(reniceMirrors(server.child.pid, paced ? MIRROR_NICE_SHIPPED : MIRROR_NICE_VS));
      const b0 = await paneBytes(p, floodId!);
      const t0 = performance.now();
      const m0 = await mainThread(p);
      // BENCH_FRAME_GAPS=1: frame intervals during the block. A loop of animation frames keeps Chromium drawing
      // continuously, which itself delays echoes (render-throttle.ts), so it is off unless asked for.
      // (A string: a named function inside an evaluated arrow gets tsx's __name helper, which the page lacks.)
      if (process.env.BENCH_FRAME_GAPS)
        await p.page.evaluate(
          'globalThis.__frames = []; globalThis.__framesOn = true; (function loop(t) { if (t) globalThis.__frames.push(t); if (globalThis.__framesOn) requestAnimationFrame(loop); })()',
        );
      // BENCH_PROFILE=echo: where the page's main thread spends the first block of each kind.
      const profile = process.env.BENCH_PROFILE === 'echo' && block < 2;
      if (profile) await startProfile(p);
      (paced ? flood : unpaced).push(...(await baton(ECHO_SAMPLES / ECHO_BLOCKS)));
      if (profile) await printProfile(p, paced ? 'typing, shipped' : `typing, ${ECHO_VS_TEXT}`, 14);
      const share = busy(m0, await mainThread(p));
      const frames = await p.page.evaluate(() => {
        const g = globalThis as unknown as { __frames?: number[]; __framesOn: boolean };
        g.__framesOn = false;
        return (g.__frames ?? []).slice(1).map((t, i) => t - g.__frames![i]!);
      });
      (paced ? frameGaps.paced : frameGaps.vs).push(...frames);
      (paced ? busyShare.paced : busyShare.vs).push(share.task);
      const into = paced ? took.paced : took.unpaced;
      into.bytes += (await paneBytes(p, floodId!)) - b0;
      into.ms += performance.now() - t0;
    }
    await pacer(true);
    if (MIRROR_NICE_VS !== null) {
      const cpu = mirrorCpuMs(server.child.pid) - mirrorCpu0;
      console.log(
        `  (mirror threads reniced per block: ${reniced.join(' ')}; their CPU over the flood blocks ${cpu} ms in ${fmt((performance.now() - blocksFrom) / 1000, 1)} s)`,
      );
      poolSamples('echo', 'shipped', { painted: flood.map((x) => x.painted) });
      poolSamples('echo', 'niced', { painted: unpaced.map((x) => x.painted) });
    }
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
      busy: { paced: median(busyShare.paced), vs: median(busyShare.vs) },
      frames: {
        paced: [quantile(frameGaps.paced, 0.5), quantile(frameGaps.paced, 0.9)],
        vs: [quantile(frameGaps.vs, 0.5), quantile(frameGaps.vs, 0.9)],
      },
    };
  });
  await client.call('run.stop', { run: 'bench-echo' });
  return result;
}

export function reportEcho(e: EchoResult): void {
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
  row(`  the same ${ECHO_VS_TEXT} (alternating)`, e.unpaced, GOAL_FLOOD_RATIO, e.localIdle);
  console.log(
    `  (panes ${e.size}; the flooding pane took ${rate(e.floodRate)} MB/s meanwhile, ${rate(e.unpacedRate)} MB/s ${ECHO_VS_TEXT}; main thread busy ${fmt(e.busy.paced * 100)}% / ${fmt(e.busy.vs * 100)}%${process.env.BENCH_FRAME_GAPS ? `, frame gap p50/p90 ${e.frames.paced.map(ms).join('/')} / ${e.frames.vs.map(ms).join('/')}` : ''}; clock from the keydown's own timestamp to the first animation frame after the echo is in the buffer)`,
  );
}
