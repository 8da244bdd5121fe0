// Small numeric helpers for the bench: order statistics and fixed-width formatting.
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Nearest-rank quantile (q in [0, 1]) of the values; NaN when there are none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function max(values: readonly number[]): number {
  return values.reduce((m, v) => (v > m ? v : m), Number.NEGATIVE_INFINITY);
}

/** Bytes per second as MB/s (10^6 bytes). */
export const mbps = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);

export const fmt = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** Milliseconds with a precision that suits sub-millisecond and multi-millisecond figures alike. */
export const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;

/**
 * BATON_BENCH_TIMES=<file>: each run appends its raw times (one JSON line, name → ms per key, with the load), so
 * several paired runs can be pooled (`npx tsx test/bench/echo-pool.ts <file>`): the p99 of thousands of keys per side.
 */
export function saveTimes(bench: string, times: Record<string, number[]>): void {
  const file = process.env.BATON_BENCH_TIMES;
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ bench, at: new Date().toISOString(), load: loadavg()[0], times })}\n`);
}
