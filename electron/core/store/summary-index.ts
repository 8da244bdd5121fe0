// Keeping the summary index (manifest-index.ts) of one store: which of its entries are still true of the disk, and
// writing it again a few seconds after an open that found it out of date (a run read from its manifest, a run gone),
// and at the store's close when a run changed since. Nothing is written while the core runs: a core that ends without
// its close (killed) leaves the index as it was, and the next open reads the manifests that changed meanwhile, as it
// would without an index.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from './atomic-file.js';
import { identityOf, readIndex, settled, writeIndex, type IndexEntry } from './manifest-index.js';
import { MANIFEST, readManifest } from './manifest.js';
import { errnoCode } from './safe-read.js';
import type { RunManifest } from './types.js';

export class SummaryIndex {
  /** What is known true of each run's run.json: the manifest it held and its identity then. */
  private entries = new Map<string, IndexEntry>();
  /** A write asked for by `saveLater`, not yet begun: its timer, and what starts it at once. */
  private due: { timer: NodeJS.Timeout; now: () => void } | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly runsDir: string,
  ) {}

  /** The index on disk (empty when there is none or it cannot be used; `ignored` is told why). */
  read(ignored: (reason: string) => void): Map<string, IndexEntry> {
    return readIndex(this.path, ignored);
  }

  /** The entries the open found true (run-dirs.ts `loadRuns`). */
  took(entries: Map<string, IndexEntry>): void {
    this.entries = entries;
  }

  /** Writes the index `afterMs` from now (or at `flush`), of the runs `runs()` gives then (the store's, by id). */
  saveLater(runs: () => ReadonlyMap<string, RunManifest>, afterMs: number): void {
    const begin = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, afterMs);
      timer.unref();
      this.due = { timer, now: resolve };
    });
    this.saving = begin.then(() => {
      this.due = null;
      return this.saveNow(runs());
    });
  }

  /** Resolves once the write asked for by `saveLater` is done (tests); never if the store closed before it began. */
  saved(): Promise<void> {
    return this.saving;
  }

  /**
   * At the store's close: the index written now if a write was due, or if a run changed, came or went since it was
   * last written (the next open then reads only what changes from here on).
   */
  async flush(runs: ReadonlyMap<string, RunManifest>): Promise<void> {
    if (this.due) {
      clearTimeout(this.due.timer);
      this.due.now();
    }
    await this.saving;
    if (runs.size === this.entries.size && [...runs].every(([id, m]) => this.entries.get(id)?.manifest === m)) return;
    this.saving = this.saveNow(runs);
    await this.saving;
  }

  close(): void {
    if (this.due) clearTimeout(this.due.timer);
    this.due = null;
  }

  /** `save`, its failure reported (the index is only a cache: the next open reads the manifests). */
  private saveNow(runs: ReadonlyMap<string, RunManifest>): Promise<void> {
    return this.save(runs).catch((err: unknown) => {
      // The data directory removed meanwhile (a test's, say): there is no store left to index.
      if (!isErrno(err, 'ENOENT')) process.stderr.write(`baton: could not write ${this.path}: ${errnoCode(err)}\n`);
    });
  }

  /**
   * The index of `runs`: an entry known true of a run whose manifest the store has not replaced since is kept as it
   * is; any other run's run.json is read again (the disk's, which may be behind the store's: a write the disk
   * refused), and left out while it changed too recently to be sure of (manifest-index.ts `settled`).
   */
  private async save(runs: ReadonlyMap<string, RunManifest>): Promise<void> {
    const next = new Map<string, IndexEntry>();
    for (const [id, manifest] of runs) {
      const known = this.entries.get(id);
      const entry = known?.manifest === manifest ? known : await this.capture(id);
      if (entry) next.set(id, entry);
    }
    this.entries = next;
    await writeIndex(this.path, next);
  }

  private async capture(id: string): Promise<IndexEntry | null> {
    const file = join(this.runsDir, id, MANIFEST);
    const readAt = Date.now();
    const info = await lstat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const identity = identityOf(info);
    const read = await readManifest(file, id);
    return read.ok && settled(identity, readAt) ? { identity, manifest: read.value } : null;
  }
}
