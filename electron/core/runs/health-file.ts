// The last known health of each stopped run, kept on disk (<dataDir>/run-health.json) so the first `run.list` after
// the core opens a long history answers at once, from what was known when the last core ran, while every run is
// checked again in the background (run-health.ts). Only a cache (store/saved-runs-file.ts); an entry counts only for
// the run version (`updatedAt`) it was checked at.
import { z } from 'zod';
import { savedRunsFile } from '../store/saved-runs-file.js';

export const savedHealthSchema = z.strictObject({
  updatedAt: z.string().max(64),
  health: z.enum(['resumable', 'stale', 'missing']),
  checkedAt: z.number().int().nonnegative(),
});

export type SavedHealth = z.infer<typeof savedHealthSchema>;

export const healthFile = savedRunsFile(savedHealthSchema, 'run-health.json');
export const HEALTH_FILE = healthFile.name;
