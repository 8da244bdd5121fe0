// The price table in use (docs/cost.md): the built-in one (prices.ts), with the user's own `<data dir>/prices.json`
// laid over it model by model. The file is validated strictly; a bad one is named in a clear error and the built-in
// prices stay in use. It is read again whenever it changes.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { BUILT_IN_PRICES } from './prices.js';

const perMillion = z.number().finite().nonnegative().max(100_000);

export const priceFileSchema = z.strictObject({
  /** The day these prices were true (YYYY-MM-DD). */
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'asOf must be a date written YYYY-MM-DD' }),
  families: z
    .array(
      z.strictObject({
        family: z.string().min(1).max(100).optional(),
        /** Model ids as the CLIs record them, without a provider prefix or a date suffix. */
        models: z.array(z.string().min(1).max(200)).min(1).max(100),
        /** USD per million prompt tokens not read from a cache. */
        input: perMillion,
        output: perMillion,
        /** Cache reads; default: the input price. */
        cacheRead: perMillion.optional(),
        /** Cache writes; default: the input price. */
        cacheWrite: perMillion.optional(),
      }),
    )
    .max(1000),
});
export type PriceFile = z.infer<typeof priceFileSchema>;
export type ModelPrice = PriceFile['families'][number];

/** The file name users write their prices in, inside Baton's data directory. */
export const PRICE_FILE_NAME = 'prices.json';

/**
 * A model id as the table knows it: lower case, without a provider prefix (`anthropic/`, `models/`) and without a
 * release date suffix (`-20250929`, `@20250929`, `-2025-08-07`).
 */
export function normalizeModel(model: string): string {
  const bare = model.trim().toLowerCase().split('/').at(-1) ?? '';
  return bare.replace(/([-@]\d{8}|-\d{4}-\d{2}-\d{2})$/, '');
}

export interface PriceTable {
  /** The built-in table's date, or the user file's when it is in use. */
  readonly asOf: string;
  readonly source: 'built-in' | 'file';
  /** The user's file, when it exists. */
  readonly file: string | null;
  /** Why the user's file is not in use, in the user's words; null when it is, or there is none. */
  readonly error: string | null;
  /** The price of a model, or null when the table does not name it. */
  price(model: string): ModelPrice | null;
}

function tableOf(files: readonly PriceFile[]): Map<string, ModelPrice> {
  const byModel = new Map<string, ModelPrice>();
  for (const f of files) for (const fam of f.families) for (const m of fam.models) byModel.set(normalizeModel(m), fam);
  return byModel;
}

function makeTable(base: Omit<PriceTable, 'price'>, files: readonly PriceFile[]): PriceTable {
  const byModel = tableOf(files);
  return {
    ...base,
    price: (model) =>
      byModel.get(model.trim().toLowerCase().split('/').at(-1) ?? '') ?? byModel.get(normalizeModel(model)) ?? null,
  };
}

/** The first problem of a price file, said so the user can fix it. */
function problemOf(error: unknown, path: string): string {
  if (error instanceof SyntaxError) return `${path} is not valid JSON (${error.message})`;
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return `${path}${where}: ${issue?.message ?? 'not a price table'}`;
  }
  return `${path} cannot be read (${(error as Error).message})`;
}

/** Reads a price file; throws a SyntaxError or ZodError for a bad one. */
export async function readPriceFile(path: string): Promise<PriceFile> {
  return priceFileSchema.parse(JSON.parse(await readFile(path, 'utf8')) as unknown);
}

/**
 * The price table of a data directory, re-read when its prices.json changes (one stat per use otherwise; uses that
 * ask while a stat is in flight share it: a list of 10,000 runs asked 10,000 times at once, one stat each).
 */
export class PriceTables {
  private readonly path: string;
  private cached: { stamp: string; table: PriceTable } | null = null;
  private checking: Promise<PriceTable> | null = null;

  constructor(dataDir: string) {
    this.path = join(dataDir, PRICE_FILE_NAME);
  }

  current(): Promise<PriceTable> {
    if (this.checking) return this.checking;
    const checking = this.check();
    this.checking = checking;
    const done = () => {
      if (this.checking === checking) this.checking = null;
    };
    checking.then(done, done);
    return checking;
  }

  private async check(): Promise<PriceTable> {
    // A stat in place, not in libuv's pool: a first list of 10,000 runs uses the table once per slice of 64 runs (157
    // times), and with no prices.json each asynchronous stat made and threw an ENOENT error (~35 ms of the core's CPU
    // in that list, plus a round trip through the pool each time: docs/performance.md "(firstlist10)").
    let stamp = 'none';
    try {
      const st = statSync(this.path, { throwIfNoEntry: false });
      if (st) stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      /* unreadable: the built-in prices */
    }
    if (this.cached?.stamp === stamp) return this.cached.table;
    const table = await this.load(stamp !== 'none');
    this.cached = { stamp, table };
    return table;
  }

  private async load(exists: boolean): Promise<PriceTable> {
    const builtIn = { asOf: BUILT_IN_PRICES.asOf, source: 'built-in' as const, file: null, error: null };
    if (!exists) return makeTable(builtIn, [BUILT_IN_PRICES]);
    try {
      const mine = await readPriceFile(this.path);
      return makeTable({ asOf: mine.asOf, source: 'file', file: this.path, error: null }, [BUILT_IN_PRICES, mine]);
    } catch (err) {
      const error = `${problemOf(err, this.path)}; using the built-in prices of ${BUILT_IN_PRICES.asOf}`;
      return makeTable({ ...builtIn, file: this.path, error }, [BUILT_IN_PRICES]);
    }
  }
}
