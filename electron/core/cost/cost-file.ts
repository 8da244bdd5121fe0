// The last sum of each stopped run, kept on disk (<dataDir>/run-costs.json) so the first `run.list` of the next core
// answers a long history at once (list-costs.ts) instead of summing every run's transcripts again before it can.
// Only a cache, as the runs' health is (runs/health-file.ts): a file that is missing, damaged or from another
// version is ignored and written again; an entry counts only for the run version (`updatedAt`) it was summed at,
// and every saved sum is made again in the background soon after the core opens (a transcript can grow while no
// core runs: a session resumed outside Baton), a changed one announced with `cost.changed`.
import { z } from 'zod';
import { costTotalSchema } from '../../../shared/contract.js';
import { RUN_ID } from '../../../shared/words.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { readJsonFile } from '../store/safe-read.js';

export const COST_FILE = 'run-costs.json';
/** 10,000 runs take about 1 MB; far above that is not a file Baton wrote. */
const MAX_BYTES = 32 * 1024 * 1024;

const savedSchema = z.strictObject({
  updatedAt: z.string().max(64),
  /** null: the run has no cost to show (shells only, say). */
  total: costTotalSchema.nullable(),
});
const fileSchema = z.strictObject({ v: z.literal(1), runs: z.record(z.string().regex(RUN_ID), savedSchema) });

export type SavedCost = z.infer<typeof savedSchema>;

/** The saved sums by run id; empty when there is no usable file (a damaged one is reported once). */
export async function readCostFile(path: string): Promise<Map<string, SavedCost>> {
  const read = await readJsonFile(path, MAX_BYTES, fileSchema);
  if (read.ok) return new Map(Object.entries(read.value.runs));
  if (!read.missing) process.stderr.write(`baton: ignoring ${path} (${read.reason}); it will be written again\n`);
  return new Map();
}

export async function writeCostFile(path: string, runs: ReadonlyMap<string, SavedCost>): Promise<void> {
  await writeFileAtomic(path, JSON.stringify({ v: 1, runs: Object.fromEntries(runs) }));
}
