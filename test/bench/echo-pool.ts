// Pools the raw echo times that paired runs appended to a BATON_BENCH_TIMES file (stats.ts, saveTimes): per name, the
// quantiles over every run, and per run the p99 of each name next to the first's, so an A/B of many runs reads as
// one figure with thousands of keys a side (docs/performance.md, "Remote echo (echo14)").
// Run: npx tsx test/bench/echo-pool.ts <file>
import { readFileSync } from 'node:fs';
import { fmt, ms, quantile } from './stats.js';

const file = process.argv[2];
if (!file) throw new Error('usage: echo-pool.ts <times file>');
const runs = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { bench: string; load: number; times: Record<string, number[]> });
const pooled = new Map<string, number[]>();
const wins = new Map<string, number>();
for (const [i, run] of runs.entries()) {
  const names = Object.keys(run.times);
  const first = quantile(run.times[names[0]!]!, 0.99);
  const cells = names.map((n) => {
    const p99 = quantile(run.times[n]!, 0.99);
    if (p99 < first) wins.set(n, (wins.get(n) ?? 0) + 1);
    pooled.set(n, [...(pooled.get(n) ?? []), ...run.times[n]!]);
    return `${n} p50 ${ms(quantile(run.times[n]!, 0.5))} p99 ${ms(p99)} (${fmt(p99 / first, 2)}×)`;
  });
  console.log(`run ${i + 1} (${run.bench}, load ${fmt(run.load, 1)}): ${cells.join(' | ')}`);
}
const [firstName, firstTimes] = [...pooled.entries()][0]!;
for (const [name, xs] of pooled) {
  const q = (p: number) => ms(quantile(xs, p));
  const vs = name === firstName ? '' : `  p99 ${fmt(quantile(xs, 0.99) / quantile(firstTimes, 0.99), 2)}× ${firstName}`;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `pooled ${name.padEnd(16)} ${xs.length} keys  p50 ${q(0.5)}  p90 ${q(0.9)}  p95 ${q(0.95)}  p99 ${q(0.99)}  mean ${ms(mean)}${vs}` +
      (name === firstName ? '' : `  (its p99 below ${firstName}'s in ${wins.get(name) ?? 0} of ${runs.length} runs)`),
  );
}
