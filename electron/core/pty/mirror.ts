// A headless xterm per terminal, fed the same bytes as the pane: the source of screens and of reattach resets.
// The xterms live on a few worker threads shared by every terminal (mirror-thread.ts); this is one's handle, bound to
// its thread for life.
import { toDisposable, type Disposable } from '../lifecycle.js';
import { FLOW } from './flow.js';
import {
  BATCH_BYTES,
  closeMirror,
  mirrorWorker,
  registerMirror,
  resetPortOf,
  takeBatch,
  traceAnswered,
  traceCaptures,
  traceKeptReset,
  type FromWorker,
  type MirrorEndpoint,
  type MirrorScreen,
} from './mirror-thread.js';

export type { MirrorScreen } from './mirror-thread.js';
export { liveMirrorCount, mirrorThreadCount, readStatLinesOnMirrorThread } from './mirror-thread.js';

/** Capture requests, numbered for the whole process (the thread answers by number). */
let nextRequest = 1;

/**
 * While output floods, the mirror lags: its batches wait here instead of being parsed (see `write`). A tick every
 * `TICK_MS` posts them once `QUIET_TICKS` ticks in a row saw no output (the flood is over), or when they have waited
 * `TRICKLE_AFTER_MS` and came slower than `FLOOD_BYTES_PER_MS` (steady output, not a flood). Gaps of a few ms within one
 * flood are common on a busy machine (the reader is descheduled), so only ticks' silence is counted as quiet.
 */
const TICK_MS = 16;
/**
 * Quiet ticks in a row before held output is posted, and a tick that fired a tick or more late does not count: its
 * loop ran late (the reader descheduled), and the reads waiting for it come in the poll phase after the timers. One
 * quiet tick handed part of a burst to the thread, to be parsed beside the reads, in 4 of 36 bursts at a load of 12
 * (docs/performance.md, "where PtyHost's extra CPU per MiB goes").
 */
const QUIET_TICKS = 2;
const TRICKLE_AFTER_MS = 100;
const FLOOD_BYTES_PER_MS = 4096;
/** BATON_MIRROR_HOLD_PAUSED=0: a tick with the PTY paused counts as quiet, as before (the A/B, docs/performance.md). */
const holdWhilePaused = process.env.BATON_MIRROR_HOLD_PAUSED !== '0';
const PAUSED_TICK_MAX_MS = 1000;
/** BATON_MIRROR_KEPT_SCREENS=0: every reset is answered by the thread, as before (the A/B, docs/performance.md). */
const useKeptScreens = process.env.BATON_MIRROR_KEPT_SCREENS !== '0';
/**
 * The most bytes after a kept screen that a reset answered with it leaves to the pane to parse (the ring sends them):
 * 64 KiB parse in a few ms in the page, less than a reset waiting for a busy thread costs.
 */
export const KEPT_REPLAY_BYTES = 64 * 1024;

/** Bytes every mirror of the process holds back (`FLOW.mirrorLagTotalBytes` bounds it across a hundred floods). */
let heldTotal = 0;

interface PendingCapture {
  resolve(screen: MirrorScreen): void;
  reject(err: Error): void;
}

