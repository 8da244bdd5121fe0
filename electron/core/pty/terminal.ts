// One live terminal as PtyHost hands it out: the process (pty-process.ts), its output stream to clients
// (output-stream.ts) and its mirror (mirror.ts), composed. Only what needs more than one of them lives here: feeding
// each output chunk to both the stream and the mirror, and flow control, which weighs the clients' and the mirror's
// backlogs to pause or resume the process (§6).
import { randomBytes } from 'node:crypto';
import { DisposableStore, type Disposable } from '../lifecycle.js';
import type { AgentMark } from './agent-mark.js';
import { FLOW } from './flow.js';
import { Mirror, type MirrorScreen } from './mirror.js';
import { OutputStream, type AttachStart, type Subscription } from './output-stream.js';
import type { ProcInfo, ProcessMark } from './proc-stat.js';
import { PtyProcess, type ExitInfo, type SpawnOptions } from './pty-process.js';
import type { StreamConsumer, StreamFrame } from './subscriber.js';

export type { AttachStart, Subscription } from './output-stream.js';
export type { ExitInfo, SpawnOptions } from './pty-process.js';

/**
 * What the runs need of an agent's terminal, wherever its process lives: a local `Terminal`, or a remote agent's
 * `RemoteTerminal` (docs/hosts.md).
 */
export type AgentTerminal = Pick<
  Terminal,
  | 'id'
  | 'pid'
  | 'lastOutputAt'
  | 'endOffset'
  | 'exited'
  | 'cols'
  | 'rows'
  | 'notice'
  | 'write'
  | 'resize'
  | 'onExit'
  | 'capture'
  | 'attach'
  | 'stop'
  | 'dispose'
>;

export const newTerminalId = () => `trm_${randomBytes(10).toString('hex').slice(0, 16)}`;

export class Terminal implements Disposable {
  readonly id = newTerminalId();
  readonly pid: number;
  /** The leader by pid and start time; null if it was gone before it could be read (nothing to signal then). */
  readonly leader: ProcessMark | null;
  /** In the agent's environment, so its processes are found at stop even after they left its tree (§8). */
  readonly mark: AgentMark;
  /** When output last arrived (ms since epoch); drives periodic snapshots. */
  lastOutputAt = 0;
  /** The mirror, the stream, the mirror's listener and the process; disposed in the reverse order. */
  private readonly disposables = new DisposableStore();
  private readonly mirror: Mirror;
  private readonly stream: OutputStream;
  private readonly child: PtyProcess;

  constructor(options: SpawnOptions) {
    this.mirror = this.disposables.add(
      new Mirror(options.cols, options.rows, FLOW.mirrorScrollback, () => this.child.paused),
    );
    this.stream = this.disposables.add(
      new OutputStream(
        (scrollback, soon) => this.mirror.capture(0, scrollback, soon),
        () => this.updateFlow(),
      ),
    );
    this.disposables.add(this.mirror.onApplied(() => this.updateFlow()));
    try {
      this.child = this.disposables.add(
        new PtyProcess(this.id, options, {
          data: (chunk) => this.handleOutput(chunk),
          // Before any exit listener: whoever hears of the exit can read the whole output.
          exit: () => this.stream.end(),
        }),
      );
    } catch (err) {
      // No process, no terminal: the mirror must not stay open on its thread.
      this.disposables.dispose();
      throw err;
    }
    this.pid = this.child.pid;
    this.leader = this.child.leader;
    this.mark = this.child.mark;
  }

  get endOffset(): number {
    return this.stream.endOffset;
  }

  get exited(): ExitInfo | null {
    return this.child.exited;
  }

  get cols(): number {
    return this.child.cols;
  }

  get rows(): number {
    return this.child.rows;
  }

  /**
   * Records this terminal's tree as the scan `all` shows it; its processes are stopped with it even if they later
   * leave its session. Returns whether the leader still runs (when it does not, there is no point rescanning).
   */
  observe(all: readonly ProcInfo[]): boolean {
    return this.child.observe(all);
  }

  /** `observe`, also telling whether what is recorded changed (the tracker backs off while nothing does). */
  observeChange(all: readonly ProcInfo[]): { leaderRuns: boolean; changed: boolean } {
    return this.child.observeChange(all);
  }

  /** Processes seen in this terminal's tree that were still running when last looked at. */
  recordedProcesses(): ProcessMark[] {
    return this.child.recordedProcesses();
  }

  /**
   * A line from Baton itself (a fresh-fallback warning, say), put into the output stream so the pane,
   * the mirror and every snapshot show it exactly where it happened.
   */
  notice(text: string): void {
    this.handleOutput(Buffer.from(`\x1b[1;33m⚠ baton: ${text.replace(/[\x00-\x1f\x7f]/g, ' ')}\x1b[0m\r\n`));
  }

  write(data: string): void {
    this.child.write(data);
    this.stream.inputSent();
  }

  resize(cols: number, rows: number): void {
    if (this.child.resize(cols, rows)) this.mirror.resize(cols, rows);
  }

  onExit(listener: (e: ExitInfo) => void): () => void {
    return this.child.onExit(listener);
  }

  /**
   * The screen and scrollback as the mirror shows them once all output so far is applied; `scrollback` caps the
   * history serialized with it (0: the screen alone, for a caller that reads only the text).
   */
  capture(textLines?: number, scrollback?: number): Promise<MirrorScreen> {
    return this.mirror.capture(textLines, scrollback);
  }

  /** See OutputStream.attach: the catch-up (bytes or a reset) and a subscription to what follows. */
  attach(
    fromOffset: number | undefined,
    visible: boolean,
    deliver: (frame: StreamFrame) => void,
    consumer?: StreamConsumer,
    scrollback?: number,
  ): Promise<{ start: AttachStart; subscription: Subscription }> {
    return this.stream.attach(fromOffset, visible, deliver, consumer, scrollback);
  }

  /** See PtyProcess.stop: hang up, then SIGTERM and SIGKILL the whole tree and everything carrying the mark. */
  stop(graceMs = 5000): Promise<void> {
    return this.child.stop(graceMs);
  }

  /**
   * Releases everything the terminal holds: the process's listeners and watch (a child still running is hung up),
   * every subscription and pending send, and the mirror's xterm. A capture or attach still waiting is refused.
   */
  dispose(): void {
    this.disposables.dispose();
  }

  private handleOutput(chunk: Buffer): void {
    this.lastOutputAt = Date.now();
    this.mirror.write(chunk);
    this.stream.push(chunk);
    this.updateFlow();
  }

  /** Pause the PTY while a visible client or the mirror has too much waiting; resume once it drains. */
  private updateFlow(): void {
    const child = this.child;
    if (child.exited) return;
    // The mirror parses on its own thread and may run further behind than a client before it holds the PTY. Only
    // a parse under way keeps a paused PTY waiting: bytes held back during a flood are posted once the PTY is quiet.
    const mirror = this.mirror;
    const mirrorPressure =
      mirror.backlog > FLOW.mirrorBacklogBytes
        ? Infinity
        : mirror.parsing > FLOW.mirrorBacklogBytes / 4
          ? FLOW.lowWatermark
          : 0;
    const pressure = Math.max(mirrorPressure, this.stream.pressure());
    if (pressure > FLOW.highWatermark) child.pause();
    else if (pressure < FLOW.lowWatermark) child.resume();
  }
}
