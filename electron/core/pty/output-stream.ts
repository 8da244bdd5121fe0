// A terminal's output on its way to clients (panes), as VS Code's pty service replays and reconnects: the ring of
// recent bytes with their offsets, each client's subscription, coalescing, per-client budgets, attach from an offset,
// and the reset from the mirror's screen for a client whose bytes left the ring (§6). It never touches the PTY: it
// reports every change of its backlog through `onBacklog`, and its owner decides whether the PTY must wait.
import type { Disposable } from '../lifecycle.js';
import { reportFailure } from '../log.js';
import { FLOW } from './flow.js';
import type { MirrorScreen } from './mirror.js';
import { RingBuffer } from './ring-buffer.js';
import { Subscriber, type StreamConsumer, type StreamFrame } from './subscriber.js';
import { utf8SafeEnd } from './utf8.js';

export type AttachStart =
  | { mode: 'bytes'; offset: number; data: Buffer }
  | { mode: 'reset'; offset: number; cols: number; rows: number; screen: string };

/** A client's hold on the stream; `close` and `dispose` are the same (the client is gone). */
export interface Subscription extends Disposable {
  ack(offset: number): void;
  setVisible(visible: boolean): void;
  /** Pace this client's stream (the user is typing into another of its panes) or stop pacing it. */
  setPaced(paced: boolean): void;
  close(): void;
}

/**
 * BATON_OUTPUT_COALESCE=armed: a flood's frames as before tput14 (see `schedulePump`), for the bench's paired A/B
 * (docs/performance.md "Remote pane throughput (tput14)").
 */
const sendWhenArmed = process.env.BATON_OUTPUT_COALESCE === 'armed';

/** `sent` of a client waiting for its reset: nothing more goes to it until the reset is taken. */
const AWAITING_RESET = Number.MAX_SAFE_INTEGER;

export class OutputStream implements Disposable {
  private readonly ring = new RingBuffer(FLOW.ringBytes);
  private readonly subscribers = new Set<Subscriber>();
  // Plain handles rather than disposables: they are set and cleared for nearly every chunk. `dispose` clears both.
  private pumpTimer: NodeJS.Timeout | null = null;
  private pumpSoon: NodeJS.Immediate | null = null;
  /** Armed while a hidden client waits for its next send (FLOW.hiddenEveryMs). */
  private hiddenTimer: NodeJS.Timeout | null = null;
  private lastPumpAt = 0;
  /**
   * Input went to the process since its last output: what comes next is most likely its echo, and goes at once. The
   * quiet rule alone missed an echo that followed the previous one within `quietMs` (a key typed right after the last
   * one showed): it waited out the coalescing timer, which set the echo's p99 (docs/performance.md, "Echo of one core").
   */
  private echoDue = false;
  /** The process has exited: no more bytes will come, so a split UTF-8 tail is sent as it is. */
  private ended = false;
  private disposed = false;

  constructor(
    /**
     * The mirror's screen (with at most `scrollback` lines of history) and the offset it matches, for resets; `soon`:
     * as far as the mirror has got, not waiting for its backlog.
     */
    private readonly screen: (scrollback?: number, soon?: boolean) => Promise<MirrorScreen>,
    /** Called after anything that may change `pressure()`: bytes sent, acked, a client gone. */
    private readonly onBacklog: () => void,
  ) {}

  get endOffset(): number {
    return this.ring.endOffset;
  }

  /** Unacknowledged bytes of the visible client furthest behind (hidden ones never hold the PTY; they get a reset). */
  pressure(): number {
    let most = 0;
    for (const s of this.subscribers) {
      if (s.visible && s.sent !== AWAITING_RESET) most = Math.max(most, s.pressure(this.ring.endOffset));
    }
    return most;
  }

  push(chunk: Buffer): void {
    if (this.disposed) return;
    this.ring.append(chunk);
    this.schedulePump();
  }

  /** Input was written to the process: its next output (the echo) is sent without waiting for the coalescing timer. */
  inputSent(): void {
    this.echoDue = true;
  }

  /** The process has exited: send everything, held UTF-8 tails included. */
  end(): void {
    this.ended = true;
    this.pump();
  }