export class Mirror implements Disposable, MirrorEndpoint {
  private readonly id: number;
  /** The index of the mirror thread its xterm lives on, for life. */
  readonly thread: number;
  /**
   * Output not yet posted, as the chunks it came in (`held[heldFirst]` onwards): kept, not copied, until it is posted.
   * Copied into a fresh batch as it came, a burst's 16 MiB were 64 new 256 KiB buffers during the burst, and V8 counts
   * every new buffer as external memory: the core's heap was marked and scavenged twice as often as raw node-pty's
   * while it read (docs/performance.md, "where PtyHost's extra CPU per MiB goes").
   */
  private held: Uint8Array[] = [];
  private heldFirst = 0;
  /** Bytes in `held`, not yet posted. */
  private heldBytes = 0;
  /** Bytes written since the last tick: a flood holds the batches back, quiet ticks post them. */
  private sinceTick = 0;
  /** Ticks in a row that found the source paused and no output (they back off). */
  private pausedTicks = 0;
  /** When the first byte now held arrived (performance.now()). */
  private heldSince = 0;
  /**
   * A flood outgrew the allowance: until it stops and the thread has caught up, each batch is posted once full, so the
   * thread parses alongside the reads (holding more back would only make the PTY wait idle for a larger parse later).
   */
  private streaming = false;
  private tickTimer: NodeJS.Timeout | null = null;
  /** When the armed tick is due (performance.now()), and the quiet ticks in a row so far. */
  private tickDueAt = 0;
  private quietTicks = 0;
  private queued = 0;
  private applied = 0;
  private readonly captures = new Map<number, PendingCapture>();
  /** Where each write posted and not yet applied ends: a reset takes at least the first (as it did in order). */
  private readonly postedEnds: number[] = [];
  private appliedListener: (() => void) | null = null;
  /** The thread's latest screen of this terminal with `lines` of history (mirror-worker.mjs, `keep`). */
  private kept: { lines: number; screen: MirrorScreen } | null = null;
  /** Resizes posted to the thread; a kept screen counts those it had applied (so it is current only if all of them). */
  private resizesPosted = 0;
  private disposed = false;
  /** Its thread died: there is no xterm any more, and every capture is answered at once with an empty screen. */
  private lost = false;

  /**
   * `sourcePaused`: the PTY is paused for its readers (a pane slower than the writer). A tick without output is then
   * the pane's pace, not the flood's end: parsing there took the CPU the page needed (docs/performance.md).
   */
  constructor(
    private cols: number,
    private rows: number,
    scrollback: number,
    private readonly sourcePaused = (): boolean => false,
  ) {
    ({ id: this.id, thread: this.thread } = registerMirror(this));
    this.worker().postMessage({ t: 'open', id: this.id, cols, rows, scrollback });
  }

  private worker() {
    return mirrorWorker(this.thread);
  }

  /** Bytes handed to the mirror but not yet parsed: the core pauses the PTY when this grows too large. */
  get backlog(): number {
    return this.queued - this.applied;
  }

  /** Bytes posted to the thread and not yet parsed (the backlog less what is held back while a flood lasts). */
  get parsing(): number {
    return this.queued - this.heldBytes - this.applied;
  }

  /** One listener, called whenever the thread has applied more bytes (the backlog shrank). */
  onApplied(listener: () => void): Disposable {
    this.appliedListener = listener;
    return toDisposable(() => {
      if (this.appliedListener === listener) this.appliedListener = null;
    });
  }

  /**
   * Keeps `chunk` until it is posted (copied into a batch then): the caller must never change its bytes afterwards
   * (node-pty's reads and the notices are fresh buffers). While output floods, the chunks wait (up to
   * `FLOW.mirrorLagBytes`) instead of being posted: on two cores the thread's parse took the CPU the PTY's reader and
   * writer needed, and halved a burst's rate. Once the flood stops (a tick with little output), or more than the
   * allowance waits, they are posted; a capture or a resize posts them first, so every screen still shows every byte.
   */
  write(chunk: Uint8Array): void {
    if (this.disposed || chunk.length === 0) return;
    this.queued += chunk.length;
    if (this.lost) {
      this.applied = this.queued;
      return;
    }
    if (this.heldBytes === 0) {
      this.heldSince = performance.now();
      // Nothing held and the thread idle: whatever flood was streamed is over, and this output starts afresh. (A quiet
      // tick does not say so: the PTY is quiet too while it waits for the thread.)
      if (this.parsing === 0) this.streaming = false;
    }
    this.heldBytes += chunk.length;
    this.sinceTick += chunk.length;
    heldTotal += chunk.length;
    this.held.push(chunk);
    if (this.streaming && this.heldBytes >= BATCH_BYTES) this.post();
    if (this.heldBytes > FLOW.mirrorLagBytes || heldTotal > FLOW.mirrorLagTotalBytes) {
      this.streaming = true;
      this.post();
    }
    if (!this.tickTimer) this.armTick(TICK_MS);
  }

