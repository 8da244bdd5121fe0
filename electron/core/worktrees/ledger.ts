// worktrees.json in the data directory: every worktree Baton created, so that clean-up only ever touches those.
// An entry is written before `git worktree add` runs and removed after the worktree is gone, so a crash in between
// leaves an entry without a directory (harmless, cleaned up later), never a worktree nobody remembers.
// A file not in the shape Baton writes is ignored with a message and kept aside (worktrees.json.unreadable) at the
// next write, so the record of what Baton owns is not silently overwritten.
import { mkdir, rename } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic-file.js';
import { readJsonFile } from '../store/safe-read.js';

export const LEDGER_FILE = 'worktrees.json';
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_ENTRIES = 5000;

const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => isAbsolute(p) && normalize(p) === p && !p.includes('\0'), {
    error: 'must be an absolute, normalised path',
  });
export const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const time = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), { error: 'must be a date' });

const entrySchema = z.strictObject({
  /** The worktree's real path (under the base directory). */
  path: absolutePath,
  /** The repository's common git directory (real path): which repository it belongs to. */
  commonDir: absolutePath,
  /** The checkout it was created from (its `.worktreeinclude` and setup command). */
  repoRoot: absolutePath,
  branch: z.string().min(1).max(255),
  /** Baton created the branch too (false: the user's existing branch, which Baton never deletes). */
  branchCreated: z.boolean(),
  baseCommit: z.string().regex(COMMIT),
  run: z.string().max(200),
  label: z.string().max(200),
  createdAt: time,
});
export type LedgerEntry = z.infer<typeof entrySchema>;

const ledgerSchema = z.strictObject({ v: z.literal(1), worktrees: z.array(entrySchema).max(MAX_ENTRIES) });

export class Ledger {
  private readonly path: string;
  private chain: Promise<unknown> = Promise.resolve();
  private unreadable = false;

  constructor(private readonly dataDir: string) {
    this.path = join(dataDir, LEDGER_FILE);
  }

  async list(): Promise<LedgerEntry[]> {
    await this.chain.catch(() => undefined);
    return this.read();
  }

  /** Applies `change` to the entries under one lock, writing the result atomically (mode 0600). */
  update<T>(change: (entries: LedgerEntry[]) => T): Promise<T> {
    const next = this.chain
      .catch(() => undefined)
      .then(async () => {
        const entries = await this.read();
        const result = change(entries);
        await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
        if (this.unreadable) {
          await rename(this.path, `${this.path}.unreadable`).catch(() => undefined);
          this.unreadable = false;
        }
        await writeFileAtomic(this.path, `${JSON.stringify({ v: 1, worktrees: entries }, null, 2)}\n`, 0o600);
        return result;
      });
    this.chain = next;
    return next;
  }

  private async read(): Promise<LedgerEntry[]> {
    const read = await readJsonFile(this.path, MAX_BYTES, ledgerSchema);
    if (read.ok) return read.value.worktrees;
    if (!read.missing) {
      this.unreadable = true;
      process.stderr.write(
        `baton: ignoring ${this.path}: it ${read.reason}; it will be kept as ${LEDGER_FILE}.unreadable\n`,
      );
    }
    return [];
  }
}
