// When the PtyHost rescans /proc for its terminals' process trees (§8). A pass reads every process's stat line, so
// an idle core must not pay for one every second forever: while passes find nothing new the wait doubles, up to
// `quietMaxMs`; any change in a tree, a spawn, an exit or output from a terminal brings it back to `tickMs`.
//
// Why output: a CLI that starts a job nearly always prints something, and a terminal that printed since the last
// pass is looked at on the next tick. A job that starts silently and leaves its session within the quiet wait is
// missed by the tracker, as it could be between two 1 s passes before; its agent mark still finds it at stop and at
// the start-up sweep (agent-mark.ts).
export const TRACKING_PACE = {
  /** The tick, and the wait after a pass that found a change. */
  tickMs: 1000,
  /** The longest wait between two passes while nothing changes and nothing is printed. */
  quietMaxMs: 8000,
  /** Spawns within this long share one pass (and one ledger write): a 25-agent run does not scan 25 times. */
  spawnSettleMs: 100,
  /** A new terminal's first pass waits while it starts or floods (pty-host.ts), at most this long after its spawn. */
  spawnMaxWaitMs: 2000,
} as const;

export class TrackingSchedule {
  private wait: number = TRACKING_PACE.tickMs;
  private lastPassAt = Number.NEGATIVE_INFINITY;

  /** Whether a pass is due at `now`, given when a tracked terminal last printed. */
  due(now: number, lastOutputAt: number): boolean {
    return lastOutputAt >= this.lastPassAt || now - this.lastPassAt >= this.wait;
  }

  /** A pass that started at `startedAt` ended; `changed`: it found a tree or the set of terminals changed. */
  passed(startedAt: number, changed: boolean): void {
    this.lastPassAt = startedAt;
    this.wait = changed ? TRACKING_PACE.tickMs : Math.min(this.wait * 2, TRACKING_PACE.quietMaxMs);
  }

  /** How long the schedule waits now while nothing changes (for tests and the bench). */
  get currentWaitMs(): number {
    return this.wait;
  }
}
