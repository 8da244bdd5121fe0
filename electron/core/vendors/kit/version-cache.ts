// The vendor CLIs' `--version` answers, kept on disk (<dataDir>/vendor-versions.json) per binary: the first page of
// every core asks `host.info`, which ran each installed CLI (up to seven, several of them Node programs) while the
// page and the core were starting (docs/performance.md "Cold start"). An answer counts only while the binary is the
// same file: its real path, inode, size and change times as `stat` gives them. Only a cache: a file that is missing or
// damaged is ignored and written again, and a CLI that did not answer is asked again next time.
import { realpath, stat } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../../store/atomic-file.js';
import { readJsonFile } from '../../store/safe-read.js';

export const VERSION_CACHE_FILE = 'vendor-versions.json';
const MAX_BYTES = 1024 * 1024;

const entrySchema = z.strictObject({ stamp: z.string().max(4200), version: z.string().max(80) });
const fileSchema = z.strictObject({ v: z.literal(1), bins: z.record(z.string().max(4200), entrySchema) });
type Entry = z.infer<typeof entrySchema>;

/** What identifies the file a binary's path leads to now; null when it cannot be read. */
async function stampOf(bin: string): Promise<string | null> {
  try {
    const [real, st] = await Promise.all([realpath(bin), stat(bin)]);
    return `${real}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null;
  }
}

export class VersionCache {
  private entries: Promise<Map<string, Entry>> | null = null;

  constructor(private readonly file: string) {}

  /** The version `ask` gives for `bin` run with `args`, from the cache while the binary has not changed. */
  async version(bin: string, args: readonly string[], ask: () => Promise<string | null>): Promise<string | null> {
    const key = [bin, ...args].join(' ');
    const [stamp, entries] = await Promise.all([stampOf(bin), this.load()]);
    const known = entries.get(key);
    if (stamp !== null && known?.stamp === stamp) return known.version;
    const version = await ask();
    if (stamp === null || version === null) return version;
    entries.set(key, { stamp, version });
    await writeFileAtomic(this.file, JSON.stringify({ v: 1, bins: Object.fromEntries(entries) })).catch(
      (err: unknown) => process.stderr.write(`baton: could not save ${this.file}: ${(err as Error).message}\n`),
    );
    return version;
  }

  private load(): Promise<Map<string, Entry>> {
    this.entries ??= readJsonFile(this.file, MAX_BYTES, fileSchema).then((read) =>
      read.ok ? new Map(Object.entries(read.value.bins)) : new Map<string, Entry>(),
    );
    return this.entries;
  }
}
