// What agents and runs cost (docs/cost.md): tokens read from the vendors' own transcripts, and money where the vendor
// recorded it or Baton's price table knows the model. An unknown figure is null, never 0.
import { z } from 'zod';
import { vendorNameSchema } from '../words.js';
import { agentId, runId, runRef } from './fields.js';

const tokens = z.number().int().nonnegative();

/** Tokens by kind: `input` is the prompt not read from a cache; `output` includes reasoning. */
export const tokenCountsSchema = z.lazy(() =>
  z.strictObject({
    input: tokens,
    output: tokens,
    cacheRead: tokens,
    cacheWrite: tokens,
    total: tokens,
  }),
);
export type TokenCounts = z.infer<typeof tokenCountsSchema>;

export const costFiguresSchema = z.lazy(() =>
  z.strictObject({
    /** Null: unknown (the vendor records none, or the transcript is gone). */
    tokens: tokenCountsSchema.nullable(),
    /** USD; null: unknown (a model the price table does not name, a vendor that bills otherwise). */
    usd: z.number().nonnegative().nullable(),
    /** Where the money figure comes from: the vendor's own record, Baton's price table, or both. */
    usdFrom: z.enum(['recorded', 'priced', 'mixed']).nullable(),
    /** The models the calls named. */
    models: z.array(z.string()),
    /** Models whose calls have no price (not in the table): why `usd` is unknown. */
    unpricedModels: z.array(z.string()),
    /** Why a figure is unknown or incomplete, in the user's words; null when all is known. */
    note: z.string().nullable(),
    /**
     * The tokens are a lower bound: part is missing (a session's transcript is gone, an agent of the run is
     * unknown).
     */
    partial: z.boolean(),
    /** The USD is a lower bound: some calls with tokens have no known cost (the rest is summed). */
    usdPartial: z.boolean(),
  }),
);
export type CostFigures = z.infer<typeof costFiguresSchema>;

export const agentCostSchema = z.lazy(() =>
  costFiguresSchema.unwrap().extend({
    agentId,
    label: z.string(),
    vendor: vendorNameSchema,
    /** How many vendor sessions were summed (an id change such as Claude's /clear starts another). */
    sessions: z.number().int().nonnegative(),
  }),
);
export type AgentCost = z.infer<typeof agentCostSchema>;

export const priceTableInfoSchema = z.lazy(() =>
  z.strictObject({
    /** The date of the prices in use. */
    asOf: z.string(),
    source: z.enum(['built-in', 'file']),
    /** The user's prices.json, when there is one. */
    file: z.string().nullable(),
    /** Why the user's prices.json is not in use; the built-in prices are. */
    error: z.string().nullable(),
  }),
);

export const runCostSchema = z.lazy(() =>
  z.strictObject({
    runId,
    name: z.string(),
    /** Agents that talk to a model (shell agents have no cost). */
    agents: z.array(agentCostSchema),
    total: costFiguresSchema,
    prices: priceTableInfoSchema,
  }),
);
export type RunCost = z.infer<typeof runCostSchema>;

/** The compact sum a run summary or a snapshot carries. */
export const costTotalSchema = z.lazy(() =>
  z.strictObject({
    tokens: tokens.nullable(),
    usd: z.number().nonnegative().nullable(),
    /** The tokens are a lower bound. */
    partial: z.boolean(),
    /** The USD is a lower bound (absent from a snapshot of an older core: false). */
    usdPartial: z.boolean().optional(),
  }),
);
export type CostTotal = z.infer<typeof costTotalSchema>;

export const costEvents = {
  /** These runs' costs were read after run.list answered without them: list again. */
  'cost.changed': () => z.strictObject({ runIds: z.array(runId) }),
} as const;

export const costRequests = {
  /** Per agent and in total, what the run cost so far. */
  'run.cost': () => ({ params: z.strictObject({ run: runRef }), result: runCostSchema }),
} as const;
