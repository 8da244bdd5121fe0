// One live PTY: the process, its ring of output, its mirror, its subscribers and flow control.
import { reportFailure } from '../log.js';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync } from 'node:fs';
import pty from 'node-pty';
import { MARK_VAR, newMarkValue, type AgentMark } from './agent-mark.js';
import { FLOW } from './flow.js';
import { Mirror, type MirrorScreen } from './mirror.js';
import { isAlive, readProcess, scanProcesses, type ProcInfo, type ProcessMark } from './proc-stat.js';
import { signalProcess } from './process-signal.js';
import { ProcessRecord, terminateTree } from './process-tree.js';
import { RingBuffer } from './ring-buffer.js';
import { Subscriber, type StreamFrame } from './subscriber.js';
import { utf8SafeEnd } from './utf8.js';

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

export type AttachStart =
  | { mode: 'bytes'; offset: number; data: Buffer }
  | { mode: 'reset'; offset: number; cols: number; rows: number; screen: string };

export interface Subscription {
  ack(offset: number): void;
  setVisible(visible: boolean): void;
  close(): void;
}

export const newTerminalId = () => `trm_${randomBytes(10).toString('hex').slice(0, 16)}`;

export class Terminal {
  readonly id = newTerminalId();
  readonly pid: number;
  /** The leader by pid and start time; null if it was gone before it could be read (nothing to signal then). */
  readonly leader: ProcessMark | null;
  /** In the agent's environment, so its processes are found at stop even after they left its tree (§8). */
  readonly mark: AgentMark;
  private readonly pty: pty.IPty;
  private readonly ring = new RingBuffer(FLOW.ringBytes);
  private readonly mirror: Mirror;
  private readonly subscribers = new Set<Subscriber>();
  private readonly exitListeners = new Set<(e: ExitInfo) => void>();
  private readonly processes: ProcessRecord;
  private pumpTimer: NodeJS.Timeout | null = null;
  private slaveFd: number | null;
  private childGone = false;
  private lastPumpAt = 0;
  private pausedWatch: NodeJS.Timeout | null = null;
  private paused = false;
  private exitInfo: ExitInfo | null = null;
  private stopping: Promise<void> | null = null;
  private size: { cols: number; rows: number };
  /** When output last arrived (ms since epoch); drives periodic snapshots. */
  lastOutputAt = 0;

  constructor(options: SpawnOptions) {
    const [file, ...args] = options.argv;
    if (!file) throw new Error('cannot start a terminal without a program');
    this.size = { cols: options.cols, rows: options.rows };
    this.mirror = new Mirror(options.cols, options.rows, FLOW.mirrorScrollback);
    this.mirror.onApplied(() => this.updateFlow());
    const markValue = newMarkValue(this.id);
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
    // Read at once: the start time is fixed at fork, and the pid cannot be reused before node-pty reaps it.
    const info = readProcess(this.pid);
    this.leader = info ? { pid: info.pid, startTime: info.startTime } : null;
    // Without a leader, anything carrying the random mark is still ours; Baton's own start time bounds it.
    this.mark = { value: markValue, since: info?.startTime ?? readProcess(process.pid)?.startTime ?? '0' };
    this.processes = new ProcessRecord(this.leader);
    this.slaveFd = holdSlave(this.pty);
    this.pty.onData((data: string | Buffer) => this.handleOutput(typeof data === 'string' ? Buffer.from(data) : data));
    this.pty.onExit(({ exitCode, signal }) => this.handleExit({ exitCode, signal: signal ? signal : null }));
  }

