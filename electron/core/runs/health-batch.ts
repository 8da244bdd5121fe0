// What one batch of health checks shares (run-health.ts; docs/performance.md "Core"): most runs of a history sit in
// a few directories and their sessions in a few vendor stores, so a batch asks each directory once and reads each
// vendor's store once (vendors/session-indexes.ts), then checks every run's sessions against that.
import { stat } from 'node:fs/promises';
import type { VendorAdapter, VendorEnv } from '../vendors/adapter.js';
import { SessionIndexes } from '../vendors/session-indexes.js';

const isDirectory = (path: string) =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

export class HealthBatch {
  private readonly dirs = new Map<string, Promise<boolean>>();
  private readonly sessions: SessionIndexes;

  /** `now`: the clock the store indexes' age is measured by. */
  constructor(now: () => number = Date.now) {
    this.sessions = new SessionIndexes(now);
  }

  /** Whether a directory is at `path`, asked once per batch. */
  isDir(path: string): Promise<boolean> {
    let known = this.dirs.get(path);
    if (!known) this.dirs.set(path, (known = isDirectory(path)));
    return known;
  }

  /** What `adapter.exists` answers, from the store's index where the vendor gives one. */
  sessionExists(adapter: VendorAdapter, sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    return this.sessions.exists(adapter, sessionId, cwd, env);
  }
}