  private armTick(ms: number): void {
    this.tickDueAt = performance.now() + ms;
    this.tickTimer = setTimeout(this.tick, ms);
  }

  resize(cols: number, rows: number): void {
    if (this.disposed || this.lost) return;
    // A kept screen of the old size would lay the bytes after it out at the wrong width: resets go to the thread until
    // one is kept at the new size.
    if (cols !== this.cols || rows !== this.rows) this.kept = null;
    this.cols = cols;
    this.rows = rows;
    this.flush();
    this.resizesPosted++;
    this.worker().postMessage({ t: 'resize', id: this.id, cols, rows });
  }

  /**
   * The screen once every byte written so far has been applied (taken on the mirror thread, in order), with at most
   * `scrollback` lines of history above it (all the mirror keeps when not given), and the text of the last `textLines`
   * lines (0: none). `soon`: at the next boundary between writes instead, with the offset it matches (a stream's reset,
   * whose client gets the rest from the ring).
   */
  capture(textLines = 200, scrollback?: number, soon = false): Promise<MirrorScreen> {
    if (this.disposed) return Promise.reject(closedError());
    if (this.lost) return Promise.resolve(this.emptyScreen());
    const kept = soon && textLines === 0 ? this.keptFor(scrollback) : null;
    if (kept) return Promise.resolve(kept);
    this.flush();
    const request = nextRequest++;
    return new Promise((resolve, reject) => {
      this.captures.set(request, { resolve, reject });
      const at = traceCaptures ? performance.timeOrigin + performance.now() : undefined;
      const resetPort = soon ? resetPortOf(this.thread) : null;
      const after = this.postedEnds[0] ?? this.applied;
      (resetPort ?? this.worker()).postMessage({
        t: 'capture',
        id: this.id,
        request,
        textLines,
        scrollback,
        soon,
        after,
        at,
      });
    });
  }

  /**
   * The kept screen, if it can answer a reset with at most `scrollback` lines of history asked for: it has that many,
   * and at most `KEPT_REPLAY_BYTES` came after it. A bounded reset asks for a few screens; one asking for the whole
   * history (`scrollback` undefined) goes to the thread.
   */
  private keptFor(scrollback: number | undefined): MirrorScreen | null {
    const kept = this.kept;
    const miss = !useKeptScreens
      ? 'off'
      : !kept
        ? 'none'
        : scrollback === undefined || kept.lines < scrollback
          ? 'lines'
          : this.queued - kept.screen.offset > KEPT_REPLAY_BYTES
            ? 'far'
            : null;
    if (traceCaptures) traceKeptReset(this.id, miss, kept?.screen.offset ?? -1, this.queued);
    return miss === null ? kept!.screen : null;
  }

  /** @internal Tests: the offset of the kept screen, null while there is none. */
  get keptOffset(): number | null {
    return this.kept?.screen.offset ?? null;
  }

  /**
   * Frees the xterm on the thread. A capture still waiting is refused rather than left pending forever (the thread
   * drops requests for a closed mirror), and bytes not yet sent are dropped with their flush.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.dropHeld();
    this.appliedListener = null;
    closeMirror(this.id);
    for (const capture of this.captures.values()) capture.reject(closedError());
    this.captures.clear();
  }

  /** @internal */
  fromWorker(m: Exclude<FromWorker, { t: 'free' } | { t: 'scan' }>): void {
    if (m.t === 'kept') {
      // One taken before the last resize (posted before the thread had it) is of the old size, or laid out before a
      // resize and back.
      const current = m.resizes === this.resizesPosted;
      if (!this.disposed && !this.lost && current) this.kept = { lines: m.lines, screen: m.screen };
    } else if (m.t === 'applied') {
      this.applied = m.end;
      while (this.postedEnds.length > 0 && this.postedEnds[0]! <= m.end) this.postedEnds.shift();
      this.appliedListener?.();
    } else {
      const capture = this.captures.get(m.request);
      this.captures.delete(m.request);
      if (traceCaptures) traceAnswered(m.request);
      capture?.resolve(m.screen);
    }
  }

