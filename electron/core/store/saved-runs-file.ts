// A cache kept per run in the data directory: what a core learned about its stopped runs (their health, their cost
// sums) so the next core's first `run.list` answers at once. Sealed (sealed-text.ts): `{"v":2,"sha256":…}` and then
// `{<runId>: entry}`, read back without a parse of each entry when its checksum matches (two such files of 10,000
// entries took 150–350 ms of a cold start before the core served). A file of the first format (`{v: 1, runs}`, no
// checksum) is still read, validated entry by entry. Only a cache: a file that is missing, damaged or of another
// format is ignored (a damaged one reported once, when it is read) and written again whole by the next save.
import { z } from 'zod';
import { RUN_ID } from '../../../shared/words.js';
import { writeFileAtomic } from './atomic-file.js';
import { readBounded, type TextRead } from './safe-read.js';
import { seal, unseal } from './sealed-text.js';
import { describeIssue } from '../../../shared/contract.js';

/** 10,000 runs take about 1 MB; far above that is not a file Baton wrote. */
const MAX_BYTES = 32 * 1024 * 1024;
/** The sealed format; test/unit/sealed-formats.test.ts holds it to the entries' schemas. */
export const SAVED_RUNS_FORMAT = 2;

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
  const firstFormat = z.strictObject({ v: z.literal(1), runs: z.record(z.string().regex(RUN_ID), entrySchema) });
  type Entry = z.infer<Schema>;
  /** The entries, or why the file cannot be used. */
  const parse = (read: TextRead & { ok: true }): Map<string, Entry> | string => {
    const unsealed = unseal(read.text, SAVED_RUNS_FORMAT);
    let raw: unknown;
    try {
      raw = JSON.parse(unsealed.ok ? unsealed.body : read.text);
    } catch {
      return unsealed.ok || unsealed.otherFormat ? 'it is not valid JSON' : unsealed.reason;
    }
    if (unsealed.ok) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'it is not a map of runs';
      return new Map(Object.entries(raw) as [string, Entry][]);
    }
    if (!unsealed.otherFormat) return unsealed.reason;
    const parsed = firstFormat.safeParse(raw);
    if (!parsed.success) return `does not validate: ${describeIssue(parsed.error).message}`;
    return new Map(Object.entries(parsed.data.runs) as [string, Entry][]);
  };
  return {
    name,
    async read(path) {
      const read = await readBounded(path, MAX_BYTES);
      const entries = read.ok ? parse(read) : read.missing ? new Map<string, Entry>() : read.reason;
      if (typeof entries !== 'string') return entries;
      process.stderr.write(`baton: ignoring ${path} (${entries}); it will be written again\n`);
      return new Map();
    },
    async write(path, runs) {
      await writeFileAtomic(path, seal(SAVED_RUNS_FORMAT, JSON.stringify(Object.fromEntries(runs))));
    },
  };
}
