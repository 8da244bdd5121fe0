// Small numeric helpers for the bench: order statistics and fixed-width formatting.

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
