// One agent's CLI in a PTY, as VS Code's terminalProcess.ts owns its pty: spawn (with the process identity and the
// agent mark), write, resize, pause and resume reading, the exit, and the stop that ends the CLI's whole tree (§8).
// It knows nothing of clients, the ring or the mirror: its output goes to the one `data` callback it was given.
import pty from 'node-pty';
import { DisposableStore, disposableInterval, disposableTimeout, toDisposable, type Disposable } from '../lifecycle.js';
import { MARK_VAR, newMarkValue, type AgentMark } from './agent-mark.js';
import { onChildEnded } from './child-exit.js';
import { isAlive, readProcess, scanProcesses, type ProcInfo, type ProcessMark } from './proc-stat.js';
import { signalProcess } from './process-signal.js';
import { ProcessRecord, terminateTree } from './process-tree.js';
import { holdSlave } from './slave-handle.js';
import { ptyInput, type PtyInput } from './pty-writer.js';

export interface SpawnOptions {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface ExitInfo {
  exitCode: number;
  signal: number | null;
}

/** The owner's two callbacks. `exit` runs before any `onExit` listener, so the owner settles first. */
export interface ProcessEvents {
  data(chunk: Buffer): void;
  exit(info: ExitInfo): void;
}

/** How often a paused PTY checks whether its child is gone (see `watchWhilePaused`). */
const PAUSED_POLL_MS = 50;
/** Once the leader is gone, the slave handle is let go after this long without output (see `leaderGone`). */
const DRAINED_AFTER_MS = 5;

export class PtyProcess implements Disposable {
  readonly pid: number;
  /** The leader by pid and start time; null if it was gone before it could be read (nothing to signal then). */
  readonly leader: ProcessMark | null;
  /** In the agent's environment, so its processes are found at stop even after they left its tree (§8). */
  readonly mark: AgentMark;
  private readonly pty: pty.IPty;
  private readonly processes: ProcessRecord;
  /** The slave handle, node-pty's listeners, the paused watch and stop's waits: all given back by `dispose`. */
  private readonly disposables = new DisposableStore();
  private readonly exitListeners = new Set<(e: ExitInfo) => void>();
  private size: { cols: number; rows: number };
  /** Our handle on the slave side, from spawn until the exit (slave-handle.ts). */
  private readonly slave: Disposable;
  private exitInfo: ExitInfo | null = null;
  private isPaused = false;
  private pausedWatch: Disposable | null = null;
  /** The child is gone: read everything left and never pause again. */
  private childGone = false;
  /** Armed once the leader is gone, and again by each read after it: when it fires, the output has all been read. */
  private drainTimer: NodeJS.Timeout | null = null;
  /** The drain's last look, one turn of the loop after its timer (`armDrain`). */
  private drainCheck: NodeJS.Immediate | null = null;
  /** Reads of output so far: the drain's last look tells from it whether one came meanwhile. */
  private reads = 0;
  private stopping: Promise<void> | null = null;
  /** Typed input, written to the PTY in the task that received it (pty-writer.ts). */
  private readonly input: PtyInput;

  constructor(terminalId: string, options: SpawnOptions, events: ProcessEvents) {
    const [file, ...args] = options.argv;
    if (!file) throw new Error('cannot start a terminal without a program');
    this.size = { cols: options.cols, rows: options.rows };
    const markValue = newMarkValue(terminalId);
    this.pty = pty.spawn(file, args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      // Set here, last, so neither the caller's environment nor a vendor's plan can drop or forge it.
      env: { ...options.env, [MARK_VAR]: markValue },
      // Raw bytes: offsets count bytes, and a UTF-8 sequence split by a read is joined by the mirror and panes.
      encoding: null,
    });
    this.pid = this.pty.pid;
    this.input = this.disposables.add(ptyInput(this.pty));
    // Read at once: the start time is fixed at fork, and the pid cannot be reused before node-pty reaps it.
    const info = readProcess(this.pid);
    this.leader = info ? { pid: info.pid, startTime: info.startTime } : null;
    // Without a leader, anything carrying the random mark is still ours; Baton's own start time bounds it.
    this.mark = { value: markValue, since: info?.startTime ?? readProcess(process.pid)?.startTime ?? '0' };
    this.processes = new ProcessRecord(this.leader);
    this.slave = this.disposables.add(holdSlave(this.pty));
    this.disposables.add(
      this.pty.onData((data: string | Buffer) => {
        this.reads++;
        if (this.drainTimer) this.drainTimer.refresh();
        events.data(typeof data === 'string' ? Buffer.from(data) : data);
      }),
    );
    // node-pty reports the exit once the PTY hangs up, which our slave handle delays until we let go of it.
    if (this.leader) this.disposables.add(onChildEnded(() => this.checkLeader()));
    this.disposables.add(
      toDisposable(() => {
        if (this.drainTimer) clearTimeout(this.drainTimer);
        if (this.drainCheck) clearImmediate(this.drainCheck);
      }),
    );
    this.disposables.add(
      this.pty.onExit(({ exitCode, signal }) => {
        const exit = { exitCode, signal: signal ? signal : null };
        this.handleExit(exit);
        events.exit(exit);
        for (const listener of this.exitListeners) listener(exit);
        this.exitListeners.clear();
      }),
    );
  }

  get exited(): ExitInfo | null {
    return this.exitInfo;
  }

  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  /** Reading is paused for flow control (its readers are behind); false again once the child is gone. */
  get paused(): boolean {
    return this.isPaused && !this.exitInfo;
  }

  /** Records the tree as the scan `all` shows it; returns whether the leader still runs. */
  observe(all: readonly ProcInfo[]): boolean {
    return this.processes.observe(all);
  }