  /**
   * Start a client's stream at `fromOffset`: the missing bytes if the ring still holds them, else a reset
   * (the mirror's screen and the offset it matches). Live output follows either way, with no gap or overlap.
   * `scrollback` bounds the history of this client's resets (this one and any later one when it lags).
   */
  async attach(
    fromOffset: number | undefined,
    visible: boolean,
    deliver: (frame: StreamFrame) => void,
    consumer: StreamConsumer = 'pane',
    scrollback?: number,
  ): Promise<{ start: AttachStart; subscription: Subscription }> {
    if (this.disposed) throw closedError();
    const window = consumer === 'core' ? FLOW.coreBudget : FLOW.visibleBudget;
    let start: AttachStart;
    let sub: Subscriber;
    const fromRing = fromOffset === undefined ? null : this.ring.read(fromOffset);
    if (fromOffset !== undefined && fromRing) {
      const end = this.ended ? fromOffset + fromRing.length : utf8SafeEnd(fromRing, 0, fromRing.length) + fromOffset;
      start = { mode: 'bytes', offset: fromOffset, data: fromRing.subarray(0, end - fromOffset) };
      sub = new Subscriber(end, fromOffset, visible, deliver, window, scrollback, consumer === 'core');
    } else {
      const screen = await this.resetScreen(scrollback);
      if (this.disposed) throw closedError();
      start = { mode: 'reset', offset: screen.offset, cols: screen.cols, rows: screen.rows, screen: screen.serialized };
      sub = new Subscriber(screen.offset, screen.offset, visible, deliver, window, scrollback, consumer === 'core');
    }
    this.subscribers.add(sub);
    // After the caller has answered the attach: live output must follow the catch-up, never precede it.
    this.pumpSoon ??= setImmediate(() => {
      this.pumpSoon = null;
      this.pump();
    });
    const close = () => {
      if (sub.closed) return;
      this.subscribers.delete(sub);
      sub.dispose();
      this.onBacklog();
    };
    const subscription: Subscription = {
      ack: (offset) => {
        // Only a client its budget held back is sent more at once. Anyone else gets what waits with the coalescing
        // timer: pumping on every ack sent a fast client a frame per PTY read (rate × round trip, ~8 KiB in a flood),
        // and each frame costs a syscall in the core and a task in the page.
        const held = sub.sent < this.ring.endOffset && sub.inFlight() >= this.budget(sub);
        sub.ack(offset);
        if (held) this.pump();
        else this.onBacklog();
      },
      setVisible: (v) => {
        if (sub.visible === v) return;
        sub.visible = v;
        // Far behind (a pane hidden through a flood): its current screen is quicker to show than the bytes.
        if (v && sub.sent !== AWAITING_RESET && this.ring.endOffset - sub.sent > FLOW.catchUpBytes)
          this.resetLagging(sub);
        this.pump();
      },
      setPaced: (paced) => {
        if (sub.paced === paced) return;
        sub.paced = paced;
        if (!paced) this.pump();
      },
      close,
      dispose: close,
    };
    return { start, subscription };
  }

  /** Ends every subscription and cancels pending sends; no client hears from this stream again. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    if (this.pumpSoon) clearImmediate(this.pumpSoon);
    if (this.hiddenTimer) clearTimeout(this.hiddenTimer);
    this.hiddenTimer = null;
    this.pumpTimer = null;
    this.pumpSoon = null;
    for (const sub of this.subscribers) sub.dispose();
    this.subscribers.clear();
  }

  private schedulePump(): void {
    // Output after a quiet spell, or the first after input (an echo), goes at once; what follows it while unacked is
    // coalesced.
    const idle =
      this.pumpTimer === null && performance.now() - this.lastPumpAt > FLOW.quietMs && this.nothingInFlight();
    if (idle || this.echoDue) {
      this.echoDue = false;
      // A timer already armed is left to fire (it finds little or nothing to send): clearing and arming one per 64 KiB
      // of a flood cost the core more than sending the frames (node's timer lists are rebuilt each time).
      this.pump();
      return;
    }
    if (this.waitingBytes() >= FLOW.coalesceBytes) {
      // A whole frame waits: it goes, and for another core reading the stream the rest (the end of the read that
      // crossed the threshold) waits for the next frame or the timer, at most `coalesceMs`. Sent with it, the rest went
      // as a frame of a few KiB after every full one: ~490 frames per 32 MB instead of ~310, each a wake-up of every
      // process of a remote chain and an ack back (docs/performance.md "Remote pane throughput (tput14)").
      this.pump(!sendWhenArmed);
      if (sendWhenArmed) return;
    }
    this.pumpTimer ??= setTimeout(this.coalesced, FLOW.coalesceMs);
  }

  /** The coalescing timer: whatever waits goes, the rest of a flood's last whole frame too. */
  private readonly coalesced = (): void => {
    this.pumpTimer = null;
    this.pump();
  };

