// Adding up usage entries into the figures clients see (docs/cost.md): each call counted once, priced one by one
// (the vendor's recorded cost first, else the price table), and an unknown figure kept unknown rather than made 0.
import type { CostFigures, CostTotal, TokenCounts } from '../../../shared/contract.js';
import type { UsageEntry } from '../vendors/kit/usage.js';
import type { PriceTable } from './price-table.js';

const MILLION = 1_000_000;

export const zeroTokens = (): TokenCounts => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 });

export function addTokens(a: TokenCounts, b: Omit<TokenCounts, 'total'>): TokenCounts {
  const input = a.input + b.input;
  const output = a.output + b.output;
  const cacheRead = a.cacheRead + b.cacheRead;
  const cacheWrite = a.cacheWrite + b.cacheWrite;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}

/** USD of one call at the table's price, or null when the table does not name its model. */
export function priceOf(e: UsageEntry, table: PriceTable): number | null {
  const p = e.model === null ? null : table.price(e.model);
  if (!p) return null;
  const read = p.cacheRead ?? p.input;
  const write = p.cacheWrite ?? p.input;
  return (e.input * p.input + e.output * p.output + e.cacheRead * read + e.cacheWrite * write) / MILLION;
}

/** Sums of many small floats, rid of their binary noise (a billionth of a dollar is far below what anyone reads). */
const roundUsd = (v: number) => Math.round(v * 1e9) / 1e9;

/**
 * The figures of a set of calls. `costUnknownBecause` (a vendor that bills otherwise) leaves every unrecorded call
 * without a price; a call whose model the table does not name leaves the sum unknown, naming the model.
 */
export function figuresOf(
  entries: readonly UsageEntry[],
  table: PriceTable,
  costUnknownBecause: string | null,
): CostFigures {
  let tokens = zeroTokens();
  let usd = 0;
  let recorded = false;
  let priced = false;
  let unknown = false;
  const models = new Set<string>();
  const unpriced = new Set<string>();
  for (const e of entries) {
    tokens = addTokens(tokens, e);
    if (e.model) models.add(e.model);
    if (e.recordedUsd !== null) {
      usd += e.recordedUsd;
      recorded = true;
      continue;
    }
    if (costUnknownBecause !== null) {
      unknown = true;
      continue;
    }
    const p = priceOf(e, table);
    if (p === null) {
      unknown = true;
      unpriced.add(e.model ?? 'an unnamed model');
    } else {
      usd += p;
      priced = true;
    }
  }
  const unpricedModels = [...unpriced].sort();
  let note: string | null = null;
  if (unknown)
    note =
      costUnknownBecause ??
      `no price for ${unpricedModels.join(', ')} (add it to prices.json in Baton's data directory)`;
  return {
    tokens,
    usd: unknown ? null : roundUsd(usd),
    usdFrom: unknown ? null : recorded && priced ? 'mixed' : recorded ? 'recorded' : priced ? 'priced' : null,
    models: [...models].sort(),
    unpricedModels,
    note,
    partial: false,
    usdPartial: false,
  };
}

/** Unknown figures, with the reason. */
export function unknownFigures(note: string): CostFigures {
  return {
    tokens: null,
    usd: null,
    usdFrom: null,
    models: [],
    unpricedModels: [],
    note,
    partial: false,
    usdPartial: false,
  };
}

/**
 * The sum of several agents' figures: the known parts added, `partial` when some part is unknown (its figure is
 * then a lower bound and says so), unknown only when nothing is known.
 */
export function sumFigures(parts: readonly CostFigures[]): CostFigures {
  let tokens: TokenCounts | null = null;
  let usd: number | null = null;
  let partial = false;
  let usdPartial = false;
  const froms = new Set<string>();
  const models = new Set<string>();
  const unpriced = new Set<string>();
  const notes: string[] = [];
  for (const f of parts) {
    if (f.tokens) tokens = addTokens(tokens ?? zeroTokens(), f.tokens);
    else partial = true;
    if (f.usd !== null) usd = (usd ?? 0) + f.usd;
    else if (f.tokens === null || f.tokens.total > 0) usdPartial = true;
    if (f.usdFrom) froms.add(f.usdFrom);
    partial ||= f.partial;
    usdPartial ||= f.usdPartial;
    for (const m of f.models) models.add(m);
    for (const m of f.unpricedModels) unpriced.add(m);
    if (f.note && !notes.includes(f.note)) notes.push(f.note);
  }
  return {
    tokens,
    usd: usd === null ? null : roundUsd(usd),
    usdFrom: froms.size === 0 ? null : froms.size === 1 ? ([...froms][0] as CostFigures['usdFrom']) : 'mixed',
    models: [...models].sort(),
    unpricedModels: [...unpriced].sort(),
    note: notes.length > 0 ? notes.join('; ') : null,
    partial,
    usdPartial: usd !== null && usdPartial,
  };
}
