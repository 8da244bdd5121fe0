// A cache kept per run in the data directory, `{v: 1, runs: {<runId>: entry}}`: what a core learned about its stopped
// runs (their health, their cost sums) so the next core's first `run.list` answers at once. Only a cache: a file that
// is missing, damaged or from another version is ignored (a damaged one reported once, when it is read) and written
// again whole by the next save.
import { z } from 'zod';
import { RUN_ID } from '../../../shared/words.js';
import { writeFileAtomic } from './atomic-file.js';
import { readJsonFile } from './safe-read.js';

/** 10,000 runs take about 1 MB; far above that is not a file Baton wrote. */
const MAX_BYTES = 32 * 1024 * 1024;

export interface SavedRunsFile<Entry> {
  /** The file's name in the data directory. */
  readonly name: string;
  /** The saved entries by run id; empty when there is no usable file (a damaged one is reported on stderr). */
  read(path: string): Promise<Map<string, Entry>>;
  /** Replaces the file with `runs` (atomically: a reader sees the old file or the new). */
  write(path: string, runs: ReadonlyMap<string, Entry>): Promise<void>;
}

export function savedRunsFile<Schema extends z.ZodType>(
  entrySchema: Schema,
  name: string,
): SavedRunsFile<z.infer<Schema>> {
  const fileSchema = z.strictObject({ v: z.literal(1), runs: z.record(z.string().regex(RUN_ID), entrySchema) });
  return {
    name,
    async read(path) {
      const read = await readJsonFile(path, MAX_BYTES, fileSchema);
      if (read.ok) return new Map(Object.entries(read.value.runs) as [string, z.infer<Schema>][]);
      if (!read.missing) process.stderr.write(`baton: ignoring ${path} (${read.reason}); it will be written again\n`);
      return new Map();
    },
    async write(path, runs) {
      await writeFileAtomic(path, JSON.stringify({ v: 1, runs: Object.fromEntries(runs) }));
    },
  };
}