  private nothingInFlight(): boolean {
    for (const s of this.subscribers) if (s.visible && s.inFlight() > 0) return false;
    return true;
  }

  /** The most output waiting for a client that may be sent some now (a hidden one waits for its own cadence). */
  private waitingBytes(): number {
    let most = 0;
    for (const s of this.subscribers)
      if (s.sent !== AWAITING_RESET && this.budget(s) > 0) most = Math.max(most, this.ring.endOffset - s.sent);
    return most;
  }

  /** `fullFrames`: send only whole frames (a flood's) to a client that takes them so (`wholeFrames`), a rest waiting. */
  private pump(fullFrames = false): void {
    this.lastPumpAt = performance.now();
    for (const sub of this.subscribers) {
      if (sub.visible) this.pumpOne(sub, fullFrames);
      else this.pumpHidden(sub);
    }
    this.onBacklog();
  }

  /** What a client may have in flight at once now; a hidden one's is 0 outside its cadence (`pumpHidden`). */
  private budget(sub: Subscriber): number {
    return !sub.visible ? 0 : sub.paced ? FLOW.pacedBudget : sub.window;
  }

  /**
   * A hidden client is kept nearly current: what waits goes at most once every `hiddenEveryMs` (the first output
   * after a quiet spell at once), at most `hiddenBudget` in flight, and nothing once it is more than `catchUpBytes`
   * behind: its show then gives it the mirror's screen (setVisible).
   */
  private pumpHidden(sub: Subscriber): void {
    const end = this.ring.endOffset;
    if (FLOW.hiddenBudget === 0 || sub.sent === AWAITING_RESET || sub.sent >= end || end - sub.sent > FLOW.catchUpBytes)
      return;
    const now = performance.now();
    const wait = sub.hiddenSentAt + FLOW.hiddenEveryMs - now;
    if (wait > 0) {
      this.hiddenTimer ??= setTimeout(() => {
        this.hiddenTimer = null;
        this.pump();
      }, wait);
      return;
    }
    const before = sub.sent;
    this.pumpOne(sub, false, FLOW.hiddenBudget);
    if (sub.sent !== before) sub.hiddenSentAt = now;
  }

  private pumpOne(sub: Subscriber, fullFrames: boolean, budget = this.budget(sub)): void {
    while (sub.sent < this.ring.endOffset && sub.inFlight() < budget) {
      const max = Math.min(FLOW.maxChunkBytes, budget - sub.inFlight());
      // A rest shorter than a frame (a budget's end is a full frame) goes with the next frame or the timer.
      if (fullFrames && sub.wholeFrames && this.ring.endOffset - sub.sent < max) return;
      const bytes = this.ring.read(sub.sent, max);
      if (bytes === null) {
        // A hidden client is given the screen when shown (setVisible), not parsed while out of view.
        if (sub.visible) this.resetLagging(sub);
        return;
      }
      // Hold back a split UTF-8 sequence until its end arrives, unless the terminal has ended.
      const end = this.ended ? bytes.length : utf8SafeEnd(bytes, 0, bytes.length);
      if (end === 0) return;
      const offset = sub.sent;
      sub.sent += end;
      sub.deliver({ kind: 'bytes', offset, data: bytes.subarray(0, end) });
    }
  }

  /**
   * The screen a reset starts from: as far as the mirror has parsed (a mirror with a backlog answered after it all
   * made first visits wait seconds), the bytes after it following from the ring; a mirror further behind than the
   * ring reaches is waited for.
   */
  private async resetScreen(scrollback: number | undefined): Promise<MirrorScreen> {
    const screen = await this.screen(scrollback, true);
    return screen.offset >= this.ring.startOffset ? screen : this.screen(scrollback, false);
  }

  /** A client fell out of the ring (a hidden pane, say): it starts over from the mirror's screen. */
  private resetLagging(sub: Subscriber): void {
    sub.sent = AWAITING_RESET;
    this.resetScreen(sub.scrollback).then(
      (screen) => {
        if (sub.closed) return;
        sub.sent = screen.offset;
        sub.acked = screen.offset;
        sub.deliver({
          kind: 'reset',
          offset: screen.offset,
          cols: screen.cols,
          rows: screen.rows,
          screen: screen.serialized,
        });
        this.pump();
      },
      // The pane stays paused (sent is past the end) and reattaches from its offset when it is shown or reconnects.
      (err: unknown) => {
        if (!sub.closed) reportFailure('the screen of a lagging pane', err);
      },
    );
  }
}

const closedError = () => new Error('the terminal was closed');