  /** `observe`, also telling whether what is recorded changed. */
  observeChange(all: readonly ProcInfo[]): { leaderRuns: boolean; changed: boolean } {
    return this.processes.observeChange(all);
  }

  /** Processes seen in the tree that were still running when last looked at. */
  recordedProcesses(): ProcessMark[] {
    return this.processes.list();
  }

  write(data: string): void {
    if (this.exitInfo) return;
    this.input.write(data);
  }

  /** Returns whether the size changed (the owner resizes its mirror only then). */
  resize(cols: number, rows: number): boolean {
    if (this.exitInfo || (cols === this.size.cols && rows === this.size.rows)) return false;
    this.size = { cols, rows };
    this.pty.resize(cols, rows);
    return true;
  }

  onExit(listener: (e: ExitInfo) => void): () => void {
    if (this.exitInfo) {
      const info = this.exitInfo;
      queueMicrotask(() => listener(info));
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Stop reading: the child blocks on its next write once the kernel's buffer fills (flow control, §6). */
  pause(): void {
    if (this.isPaused || this.childGone || this.exitInfo) return;
    this.isPaused = true;
    this.pty.pause();
    this.watchWhilePaused();
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.endWatch();
    this.pty.resume();
  }

  /**
   * Hang up the leader (SIGHUP, as closing a terminal would), give it ≈250 ms, SIGTERM its whole tree and every
   * process carrying its mark, SIGKILL what is left after the grace. Only processes recorded by pid and start
   * time, found under such, or found by the mark with their start time, are signalled.
   */
  stop(graceMs = 5000): Promise<void> {
    this.stopping ??= this.runStop(graceMs);
    return this.stopping;
  }

  /**
   * Gives back node-pty's listeners, the paused watch and our slave handle. A child still running is hung up as
   * closing its window would; this is not `stop` (callers that want the whole tree ended stop it first).
   */
  dispose(): void {
    if (this.disposables.isDisposed) return;
    this.disposables.dispose();
    this.exitListeners.clear();
    if (!this.exitInfo && this.leader) {
      // Reading again lets node-pty see the hang-up and close its side; nothing listens to what comes now.
      if (this.isPaused) this.resumeQuietly();
      signalProcess(this.leader, 'SIGHUP');
    }
  }

  private async runStop(graceMs: number): Promise<void> {
    const leader = this.leader;
    if (!this.exitInfo && leader) {
      // Record the whole tree while the live leader still vouches for its session: after the hangup it exits,
      // and members of its session are only known by the pid it no longer holds.
      this.processes.observe(await scanProcesses());
      // Its last output must be read, or the leader may block writing it instead of exiting.
      this.resumeQuietly();
      signalProcess(leader, 'SIGHUP');
      await this.exitWithin(250);
    }
    await terminateTree(leader, this.processes.list(), graceMs, [this.mark]);
    this.processes.keep(isAlive);
    if (!this.exitInfo) await this.exitWithin(2000);
  }

  /** Resolves at the exit, after `ms`, or when disposed, whichever comes first; its timer and listener go with it. */
  private exitWithin(ms: number): Promise<void> {
    if (this.exitInfo || this.disposables.isDisposed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => waiting.dispose();
      const timer = disposableTimeout(ms, done);
      const waiting: Disposable = this.disposables.add(
        toDisposable(() => {
          timer.dispose();
          this.exitListeners.delete(done);
          this.disposables.delete(waiting);
          resolve();
        }),
      );
      this.exitListeners.add(done);
    });
  }

  private resumeQuietly(): void {
    try {
      this.resume();
    } catch {
      // Already gone.
    }
  }

  private handleExit(info: ExitInfo): void {
    this.exitInfo = info;
    this.endWatch();
    this.slave.dispose();
  }

  /** A child of the process ended: if it was the leader, read what it left and let the PTY hang up. */
  private checkLeader(): void {
    if (this.exitInfo || this.childGone || !this.leader || isAlive(this.leader)) return;
    this.leaderGone();
  }

  /**
   * The leader is gone: read everything it left (never pausing again), then close our slave handle so the PTY hangs up
   * and node-pty reports the exit right after the last byte. Until then node-pty's own fallback, 200 ms after the exit,
   * ended every terminal: later by that much, and dropping whatever was still unread. (A process of the agent that
   * still holds the terminal keeps it open, and node-pty's fallback applies, as before.)
   */
  private leaderGone(): void {
    if (this.childGone) return;
    this.childGone = true;
    this.resume();
    this.armDrain();
  }

  /**
   * After `DRAINED_AFTER_MS` without a read, one more turn of the event loop: a loop that ran late (a busy core, a
   * host short of CPUs) fires this timer before its poll phase has read what was already waiting in the PTY. A read in
   * that turn arms the wait again; none, and the output has all been read.
   */
  private armDrain(): void {
    this.drainTimer = setTimeout(() => {
      this.drainTimer = null;
      const seen = this.reads;
      this.drainCheck = setImmediate(() => {
        this.drainCheck = null;
        if (this.reads !== seen) this.armDrain();
        else this.slave.dispose();
      });
    }, DRAINED_AFTER_MS);
  }

  /**
   * node-pty drops what is still unread 200 ms after the child exits; a paused PTY would lose its last output.
   * So while paused, check the child: once it is gone, read everything that is left and never pause again.
   */
  private watchWhilePaused(): void {
    this.pausedWatch ??= this.disposables.add(
      disposableInterval(PAUSED_POLL_MS, () => {
        if (this.leader && isAlive(this.leader)) return;
        this.leaderGone();
      }),
    );
  }

  private endWatch(): void {
    if (this.pausedWatch) this.disposables.release(this.pausedWatch);
    this.pausedWatch = null;
  }
}
