// A remote agent's terminal as this core holds it (docs/hosts.md): the remote core owns the PTY; this side keeps a
// stream of its own, fed with the remote stream's bytes, and a mirror parsed only when a screen is wanted (the remote
// core's mirror already parses everything), so panes, snapshots and screens work exactly as for a local agent. The
// remote offset already received is remembered: after a dropped connection the stream is attached again from there,
// so the pane continues byte-exact. Input and resizes go to the remote core; keys go through an input ledger, so the
// ones typed while the connection is dying or down reach the agent once it is back, exactly once.
import { DisposableStore } from '../lifecycle.js';
import { FLOW } from '../pty/flow.js';
import type { MirrorScreen } from '../pty/mirror.js';
import { OutputStream, type AttachStart, type Subscription } from '../pty/output-stream.js';
import type { StreamConsumer, StreamFrame } from '../pty/subscriber.js';
import type { ExitInfo } from '../pty/pty-process.js';
import type { TerminalStream } from '../../../shared/client.js';
import { reportFailure } from '../log.js';
import { InputLedger } from '../../../shared/input-ledger.js';
import { LazyMirror } from './lazy-mirror.js';
import type { RemoteCore } from './remote-core.js';
import { settleWithin } from '../settle-within.js';

export const ENDED = new Set(['exited', 'stopped', 'failed']);

/**
 * Local panes' unacknowledged bytes up to which the remote stream is acknowledged. After the last ack the remote core
 * may still send its window (FLOW.coreBudget) and a chunk in flight: all of it stays within the local ring.
 */
const ACK_WHILE_BEHIND = FLOW.ringBytes - FLOW.coreBudget - 2 * FLOW.maxChunkBytes;

export class RemoteTerminal {
  /** The remote terminal's own id: one id on both cores. */
  readonly id: string;
  readonly pid: number;
  lastOutputAt = 0;
  exited: ExitInfo | null = null;
  cols = 120;
  rows = 40;
  private readonly disposables = new DisposableStore();
  private readonly mirror: LazyMirror;
  private readonly stream: OutputStream;
  private readonly exitListeners = new Set<(e: ExitInfo) => void>();
  /** Everything below this remote offset is in the local stream. */
  private remoteEnd = 0;
  private remote: TerminalStream | null = null;
  private disposed = false;
  /** Keys typed, numbered and kept until the remote core confirms it wrote them (across reconnects). */
  private readonly input = new InputLedger((message) => this.notice(message));

  constructor(
    private readonly core: RemoteCore,
    private readonly remoteAgentId: string,
    terminalId: string,
    pid: number | null,
    /** The remote agent's state now (after a reconnect: did it end while this side was away?). */
    private readonly statusOf: () => Promise<{ ended: boolean; exitCode: number | null }>,
  ) {
    this.id = terminalId;
    this.pid = pid ?? 0;
    this.mirror = this.disposables.add(
      new LazyMirror(this.cols, this.rows, () =>
        core.state === 'connected' ? core.call('agent.screen', { agentId: remoteAgentId }) : Promise.resolve(null),
      ),
    );
    this.stream = this.disposables.add(
      new OutputStream(
        (scrollback, soon) => this.mirror.capture(0, scrollback, soon),
        () => this.ackRemote(),
      ),
    );
    const offStatus = core.on('agent.status', (e) => {
      if (
        e.agentId === this.remoteAgentId &&
        ENDED.has(e.status) &&
        (e.terminalId === null || e.terminalId === this.id)
      )
        this.drainThenExit(e.exitCode ?? 0).catch((err: unknown) => reportFailure('a remote agent exit', err));
    });
    const offReconnect = core.onReconnect(() => {
      this.follow().catch((err: unknown) => reportFailure('reattaching a remote terminal', err));
    });
    // Keys typed while the connection is down (or before the stream is attached again) wait in the input ledger.
    const offDrop = core.onDrop(() => {
      this.remote = null;
    });
    this.disposables.add({ dispose: offDrop });
    this.disposables.add({ dispose: offStatus });
    this.disposables.add({ dispose: offReconnect });
  }

