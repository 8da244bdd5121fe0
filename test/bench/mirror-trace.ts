// The mirror threads' trace (BATON_MIRROR_TRACE), summed up over the scale bench's switching: where a first visit's
// reset waited (posted → received on its thread, received → answered), the page's fetches, and each thread's garbage
// collections and reflows in that window (docs/performance.md, "Mirror threads (mirror2)").
import { readFileSync } from 'node:fs';
import { fmt, ms, quantile } from './stats.js';

interface TraceLine {
  k: string;
  thread?: number;
  soon?: boolean;
  posted?: number;
  recv?: number;
  end?: number;
  start?: number;
  ms?: number;
  kind?: number;
  at?: number;
  offset?: number;
  queued?: number;
  miss?: string;
  request?: number;
  agentId?: string;
  sent?: number;
  niced?: boolean;
}

const q = (values: number[]) =>
  values.length === 0
    ? '–'
    : `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.9))} / ${ms(quantile(values, 0.99))} (n=${values.length})`;

/** Prints the summary of the trace lines whose time falls in [from, to] (epoch ms). */
export function printMirrorTrace(file: string, from: number, to: number): void {
  let lines: TraceLine[];
  try {
    lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as TraceLine);
  } catch {
    console.log(`  mirror trace: ${file} unreadable`);
    return;
  }
  const within = (at: number | undefined) => at !== undefined && at >= from && at <= to;
  const resets = lines.filter((e) => e.k === 'capture' && e.soon && within(e.posted) && e.recv !== undefined);
  console.log(
    `  mirror resets, p50 / p90 / p99: posted → received ${q(resets.map((e) => e.recv! - e.posted!))}; ` +
      `received → answered ${q(resets.map((e) => e.end! - e.recv!))}`,
  );
  // Resets the core answered with a kept screen, without the thread (mirror.ts, keptFor): how many bytes the pane
  // replays after it.
  const kept = lines.filter((e) => e.k === 'kept-reset' && within(e.at));
  if (kept.length > 0)
    console.log(
      `  resets answered with a kept screen: ${kept.length}; bytes after it p50 / p90 / p99: ` +
        [0.5, 0.9, 0.99]
          .map(
            (p) =>
              `${quantile(
                kept.map((e) => e.queued! - e.offset!),
                p,
              )} B`,
          )
          .join(' / '),
    );
  // The whole of the core's wait for a reset's screen: from the core asking for it to the core's main thread having
  // it (0 when answered with a kept screen), whichever way it went.
  const inHand = new Map(lines.filter((e) => e.k === 'answered').map((e) => [e.request!, e.at!]));
  const waits = [
    ...resets.filter((e) => inHand.has(e.request!)).map((e) => inHand.get(e.request!)! - e.posted!),
    ...kept.map(() => 0),
  ];
  console.log(`  the core's wait for a reset's screen (asked → on its main thread), p50 / p90 / p99: ${q(waits)}`);
  const misses = lines.filter((e) => e.k === 'kept-miss' && within(e.at));
  const why = new Map<string, number>();
  for (const e of misses) why.set(e.miss!, (why.get(e.miss!) ?? 0) + 1);
  if (misses.length > 0)
    console.log(`  resets the thread answered instead: ${[...why].map(([w, n]) => `${w} ${n}`).join(', ')}`);
  const fetches = lines.filter((e) => e.k === 'page-fetch' && within(e.start)).map((e) => e.ms!);
  console.log(`  page fetches p50 / p90 / p99: ${q(fetches)}`);
  printAttachHops(lines, within, '');
  // BENCH_MIRROR_NICE: the same for each side of the A/B (renderer-scale.ts logs which switch was which).
  const sides = lines.filter((e) => e.k === 'side');
  for (const niced of [false, true]) {
    const of = sides.filter((e) => e.niced === niced);
    if (of.length > 0)
      printAttachHops(
        lines,
        (at) => within(at) && of.some((e) => at! >= e.start! && at! <= e.end!),
        niced ? ' (niced)' : ' (as started)',
      );
  }
  const threads = [...new Set(lines.filter((e) => e.thread !== undefined).map((e) => e.thread!))].sort();
  for (const t of threads) {
    const of = (k: string, kind?: (n: number | undefined) => boolean) =>
      lines.filter((e) => e.k === k && e.thread === t && within(e.start) && (!kind || kind(e.kind))).map((e) => e.ms!);
    const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
    const stats = (v: number[]) => `${v.length}, max ${v.length ? ms(Math.max(...v)) : '–'}, total ${fmt(sum(v))} ms`;
    // V8's kinds: 1 a scavenge of the young generation, else a mark-sweep (4 full, 8 incremental, 16 weak callbacks).
    console.log(
      `  mirror thread ${t}: resets ${resets.filter((e) => e.thread === t).length}; ` +
        `scavenges > 20 ms ${stats(of('gc', (n) => n === 1))}; mark-sweeps > 20 ms ${stats(of('gc', (n) => n !== 1))}; ` +
        `resizes ${stats(of('resize'))}; kept screens taken ${stats(of('keep'))}`,
    );
  }
}

/**
 * Each page fetch split at the core (attach-trace.ts): the page asks → the core's main thread takes the request, the
 * core's handling, the reply sent → the page has it. A fetch is matched with its agent's first attach taken after it
 * started (the two clocks are the machine's one epoch clock).
 */
function printAttachHops(lines: TraceLine[], within: (at: number | undefined) => boolean, label: string): void {
  const attaches = lines.filter((e) => e.k === 'attach');
  const hops = { ask: [] as number[], handle: [] as number[], back: [] as number[] };
  for (const f of lines.filter((e) => e.k === 'page-fetch' && within(e.start))) {
    const core = attaches
      .filter((a) => a.agentId === f.agentId && a.recv! >= f.start! - 1 && a.sent! <= f.start! + f.ms! + 1)
      .sort((a, b) => a.recv! - b.recv!)[0];
    if (!core) continue;
    hops.ask.push(Math.max(0, core.recv! - f.start!));
    hops.handle.push(core.sent! - core.recv!);
    hops.back.push(Math.max(0, f.start! + f.ms! - core.sent!));
  }
  console.log(
    `  page fetches at the core${label}, p50 / p90 / p99: page asks → core takes it ${q(hops.ask)}; ` +
      `core's handling ${q(hops.handle)}; reply sent → page has it ${q(hops.back)}`,
  );
}
