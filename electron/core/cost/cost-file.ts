// The last sum of each stopped run, kept on disk (<dataDir>/run-costs.json) so the first `run.list` of the next core
// answers a long history at once (list-costs.ts) instead of summing every run's transcripts again before it can.
// Only a cache (store/saved-runs-file.ts), as the runs' health is (runs/health-file.ts); an entry counts only for the
// run version (`updatedAt`) it was summed at, and every saved sum is made again in the background soon after the core
// opens (a transcript can grow while no core runs: a session resumed outside Baton), a changed one announced with
// `cost.changed`.
import { z } from 'zod';
import { costTotalSchema } from '../../../shared/contract.js';
import { savedRunsFile } from '../store/saved-runs-file.js';

export const savedCostSchema = z.strictObject({
  updatedAt: z.string().max(64),
  /** null: the run has no cost to show (shells only, say). */
  total: costTotalSchema.nullable(),
});

export type SavedCost = z.infer<typeof savedCostSchema>;

export const costFile = savedRunsFile(savedCostSchema, 'run-costs.json');
export const COST_FILE = costFile.name;
