// The vendors' store indexes read for one pass over many sessions (a run.list's health checks, its cost sums;
// docs/performance.md "Core"): each vendor's store is read once (`VendorAdapter.indexSessions`) and every session of
// the pass is looked up in that, instead of each session searching the store on its own (for 10,000 runs, tens of
// thousands of directory listings, most failing). A pass makes its own: nothing is kept beyond it, and an index is
// read again once it is older than a health answer may be (60 s), so a session removed since shows at the next check.
import type { SessionIndex, VendorAdapter, VendorEnv } from './adapter.js';

/** How old a store index may be before the pass reads the store again. */
export const INDEX_MAX_AGE_MS = 60_000;

interface ReadIndex {
  at: number;
  index: Promise<SessionIndex | null>;
}

export class SessionIndexes {
  private readonly read = new Map<VendorAdapter, ReadIndex>();

  constructor(private readonly now: () => number = Date.now) {}

  /** What `adapter.exists` answers, from the store's index where the vendor gives one. */
  async exists(adapter: VendorAdapter, sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    const index = await this.of(adapter, env);
    return index ? index.has(sessionId, cwd) : adapter.exists(sessionId, cwd, env);
  }

  /** The store was read and holds no such session (without an index: false, the caller looks it up itself). */
  async missing(adapter: VendorAdapter, sessionId: string, cwd: string, env: VendorEnv): Promise<boolean> {
    const index = await this.of(adapter, env);
    return index !== null && !index.has(sessionId, cwd);
  }

  private of(adapter: VendorAdapter, env: VendorEnv): Promise<SessionIndex | null> {
    if (!adapter.indexSessions) return Promise.resolve(null);
    const known = this.read.get(adapter);
    if (known && this.now() - known.at <= INDEX_MAX_AGE_MS) return known.index;
    // A store that cannot be read whole is asked per session, as before.
    const index = adapter.indexSessions(env).catch(() => null);
    this.read.set(adapter, { at: this.now(), index });
    return index;
  }
}
