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
  /** The index once read (null: the store could not be read whole); undefined while it is being read. */
  value?: SessionIndex | null;
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

  /**
   * The store's index if it is read and not too old, without waiting: a pass over many stopped agents answers the
   * ones it can from it in one go, not each through its own chain of awaits (cost/cost-service.ts `stoppedTotals`).
   * Undefined: not read yet (or too old), being read, or the vendor gives none; `load` it first.
   */
  peek(adapter: VendorAdapter): SessionIndex | undefined {
    const known = this.read.get(adapter);
    if (!known || this.now() - known.at > INDEX_MAX_AGE_MS) return undefined;
    return known.value ?? undefined;
  }

  /** Reads the store's index if it is not read (or too old), and waits for it. */
  async load(adapter: VendorAdapter, env: VendorEnv): Promise<void> {
    await this.of(adapter, env);
  }

  private of(adapter: VendorAdapter, env: VendorEnv): Promise<SessionIndex | null> {
    if (!adapter.indexSessions) return Promise.resolve(null);
    const known = this.read.get(adapter);
    if (known && this.now() - known.at <= INDEX_MAX_AGE_MS) return known.index;
    // A store that cannot be read whole is asked per session, as before.
    const index = adapter.indexSessions(env).catch(() => null);
    const entry: ReadIndex = { at: this.now(), index };
    index.then(
      (value) => (entry.value = value),
      () => undefined, // never: a failed read is null above
    );
    this.read.set(adapter, entry);
    return index;
  }
}
