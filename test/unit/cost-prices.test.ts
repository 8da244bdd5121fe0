// The price table (docs/cost.md): built in and dated, overridable model by model with prices.json in the data
// directory, validated strictly (a bad file is said clearly and the built-in prices stay), and how figures read.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeModel, PriceTables } from '../../electron/core/cost/price-table.js';
import { BUILT_IN_PRICES } from '../../electron/core/cost/prices.js';
import { sumFigures } from '../../electron/core/cost/sum.js';
import { costText, tokensText, usdText } from '../../shared/cost-text.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'baton-prices-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = () => join(dir, 'prices.json');

describe('price table', () => {
  it('names models as the CLIs record them: provider prefixes and release dates dropped, unknown models not guessed', async () => {
    const table = await new PriceTables(dir).current();
    expect(table).toMatchObject({ asOf: BUILT_IN_PRICES.asOf, source: 'built-in', error: null });
    expect(normalizeModel('anthropic/claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(table.price('claude-sonnet-4-5-20250929')?.input).toBe(3);
    expect(table.price('models/gemini-2.5-pro')?.output).toBe(10);
    expect(table.price('gpt-5-chat-latest')?.input).toBe(1.25);
    // A later family is not priced as an earlier one.
    expect(table.price('claude-sonnet-4-7')).toBeNull();
    expect(table.price('mock-model')).toBeNull();
  });

  it("takes the user's prices.json over the built-in prices, model by model, and re-reads it when it changes", async () => {
    const tables = new PriceTables(dir);
    await writeFile(
      file(),
      JSON.stringify({
        asOf: '2026-11-20',
        families: [{ family: 'mine', models: ['claude-sonnet-4-5', 'house-model'], input: 1, output: 2 }],
      }),
    );
    const mine = await tables.current();
    expect(mine).toMatchObject({ asOf: '2026-11-20', source: 'file', file: file(), error: null });
    expect(mine.price('claude-sonnet-4-5')).toMatchObject({ input: 1, output: 2 });
    expect(mine.price('house-model')?.input).toBe(1);
    expect(mine.price('gpt-5')?.input).toBe(1.25); // the rest stays built in
    await writeFile(file(), JSON.stringify({ asOf: '2026-11-21', families: [] }));
    expect((await tables.current()).asOf).toBe('2026-11-21');
  });

  it.each([
    ['not JSON', '{ "asOf": ', /prices\.json is not valid JSON/],
    [
      'a field it does not know',
      JSON.stringify({ asOf: '2026-11-20', families: [], currency: 'EUR' }),
      /prices\.json: .*currency/,
    ],
    [
      'a bad date',
      JSON.stringify({ asOf: '20/11/2026', families: [] }),
      /at asOf: asOf must be a date written YYYY-MM-DD/,
    ],
    [
      'a negative price',
      JSON.stringify({ asOf: '2026-11-20', families: [{ models: ['x'], input: -1, output: 1 }] }),
      /at families\.0\.input/,
    ],
    [
      'no models',
      JSON.stringify({ asOf: '2026-11-20', families: [{ models: [], input: 1, output: 1 }] }),
      /at families\.0\.models/,
    ],
  ])('a bad file (%s) is said, with where, and the built-in prices stay', async (_what, text, message) => {
    await writeFile(file(), text);
    const table = await new PriceTables(dir).current();
    expect(table.error).toMatch(message);
    expect(table.error).toMatch(new RegExp(`using the built-in prices of ${BUILT_IN_PRICES.asOf}`));
    expect(table).toMatchObject({ source: 'built-in', asOf: BUILT_IN_PRICES.asOf });
    expect(table.price('claude-sonnet-4-5')?.input).toBe(3);
  });
});

describe('figures as users read them', () => {
  it('compact, "unknown" for what is not known, never 0, "≥" for a sum with unknown parts', () => {
    expect(tokensText(950)).toBe('950');
    expect(tokensText(12_345)).toBe('12.3k');
    expect(tokensText(4_200_000)).toBe('4.2M');
    expect(usdText(0.0432)).toBe('$0.04');
    expect(usdText(0.004)).toBe('<$0.01');
    expect(usdText(1234.5)).toBe('$1,234.50');
    expect(costText({ tokens: 12_345, usd: 0.04, partial: false })).toBe('12.3k tok · $0.04');
    expect(costText({ tokens: 12_345, usd: null, partial: false })).toBe('12.3k tok · cost unknown');
    expect(costText({ tokens: null, usd: null, partial: false })).toBe('tokens unknown');
    expect(costText({ tokens: 500, usd: 0.5, partial: true, usdPartial: true })).toBe('≥500 tok · ≥$0.50');
    // Every token counted, but some calls have no price: only the money is a lower bound.
    expect(costText({ tokens: 500, usd: 0.5, partial: false, usdPartial: true })).toBe('500 tok · ≥$0.50');
  });

  it('a run total adds what is known and marks itself incomplete when an agent is unknown', () => {
    const known = {
      tokens: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, total: 15 },
      usd: 0.01,
      usdFrom: 'priced' as const,
      models: ['a'],
      unpricedModels: [],
      note: null,
      partial: false,
      usdPartial: false,
    };
    const unknown = { ...known, tokens: null, usd: null, usdFrom: null, models: [], note: 'no counts' };
    const sum = sumFigures([known, unknown, known]);
    expect(sum.tokens?.total).toBe(30);
    expect(sum.usd).toBeCloseTo(0.02, 9);
    expect(sum.partial).toBe(true);
    expect(sum.usdPartial).toBe(true);
    expect(sum.note).toBe('no counts');
    expect(sumFigures([unknown]).tokens).toBeNull();
  });
});
