// The last known health of each stopped run, kept on disk (<dataData>/run-health.json) so the first `run.list` after
// the core opens a long history answers at once, from what was known when the last core ran, while every run is
// checked again in the background (run-health.ts). Only a cache: a file that is missing, damaged or from another
// version is ignored (and rewritten by the next check); an entry counts only for the run version (`updatedAt`) it
// was checked at.
import { z } from 'zod';
import { RUN_ID } from '../../../shared/words.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { readJsonFile } from '../store/safe-read.js';

export const HEALTH_FILE = 'run-health.json';
/** 10,000 runs take about 1 MB; far above that is not a file Baton wrote. */
const MAX_BYTES = 32 * 1024 * 1024;

const savedSchema = z.strictObject({
  updatedAt: z.string().max(64),
  health: z.enum(['resumable', 'stale', 'missing']),
  checkedAt: z.number().int().nonnegative(),
});
const fileSchema = z.strictObject({ v: z.literal(1), runs: z.record(z.string().regex(RUN_ID), savedSchema) });

export type SavedHealth = z.infer<typeof savedSchema>;

/** The saved answers by run id; empty when there is no usable file (a damaged one is reported once). */
export async function readHealthFile(path: string): Promise<Map<string, SavedHealth>> {
  const read = await readJsonFile(path, MAX_BYTES, fileSchema);
  if (read.ok) return new Map(Object.entries(read.value.runs));
  if (!read.missing) process.stderr.write(`baton: ignoring ${path} (${read.reason}); it will be written again\n`);
  return new Map();
}

export async function writeHealthFile(path: string, runs: ReadonlyMap<string, SavedHealth>): Promise<void> {
  await writeFileAtomic(path, JSON.stringify({ v: 1, runs: Object.fromEntries(runs) }));
}
