// Owns every terminal of the core: spawns them, records their process trees, stops them all.
import { sessionTree, readProcesses } from './process-tree.js';
import { ProcessLedger } from './process-ledger.js';
import { Terminal, type SpawnOptions } from './terminal.js';

const TRACK_EVERY_MS = 1000;

export class PtyHost {
  private readonly terminals = new Map<string, Terminal>();
  private readonly ledger: ProcessLedger | null;
  private readonly tracker: NodeJS.Timeout;

  /** `ledgerPath`: where the processes this host started are recorded for the start-up sweep. */
  constructor(ledgerPath: string | null = null) {
    this.ledger = ledgerPath ? new ProcessLedger(ledgerPath) : null;
    this.tracker = setInterval(() => this.track(), TRACK_EVERY_MS);
    this.tracker.unref();
  }

  /** Stops processes a previous host recorded that outlived it. */
  sweep(): Promise<number> {
    return this.ledger?.sweep() ?? Promise.resolve(0);
  }

  spawn(options: SpawnOptions): Terminal {
    const terminal = new Terminal(options);
    this.terminals.set(terminal.id, terminal);
    terminal.record([{ pid: terminal.pid, startTime: readProcesses().find((p) => p.pid === terminal.pid)?.startTime ?? '' }].filter((m) => m.startTime));
    this.track();
    terminal.onExit(() => this.track());
    return terminal;
  }

  get(terminalId: string): Terminal | undefined {
    return this.terminals.get(terminalId);
  }

  /** Forget an ended terminal (its ring and mirror are released). */
  release(terminalId: string): void {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) return;
    this.terminals.delete(terminalId);
    terminal.dispose();
    this.track();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.terminals.values()].map((t) => t.stop()));
    this.track();
  }

  close(): void {
    clearInterval(this.tracker);
  }

  /** Record every process in each terminal's tree, so one that later leaves the session is still stopped. */
  private track(): void {
    const all = readProcesses();
    const entries: { leader: number; processes: { pid: number; startTime: string }[] }[] = [];
    for (const terminal of this.terminals.values()) {
      const live = sessionTree(terminal.pid, all).map((p) => ({ pid: p.pid, startTime: p.startTime }));
      terminal.record(live);
      const alive = terminal.recordedProcesses().filter((m) => all.some((p) => p.pid === m.pid && p.startTime === m.startTime && !p.zombie));
      if (alive.length > 0) entries.push({ leader: terminal.pid, processes: alive });
    }
    try {
      this.ledger?.write(entries);
    } catch {
      // The ledger is a safety net; a full disk must not stop the agents.
    }
  }
}