  get endOffset(): number {
    return this.ring.endOffset;
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

  /**
   * Records this terminal's tree as the scan `all` shows it; its processes are stopped with it even if they later
   * leave its session. Returns whether the leader still runs (when it does not, there is no point rescanning).
   */
  observe(all: readonly ProcInfo[]): boolean {
    return this.processes.observe(all);
  }

  /** Processes seen in this terminal's tree that were still running when last looked at. */
  recordedProcesses(): ProcessMark[] {
    return this.processes.list();
  }

  /**
   * A line from Baton itself (a fresh-fallback warning, say), put into the output stream so the pane,
   * the mirror and every snapshot show it exactly where it happened.
   */
  notice(text: string): void {
    this.handleOutput(Buffer.from(`\x1b[1;33m⚠ baton: ${text.replace(/[\x00-\x1f\x7f]/g, ' ')}\x1b[0m\r\n`));
  }

  write(data: string): void {
    if (this.exitInfo) return;
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.exitInfo || (cols === this.size.cols && rows === this.size.rows)) return;
    this.size = { cols, rows };
    this.pty.resize(cols, rows);
    this.mirror.resize(cols, rows);
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

  /** The screen and scrollback as the mirror shows them once all output so far is applied. */
  capture(textLines?: number): Promise<MirrorScreen> {
    return this.mirror.capture(textLines);
  }

  /**
   * Start a client's stream at `fromOffset`: the missing bytes if the ring still holds them, else a reset
   * (the mirror's screen and the offset it matches). Live output follows either way, with no gap or overlap.
   */
  async attach(
    fromOffset: number | undefined,
    visible: boolean,
    deliver: (frame: StreamFrame) => void,
  ): Promise<{ start: AttachStart; subscription: Subscription }> {
    let start: AttachStart;
    let sub: Subscriber;
    const fromRing = fromOffset === undefined ? null : this.ring.read(fromOffset);
    if (fromOffset !== undefined && fromRing) {
      const end = this.exitInfo ? fromOffset + fromRing.length : utf8SafeEnd(fromRing, 0, fromRing.length) + fromOffset;
      start = { mode: 'bytes', offset: fromOffset, data: fromRing.subarray(0, end - fromOffset) };
      sub = new Subscriber(end, fromOffset, visible, deliver);
    } else {
      const screen = await this.mirror.capture();
      start = { mode: 'reset', offset: screen.offset, cols: screen.cols, rows: screen.rows, screen: screen.serialized };
      sub = new Subscriber(screen.offset, screen.offset, visible, deliver);
    }
    this.subscribers.add(sub);
    // After the caller has answered the attach: live output must follow the catch-up, never precede it.
    setImmediate(() => this.pump());
    const subscription: Subscription = {
      ack: (offset) => {
        sub.ack(offset);
        this.pump();
      },
      setVisible: (v) => {
        sub.visible = v;
        this.pump();
      },
      close: () => {
        this.subscribers.delete(sub);
        this.updateFlow();
      },
    };
    return { start, subscription };
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

  private async runStop(graceMs: number): Promise<void> {
    const leader = this.leader;
    if (!this.exitInfo && leader) {
      // Record the whole tree while the live leader still vouches for its session: after the hangup it exits,
      // and members of its session are only known by the pid it no longer holds.
      this.processes.observe(await scanProcesses());
      this.paused = false;
      try {
        this.pty.resume();
      } catch {
        // Already gone.
      }
      signalProcess(leader, 'SIGHUP');
      await Promise.race([new Promise<void>((r) => this.onExit(() => r())), delay(250)]);
    }
    await terminateTree(leader, this.processes.list(), graceMs, [this.mark]);
    this.processes.keep(isAlive);
    if (!this.exitInfo) await Promise.race([new Promise<void>((r) => this.onExit(() => r())), delay(2000)]);
  }

  dispose(): void {
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    this.subscribers.clear();
    this.mirror.dispose();
  }

  private handleOutput(chunk: Buffer): void {
    this.lastOutputAt = Date.now();
    this.ring.append(chunk);
    this.mirror.write(chunk);
    this.schedulePump(false);
    this.updateFlow();
  }

  private handleExit(info: ExitInfo): void {
    this.exitInfo = info;
    if (this.pausedWatch) clearInterval(this.pausedWatch);
    this.pausedWatch = null;
    if (this.slaveFd !== null) {
      closeSync(this.slaveFd);
      this.slaveFd = null;
    }
    this.pump();
    for (const listener of this.exitListeners) listener(info);
    this.exitListeners.clear();
  }

  private schedulePump(now: boolean): void {
    // Output after a quiet spell (an echoed keystroke) goes at once; what follows it while unacked is coalesced.
    const idle =
      this.pumpTimer === null && performance.now() - this.lastPumpAt > FLOW.quietMs && [...this.subscribers].every((s) => s.inFlight() === 0);
    if (now || idle || this.waitingBytes() >= FLOW.coalesceBytes) {
      if (this.pumpTimer) clearTimeout(this.pumpTimer);
      this.pumpTimer = null;
      this.pump();
      return;
    }
    this.pumpTimer ??= setTimeout(() => {
      this.pumpTimer = null;
      this.pump();
    }, FLOW.coalesceMs);
  }

  private waitingBytes(): number {
    let most = 0;
    for (const s of this.subscribers) most = Math.max(most, this.ring.endOffset - s.sent);
    return most;
  }

  private pump(): void {
    this.lastPumpAt = performance.now();
    for (const sub of this.subscribers) this.pumpOne(sub);
    this.updateFlow();
  }

  private pumpOne(sub: Subscriber): void {
    const budget = sub.visible ? FLOW.visibleBudget : FLOW.hiddenBudget;
    while (sub.sent < this.ring.endOffset && sub.inFlight() < budget) {
      const max = Math.min(FLOW.maxChunkBytes, budget - sub.inFlight());
      const bytes = this.ring.read(sub.sent, max);
      if (bytes === null) {
        this.resetLagging(sub);
        return;
      }
      // Hold back a split UTF-8 sequence until its end arrives, unless the terminal has ended.
      const end = this.exitInfo ? bytes.length : utf8SafeEnd(bytes, 0, bytes.length);
      if (end === 0) return;
      const offset = sub.sent;
      sub.sent += end;
      sub.deliver({ kind: 'bytes', offset, data: bytes.subarray(0, end) });
    }
  }

  /** A client fell out of the ring (a hidden pane, say): it starts over from the mirror's screen. */
  private resetLagging(sub: Subscriber): void {
    sub.sent = Number.MAX_SAFE_INTEGER; // nothing more until the reset is taken
    this.mirror.capture().then(
      (screen) => {
        if (!this.subscribers.has(sub)) return;
        sub.sent = screen.offset;
        sub.acked = screen.offset;
        sub.deliver({ kind: 'reset', offset: screen.offset, cols: screen.cols, rows: screen.rows, screen: screen.serialized });
        this.pump();
      },
      // The pane stays paused (sent is past the end) and reattaches from its offset when it is shown or reconnects.
      (err: unknown) => reportFailure('the screen of a lagging pane', err),
    );
  }

  /** Pause the PTY while a visible client or the mirror has too much waiting; resume once it drains. */
  private updateFlow(): void {
    if (this.exitInfo) return;
    // The mirror parses on its own thread and may run further behind than a client before it holds the PTY.
    let pressure = this.mirror.backlog > FLOW.mirrorBacklogBytes ? Infinity : this.mirror.backlog > FLOW.mirrorBacklogBytes / 4 ? FLOW.lowWatermark : 0;
    for (const s of this.subscribers) {
      if (s.visible && s.sent !== Number.MAX_SAFE_INTEGER) pressure = Math.max(pressure, this.ring.endOffset - s.acked);
    }
    if (!this.paused && pressure > FLOW.highWatermark && !this.childGone) {
      this.paused = true;
      this.pty.pause();
      this.watchWhilePaused();
    } else if (this.paused && pressure < FLOW.lowWatermark) {
      this.resumeReading();
    }
  }

  private resumeReading(): void {
    this.paused = false;
    if (this.pausedWatch) clearInterval(this.pausedWatch);
    this.pausedWatch = null;
    this.pty.resume();
  }

  /**
   * node-pty drops what is still unread 200 ms after the child exits; a paused PTY would lose its last output.
   * So while paused, check the child: once it is gone, read everything that is left and never pause again.
   */
  private watchWhilePaused(): void {
    this.pausedWatch ??= setInterval(() => {
      if (this.leader && isAlive(this.leader)) return;
      this.childGone = true;
      this.resumeReading();
    }, 50);
  }
}

/**
 * Keeps our own handle on the PTY's slave side. When the last slave handle closes, Linux hangs the PTY up and
 * may drop output the child wrote just before it exited; with ours open, node-pty reads it all before it reports
 * the exit (it waits for its socket to close).
 */
function holdSlave(term: pty.IPty): number | null {
  const path = (term as unknown as { _pty?: unknown })._pty;
  if (typeof path !== 'string' || !path.startsWith('/dev/')) return null;
  try {
    return openSync(path, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return null;
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
