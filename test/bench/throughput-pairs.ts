// The PtyHost's rate against raw node-pty as several interleaved pairs in one run: each round runs raw node-pty and
// the PtyHost (and, with BENCH_BEFORE, another checkout's PtyHost) back to back, in an order that rotates from round to
// round, and each ratio is taken against the raw run of its own round. On a shared 2-core machine single runs of the
// same build differed 0.56–0.96, so one figure settles nothing: the median is printed with its quartiles and range.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, mbps, median, quantile } from './stats.js';
import { rawPty, settled, viaPtyHost, type ThroughputSample } from './throughput.js';

export interface Contender {
  name: string;
  run(mib: number): Promise<ThroughputSample>;
}

export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  n: number;
}

export interface PairedFigures {
  mib: number;
  /** Every sample of each contender, by name ('raw' first), in round order. */
  samples: Map<string, ThroughputSample[]>;
  /** Per contender other than raw: its rate over raw's in the same round, to the exit (every byte delivered). */
  toExit: Map<string, Spread>;
  /** The same up to the last byte delivered: the output's own rate, without the time the exit takes to be reported. */
  toLastByte: Map<string, Spread>;
  /** With BENCH_BEFORE: this tree's rate over the other's in the same round, to the exit (> 1: this tree faster). */
  hostOverBefore: Spread | null;
}

export function spreadOf(values: readonly number[]): Spread {
  return {
    median: median(values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
  };
}

/** "0.71 (quartiles 0.62–0.80, range 0.48–0.95, 9 pairs)" */
export const describeSpread = (s: Spread): string =>
  `${fmt(s.median, 2)} (quartiles ${fmt(s.q1, 2)}–${fmt(s.q3, 2)}, range ${fmt(s.min, 2)}–${fmt(s.max, 2)}, ${s.n} pairs)`;

/**
 * raw node-pty, this tree's PtyHost, and with BENCH_BEFORE=<checkout> that checkout's PtyHost (its
 * `electron/core/pty/pty-host.ts` and `test/bench/throughput.ts`, run from source by tsx) as "before".
 */
export async function contenders(before = process.env.BENCH_BEFORE): Promise<Contender[]> {
  const list: Contender[] = [
    { name: 'raw', run: rawPty },
    { name: 'host', run: viaPtyHost },
  ];
  if (before) {
    const url = pathToFileURL(resolve(before, 'test/bench/throughput.ts')).href;
    const other = (await import(url)) as { viaPtyHost(mib: number): Promise<ThroughputSample> };
    list.push({ name: 'before', run: (mib) => other.viaPtyHost(mib) });
  }
  return list;
}

/**
 * `rounds` rounds of every contender on `mib` MiB, the order rotated each round so none always runs first, each run
 * started once the process is idle again.
 */
export async function pairedRounds(mib: number, rounds: number, who: readonly Contender[]): Promise<PairedFigures> {
  const samples = new Map<string, ThroughputSample[]>(who.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < who.length; k++) {
      const c = who[(round + k) % who.length]!;
      samples.get(c.name)!.push(await c.run(mib));
      // The mirror's parse of a burst it held back comes after it: never inside the next run of the round.
      await settled();
    }
  }
  const raw = samples.get('raw')!;
  const ratios = (pick: (s: ThroughputSample) => number) =>
    new Map(
      who
        .filter((c) => c.name !== 'raw')
        .map((c) => [
          c.name,
          spreadOf(samples.get(c.name)!.map((s, i) => mbps(s.bytes, pick(s)) / mbps(raw[i]!.bytes, pick(raw[i]!)))),
        ]),
    );
  const host = samples.get('host');
  const before = samples.get('before');
  const hostOverBefore = host && before ? spreadOf(host.map((h, i) => before[i]!.ms / h.ms)) : null;
  return { mib, samples, toExit: ratios((s) => s.ms), toLastByte: ratios((s) => s.lastByteMs), hostOverBefore };
}

/** Warms both paths (JIT, xterm's parser, the mirror thread's start) before anything is measured. */
export async function warmUp(who: readonly Contender[]): Promise<void> {
  for (const c of who) await c.run(8);
}