  /** Starts (or, after a reconnect, resumes) receiving the remote output from the offset already held. */
  async follow(): Promise<void> {
    if (this.disposed || this.exited) return;
    this.remote?.detach();
    this.remote = null;
    this.remote = await this.core.attach(
      this.remoteAgentId,
      { terminalId: this.id, fromOffset: this.remoteEnd, visible: true, consumer: 'core', input: this.input },
      {
        onData: (data, offset) => {
          const end = offset + data.length;
          if (end <= this.remoteEnd) return;
          const fresh = Buffer.from(data.subarray(Math.max(0, this.remoteEnd - offset)));
          this.remoteEnd = end;
          this.output(fresh);
          this.ackRemote();
        },
        // The remote ring no longer holds what this side missed: its screen stands in for the gap, as it does in a pane.
        onReset: (screen, offset, cols, rows) => {
          this.remoteEnd = offset;
          if (cols !== this.cols || rows !== this.rows) this.mirror.resize(cols, rows);
          this.output(Buffer.from(`\x1b[H\x1b[2J${screen}`));
          this.ackRemote();
        },
      },
    );
    // The catch-up arrived before the stream was returned, so it could not be acknowledged then: it is now.
    this.ackRemote();
    // Ended while this side was away: the tail came with the attach, and no status event will come again.
    const now = await this.statusOf();
    if (now.ended) await this.drainThenExit(now.exitCode ?? 0);
  }

  get endOffset(): number {
    return this.stream.endOffset;
  }

  notice(text: string): void {
    this.output(Buffer.from(`\x1b[1;33m⚠ baton: ${text.replace(/[\x00-\x1f\x7f]/g, ' ')}\x1b[0m\r\n`));
  }

  /**
   * Keys go as fire-and-forget numbered input frames on the remote stream, as a pane's do: no request and no reply
   * per key. Until the stream is attached (again) they wait in the ledger, which sends them once it is.
   */
  write(data: string): void {
    // The echo coming back from the host goes on to the panes at once, as a local terminal's does.
    this.stream.inputSent();
    this.input.type(data);
  }

  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    this.cols = cols;
    this.rows = rows;
    this.mirror.resize(cols, rows);
    this.core
      .call('agent.resize', { agentId: this.remoteAgentId, cols, rows })
      .catch((err: unknown) => reportFailure('resizing a remote agent', err));
  }

  onExit(listener: (e: ExitInfo) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  capture(textLines?: number, scrollback?: number): Promise<MirrorScreen> {
    return this.mirror.capture(textLines, scrollback);
  }

  attach(
    fromOffset: number | undefined,
    visible: boolean,
    deliver: (frame: StreamFrame) => void,
    consumer?: StreamConsumer,
    scrollback?: number,
  ): Promise<{ start: AttachStart; subscription: Subscription }> {
    return this.stream.attach(fromOffset, visible, deliver, consumer, scrollback);
  }

  /** Asks the remote core to stop the agent; resolves once its exit arrived (or the grace ran out). */
  async stop(graceMs = 5000): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((r) => this.onExit(() => r()));
    await this.core.call('agent.stop', { agentId: this.remoteAgentId }).catch(() => undefined);
    await settleWithin(exited, graceMs + 1000);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.remote?.detach();
    this.disposables.dispose();
  }

  /**
   * Acknowledges what arrived as soon as it is in the local stream, while this side's visible panes keep up. When one
   * falls behind, acks wait (this runs again whenever the local backlog changes), so the remote PTY is paused in turn:
   * no visible pane falls out of the local ring.
   */
  private ackRemote(): void {
    if (!this.remote || this.stream.pressure() > ACK_WHILE_BEHIND) return;
    this.remote.ack(this.remoteEnd);
  }

  private output(chunk: Buffer): void {
    this.lastOutputAt = Date.now();
    this.mirror.write(chunk);
    this.stream.push(chunk);
  }

  /** The exit event may overtake the last bytes: read the remote end first, then end the stream and tell. */
  private async drainThenExit(exitCode: number): Promise<void> {
    if (this.exited) return;
    await new Promise((r) => setTimeout(r, 100));
    if (this.exited || this.disposed) return;
    const exit = { exitCode, signal: null };
    this.exited = exit;
    this.stream.end();
    for (const l of this.exitListeners) l(exit);
  }
}
