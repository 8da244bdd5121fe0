// Owns every terminal of the core: spawns them, records their process trees, stops them all.
import { DisposableStore, disposableInterval, disposableTimeout, type Disposable } from '../lifecycle.js';
import type { AgentMark } from './agent-mark.js';
import { isAlive, scanProcesses, type ProcessMark } from './proc-stat.js';
import { ProcessLedger, type LedgerEntry } from './process-ledger.js';
import { terminateTree } from './process-tree.js';
import { Terminal, type SpawnOptions } from './terminal.js';
import { TRACKING_PACE, TrackingSchedule } from './tracking-schedule.js';
import { reportFailure } from '../log.js';

const TRACKING = "tracking the terminals' processes";
/** Marks of released terminals kept for the stop at quit; the oldest go first (the ledger holds ≤ 1024 entries). */
const MAX_RETIRED_MARKS = 256;

export class PtyHost implements Disposable {
  private readonly terminals = new Map<string, Terminal>();
  /** Terminals whose leader still runs: only these are rescanned. */
  private readonly tracked = new Set<Terminal>();
  /** Processes of released terminals that outlived them: still Baton's to stop at quit. */
  private retired: ProcessMark[] = [];
  /** Marks of released terminals: a job that left the tree unseen is found by its mark at quit (§8). */
  private retiredMarks: AgentMark[] = [];
  private readonly ledger: ProcessLedger | null;
  /** The tracking timer; `close` releases it with every terminal. */
  private readonly disposables = new DisposableStore();
  private closed = false;
  /** The pass waiting to start (callers share it), and the latest one queued: passes never overlap. */
  private pending: Promise<void> | null = null;
  private latest: Promise<void> = Promise.resolve();
  /** When passes run while nothing happens: backing off to `TRACKING_PACE.quietMaxMs` (tracking-schedule.ts). */
  private readonly schedule = new TrackingSchedule();
  /** Bumped by every spawn, exit and release: a pass that sees it move has a changed ledger to write. */
  private generation = 0;
  private passedGeneration = -1;
  /**
   * The one pass a burst of spawns shares, `TRACKING_PACE.spawnSettleMs` after the first of them, or later while one of
   * them still starts or floods (`newcomersBusy`); the 1 s tick leaves a new terminal's pass to it.
   */
  private settling: Disposable | null = null;
  private settlingSince = 0;
  /** Terminals spawned since the last settle pass. */
  private newcomers: Terminal[] = [];
  /** The ledger write in flight, and whether another is wanted after it (`saveLedger`). */
  private ledgerWriting: Promise<void> | null = null;
  private ledgerDirty = false;

  /** `ledgerPath`: where the processes this host started are recorded for the start-up sweep. */
  constructor(ledgerPath: string | null = null) {
    this.ledger = ledgerPath ? new ProcessLedger(ledgerPath) : null;
    // Unref'd: tracking alone must not keep a core (or a test) alive.
    this.disposables.add(disposableInterval(TRACKING_PACE.tickMs, () => this.tick(), { unref: true }));
  }

  /** Stops processes a previous host recorded that outlived it. */
  sweep(): Promise<number> {
    return this.ledger?.sweep() ?? Promise.resolve(0);
  }

  spawn(options: SpawnOptions): Terminal {
    // A closed host would never release it: its ring, mirror and process would be nobody's.
    if (this.closed) throw new Error('the terminal host is closed');
    const terminal = new Terminal(options);
    this.terminals.set(terminal.id, terminal);
    if (terminal.leader) this.tracked.add(terminal);
    this.generation++;
    // In the ledger at once, with its leader and mark: a core killed a moment later still has it swept.
    this.saveLedger().catch(() => undefined);
    // Its leader is already known by pid and start time (PtyProcess); the pass adds what it starts.
    this.newcomers.push(terminal);
    if (!this.settling) {
      this.settlingSince = Date.now();
      this.settleAfter(TRACKING_PACE.spawnSettleMs);
    }
    // One last look once the leader is gone records what it left behind, and ends the rescans.
    terminal.onExit(() => {
      this.generation++;
      this.trackSoon();
    });
    return terminal;
  }

  get(terminalId: string): Terminal | undefined {
    return this.terminals.get(terminalId);
  }

  /** Whether the terminal's process tree is still rescanned (only while its leader runs). */
  isTracked(terminalId: string): boolean {
    const terminal = this.terminals.get(terminalId);
    return terminal !== undefined && this.tracked.has(terminal);
  }

  /** How long the tracker now waits between passes while nothing changes (tracking-schedule.ts). */
  get trackingWaitMs(): number {
    return this.schedule.currentWaitMs;
  }