  /**
   * @internal Its thread died: report an empty screen rather than leave callers waiting forever, now and later (a
   * restarted thread has no xterm for it). The terminal itself, its ring and its panes go on.
   */
  workerLost(): void {
    this.lost = true;
    this.kept = null;
    this.dropHeld();
    this.applied = this.queued;
    this.postedEnds.length = 0;
    for (const capture of this.captures.values()) capture.resolve(this.emptyScreen());
    this.captures.clear();
    this.appliedListener?.();
  }

  private emptyScreen(): MirrorScreen {
    return { cols: 80, rows: 24, offset: this.queued, serialized: '', text: '' };
  }

  private readonly tick = (): void => {
    this.tickTimer = null;
    if (holdWhilePaused && this.sinceTick === 0 && this.sourcePaused()) {
      // Checked again later, backing off to once a second for a stalled reader (a hundred stalled panes must not wake
      // the core 60 times a second each); a capture or a resize still posts everything held at once.
      this.pausedTicks++;
      this.quietTicks = 0;
      this.armTick(Math.min(TICK_MS << Math.min(this.pausedTicks, 6), PAUSED_TICK_MAX_MS));
      return;
    }
    this.pausedTicks = 0;
    const now = performance.now();
    if (this.sinceTick > 0) this.quietTicks = 0;
    else if (now - this.tickDueAt < TICK_MS) this.quietTicks++;
    const held = now - this.heldSince;
    // (A flood being streamed ends only with quiet ticks: its held bytes are just the batch being filled.)
    const trickle = !this.streaming && held > TRICKLE_AFTER_MS && this.heldBytes < held * FLOOD_BYTES_PER_MS;
    if (this.quietTicks >= QUIET_TICKS || trickle) this.flush();
    else this.armTick(TICK_MS);
    this.sinceTick = 0;
  };

  /** Posts the held output in whole batches, in order, a message each (the batch moved, not copied); a rest waits. */
  private post(): void {
    while (this.heldBytes >= BATCH_BYTES) this.postBatch(BATCH_BYTES);
    this.compactHeld();
  }

  /** Posts every held byte to the thread, the rest after the whole batches too. */
  private flush(): void {
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    this.quietTicks = 0;
    while (this.heldBytes > 0) this.postBatch(Math.min(this.heldBytes, BATCH_BYTES));
    this.compactHeld();
  }

  /**
   * Copies the first `length` held bytes into a batch and posts it. A rest of less than a quarter batch (a trickle: an
   * echo, a prompt) goes as a copy of its own size; a larger one in a pooled batch, which the thread gives back.
   */
  private postBatch(length: number): void {
    const reuse = length > BATCH_BYTES / 4;
    const data = reuse ? takeBatch() : new ArrayBuffer(length);
    const into = new Uint8Array(data, 0, length);
    const held = this.held;
    let at = 0;
    while (at < length) {
      const chunk = held[this.heldFirst]!;
      const n = Math.min(chunk.length, length - at);
      if (n === chunk.length) {
        into.set(chunk, at);
        held[this.heldFirst++] = EMPTY;
      } else {
        into.set(chunk.subarray(0, n), at);
        held[this.heldFirst] = chunk.subarray(n);
      }
      at += n;
    }
    this.heldBytes -= length;
    heldTotal -= length;
    const end = this.queued - this.heldBytes;
    this.worker().postMessage({ t: 'write', id: this.id, data, length, end, reuse }, [data]);
    this.postedEnds.push(end);
  }

  /** Drops the posted chunks' slots (once per post, not per batch: a flood's rest is a few chunks). */
  private compactHeld(): void {
    if (this.heldFirst === 0) return;
    this.held = this.heldFirst === this.held.length ? [] : this.held.slice(this.heldFirst);
    this.heldFirst = 0;
  }

  private dropHeld(): void {
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    heldTotal -= this.heldBytes;
    this.held = [];
    this.heldFirst = 0;
    this.heldBytes = 0;
  }
}

const EMPTY = new Uint8Array(0);

const closedError = () => new Error('the terminal was closed: its screen is no longer kept');
