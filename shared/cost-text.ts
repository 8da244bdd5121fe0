// How cost figures read, the same in the pane header, the run list, snapshots and `baton cost` (docs/cost.md):
// compact ("12.3k tok · $0.04"), "unknown" for what is not known, never 0, and "≥" before a sum with unknown parts.
import type { CostFigures, CostTotal } from './contract/cost.js';

/** 950 → "950", 12_345 → "12.3k", 4_200_000 → "4.2M". */
export function tokensText(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${trim(n / 1000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

const trim = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1).replace(/\.0$/, ''));

/** 0.0432 → "$0.04", 0.004 → "<$0.01", 0 → "$0.00", 1234.5 → "$1,234.50". */
export function usdText(usd: number): string {
  if (usd > 0 && usd < 0.01) return '<$0.01';
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** "12.3k tok · $0.04", "12.3k tok · cost unknown", "tokens unknown", with "≥" where parts are unknown. */
export function costText(c: CostTotal): string {
  if (c.tokens === null && c.usd === null) return 'tokens unknown';
  const tokens = c.tokens === null ? 'tokens unknown' : `${c.partial ? '≥' : ''}${tokensText(c.tokens)} tok`;
  const usd = c.usd === null ? 'cost unknown' : `${c.usdPartial === true ? '≥' : ''}${usdText(c.usd)}`;
  return `${tokens} · ${usd}`;
}

/** The compact sum of full figures. */
export const totalOf = (f: CostFigures): CostTotal => ({
  tokens: f.tokens?.total ?? null,
  usd: f.usd,
  partial: f.partial,
  usdPartial: f.usdPartial,
});
