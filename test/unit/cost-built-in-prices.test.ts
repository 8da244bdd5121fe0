// The built-in price table's data (electron/core/cost/prices.ts, docs/cost.md): well formed as a user's prices.json
// must be, every model written the way the table looks it up and named once, and every price in USD per million
// tokens with the relations the vendors' list prices keep (a price per token or per thousand tokens, a cache read
// dearer than a fresh prompt, or an entry shadowed by another would each fail here).
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeModel, priceFileSchema, PriceTables, type PriceTable } from '../../electron/core/cost/price-table.js';
import { BUILT_IN_PRICES } from '../../electron/core/cost/prices.js';

const families = BUILT_IN_PRICES.families;
const models = families.flatMap((f) => f.models);
/** USD per million tokens: the cheapest list price is cents, the dearest a few hundred dollars. */
const PER_MILLION = { min: 0.005, max: 500 };

let dir = '';
let table: PriceTable;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'baton-built-in-prices-')));
  table = await new PriceTables(dir).current();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the built-in price table', () => {
  it('is as strict as a user’s prices.json, with a real date', () => {
    expect(priceFileSchema.safeParse(BUILT_IN_PRICES).error).toBeUndefined();
    const day = new Date(`${BUILT_IN_PRICES.asOf}T00:00:00Z`);
    expect(day.toISOString().slice(0, 10)).toBe(BUILT_IN_PRICES.asOf);
  });

  it('names each model once, as the table looks it up, and each family once', () => {
    expect(models.filter((m, i) => models.indexOf(m) !== i)).toEqual([]);
    expect(models.filter((m) => normalizeModel(m) !== m)).toEqual([]);
    const names = families.map((f) => f.family);
    expect(names.every((n) => n !== undefined && n.length > 0)).toBe(true);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    // Every model is priced as its own family (none shadowed by a later entry).
    for (const f of families) for (const m of f.models) expect(table.price(m), m).toBe(f);
  });

  it.each(families.map((f) => [f.family ?? f.models[0]!, f] as const))(
    '%s: priced per million tokens, output ≥ input, a cache read a discount, a cache write at most twice the input',
    (_name, f) => {
      const cacheRead = f.cacheRead ?? f.input;
      const cacheWrite = f.cacheWrite ?? f.input;
      for (const price of [f.input, f.output, cacheRead, cacheWrite]) {
        expect(price).toBeGreaterThanOrEqual(PER_MILLION.min);
        expect(price).toBeLessThanOrEqual(PER_MILLION.max);
      }
      expect(f.output).toBeGreaterThanOrEqual(f.input);
      // The vendors take 75% to 95% off a prompt read from their cache.
      expect(cacheRead).toBeLessThan(f.input);
      expect(cacheRead).toBeGreaterThanOrEqual(f.input / 20);
      // A cache write costs the input price (OpenAI, Google) or 1.25× it (Anthropic; 2× for an hour's cache).
      expect(cacheWrite).toBeGreaterThanOrEqual(f.input);
      expect(cacheWrite).toBeLessThanOrEqual(2 * f.input);
    },
  );
});