  /** Forget an ended terminal (its ring and mirror are released); processes it left running are still stopped at quit. */
  release(terminalId: string): void {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) return;
    this.terminals.delete(terminalId);
    this.tracked.delete(terminal);
    this.newcomers = this.newcomers.filter((t) => t !== terminal);
    this.retired = [...this.retired, ...terminal.recordedProcesses()].filter(isAlive);
    this.retiredMarks = [...this.retiredMarks, terminal.mark].slice(-MAX_RETIRED_MARKS);
    terminal.dispose();
    this.generation++;
    this.trackSoon();
  }

  async stopAll(): Promise<void> {
    const retired = this.retired;
    const retiredMarks = this.retiredMarks;
    this.retired = [];
    this.retiredMarks = [];
    await Promise.all([
      ...[...this.terminals.values()].map((t) => t.stop()),
      terminateTree(null, retired, 5000, retiredMarks),
    ]);
    await this.track().catch((err: unknown) => reportFailure(TRACKING, err));
  }

  /**
   * Stops tracking and releases every terminal (ring, mirror, subscriptions, listeners, timers). A terminal still
   * running is hung up, not stopped: call `stopAll` first to end the trees. Processes recorded as left running stay
   * in the ledger for the next start's sweep.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const terminals = [...this.terminals.values()];
    this.terminals.clear();
    this.tracked.clear();
    for (const terminal of terminals) terminal.dispose();
    this.disposables.dispose();
  }

  dispose(): void {
    this.close();
  }

  /** Runs a tracking pass after the one in progress; calls made while one is waiting share it. */
  private track(): Promise<void> {
    if (this.pending) return this.pending;
    const pass = this.latest.then(async () => {
      this.pending = null;
      await this.trackOnce();
    });
    this.pending = pass;
    // Whoever asked for a pass reports its failure; the next pass starts afresh regardless.
    this.latest = pass.catch(() => undefined);
    return pass;
  }

  private settleAfter(ms: number): void {
    this.settling = this.disposables.add(
      disposableTimeout(ms, () => {
        if (this.settling) this.disposables.delete(this.settling);
        const now = Date.now();
        if (this.newcomersBusy(now) && now - this.settlingSince < TRACKING_PACE.spawnMaxWaitMs) {
          this.settleAfter(TRACKING_PACE.spawnSettleMs);
          return;
        }
        this.settling = null;
        this.newcomers = [];
        this.trackSoon();
      }),
    );
  }

  /**
   * A terminal spawned since the last pass has printed nothing yet (its program starts) or printed within the last
   * `spawnSettleMs` (a flood). A pass then read /proc beside a starting program or a burst on two cores: a new
   * terminal's first byte came 20–80 ms later than raw node-pty's, and a 16 MiB burst slower (docs/performance.md,
   * "where PtyHost's extra CPU per MiB goes").
   */
  private newcomersBusy(now: number): boolean {
    return this.newcomers.some(
      (t) => !t.exited && (t.lastOutputAt === 0 || now - t.lastOutputAt < TRACKING_PACE.spawnSettleMs),
    );
  }

  /** The 1 s tick: a pass when one is due (tracking-schedule.ts), nothing otherwise. */
  private tick(): void {
    if (this.settling) return;
    if (this.tracked.size === 0 && this.generation === this.passedGeneration) return;
    let lastOutputAt = 0;
    for (const terminal of this.tracked) lastOutputAt = Math.max(lastOutputAt, terminal.lastOutputAt);
    if (this.generation !== this.passedGeneration || this.schedule.due(Date.now(), lastOutputAt)) this.trackSoon();
  }

  private trackSoon(): void {
    this.track().catch((err: unknown) => reportFailure(TRACKING, err));
  }

  /** Record every process in each live terminal's tree, so one that later leaves the session is still stopped. */
  private async trackOnce(): Promise<void> {
    if (this.closed) return;
    const startedAt = Date.now();
    const generation = this.generation;
    let changed = generation !== this.passedGeneration;
    if (this.tracked.size > 0) {
      // Only terminals that existed before the scan: a newer one's leader may be missing from it.
      const scanned = [...this.tracked];
      const all = await scanProcesses();
      for (const terminal of scanned) {
        const seen = terminal.observeChange(all);
        if (seen.changed) changed = true;
        if (!seen.leaderRuns || terminal.exited) this.tracked.delete(terminal);
      }
    }
    this.schedule.passed(startedAt, changed);
    this.passedGeneration = generation;
    if (this.closed) return;
    await this.saveLedger();
  }

  /**
   * Writes the ledger as things are now. Writes never overlap: one asked for while another is in flight is done
   * right after it, once, with what is current then (so a burst of spawns costs a write or two, and none is dropped).
   */
  private saveLedger(): Promise<void> {
    this.ledgerDirty = true;
    this.ledgerWriting ??= this.writeLedger();
    return this.ledgerWriting;
  }

  private async writeLedger(): Promise<void> {
    while (this.ledgerDirty && !this.closed) {
      this.ledgerDirty = false;
      try {
        await this.ledger?.write(this.ledgerEntries());
      } catch {
        // The ledger is a safety net; a full disk must not stop the agents.
      }
    }
    // In the same turn as the last check: a request made after it starts a new loop.
    this.ledgerWriting = null;
  }

  private ledgerEntries(): LedgerEntry[] {
    const entries: LedgerEntry[] = [];
    // Every terminal, even one with nothing recorded: its mark alone may find what it left behind.
    for (const terminal of this.terminals.values()) {
      entries.push({ leader: terminal.leader, processes: terminal.recordedProcesses(), mark: terminal.mark });
    }
    if (this.retired.length > 0) entries.push({ leader: null, processes: this.retired, mark: null });
    for (const mark of this.retiredMarks) entries.push({ leader: null, processes: [], mark });
    return entries;
  }
}
