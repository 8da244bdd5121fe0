// What one batch of health checks shares (run-health.ts; docs/performance.md "Core"): most runs of a history sit in
// a few directories and their sessions in a few vendor stores, so a batch asks each directory once and reads each
// vendor's store once (`VendorAdapter.indexSessions`), then checks every run's sessions against that. Nothing is
// kept beyond the batch (each list's checks make their own), and an index is read again once it is older than the
// health answers may be (RECHECK_MS): a session removed since is missing at the next check.
import { stat } from 'node:fs/promises';
import type { SessionIndex, VendorAdapter, VendorEnv } from '../vendors/adapter.js';

/** How old a store index may be before the batch reads the store again: the age a health answer may have. */
export const INDEX_MAX_AGE_MS = 60_000;

const isDirectory = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

interface ReadIndex {
  at: number;
  index: Promise<SessionIndex | null>;
}

export class HealthBatch {
  private readonly dirs = new Map<string, Promise<boolean>>();
  private readonly indexes = new Map<VendorAdapter, ReadIndex>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether a directory is at `path`, asked once per batch. */
  isDir(path: string): Promise<boolean> {
    let known = this.dirs.get(path);
    if (!known) this.dirs.set(path, (known = isDirectory(path)));
    return known;
  }

  /** What `adapter.exists` answers, from the store's index where the vendor gives one. */
  async sessionExists(adapter: VendorAdapter, sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    const index = adapter.indexSessions ? await this.indexOf(adapter, env) : null;
    return index ? index.has(sessionId, cwd) : adapter.exists(sessionId, cwd, env);
  }

  private indexOf(adapter: VendorAdapter, env: VendorEnv): Promise<SessionIndex | null> {
    const read = this.indexes.get(adapter);
    if (read && this.now() - read.at <= INDEX_MAX_AGE_MS) return read.index;
    // A store that cannot be read whole is asked per session, as before.
    const index = adapter.indexSessions!(env).catch(() => null);
    this.indexes.set(adapter, { at: this.now(), index });
    return index;
  }
}
