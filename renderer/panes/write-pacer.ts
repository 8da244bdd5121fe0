// Typing stays fast while another pane floods (docs/performance.md, "Keystrokes"). The page has one main thread: a
// flooding pane's parsing and drawing sit in front of a keystroke's echo to another pane. So, while the user types,
// output for the other panes is held in the page and fed to their xterms in slices of the main thread's time, once per
// `FEED_EVERY_MS`, one piece in flight at a time; while a keystroke's echo is due, none is fed at all, so the frame
// that paints the echo has no flood to parse or draw. The pane being typed into is never held, and a pane's
// bytes always reach its xterm in order. Without typing, everything goes straight to xterm as before.
// (A byte budget per frame was tried first: the flooder fell to 0.3 MB/s and the echo did not improve. A time slice
// measured with the clock gives the flooder whatever the frame has left.)

/** The part of an xterm the pacer writes to. */
export interface PacedTarget {
  write(data: Uint8Array, parsed?: () => void): void;
}

export interface PacerClock {
  now(): number;
  /** Runs `run` at the next frame, before it is painted (requestAnimationFrame). */
  frame(run: () => void): void;
  /** Runs `run` in a task of its own (after the frame's paint when called from `frame`). */
  soon(run: () => void): void;
  /** Runs `run` in `ms` (a timer: no frame is asked for). */
  later(run: () => void, ms: number): void;
}

const browserClock: PacerClock = {
  now: () => performance.now(),
  frame: (run) => requestAnimationFrame(() => run()),
  soon: (run) => setTimeout(run, 0),
  later: (run, ms) => setTimeout(run, ms),
};

/** Held panes are paced for this long after the last key. */
export const TYPING_MS = 1000;
/** After a key, held output waits this long at most for the echo (then the flooder gets its slice regardless). */
export const ECHO_WAIT_MS = 50;
/** Main-thread time per frame given to held output (of a 16.7 ms frame; the echo's frame is kept clear anyway). */
export const SLICE_MS = 8;
/**
 * Bytes handed to xterm at once (held output, and anything larger): its parse is a few milliseconds, so a slice ends
 * near its budget and no task parses much more.
 */
export const PIECE_BYTES = 16 * 1024;
/**
 * The slice and piece a pane's output gets while the user types into another pane (pane-output.ts). Half the above:
 * paired in one page (BENCH_ECHO_VS, 200 keys each), the echo's p99 while another pane floods was lower in four runs
 * of six (25.6–27.8 against 29.5–34.9 ms), equal in one and higher in one (29.2 against 27.1 ms), with the flooder at
 * 0.3 MB/s instead of 0.6–0.9 until the typing stops.
 */
export const TYPING_SLICE_MS = 4;
export const TYPING_PIECE_BYTES = 8 * 1024;
/**
 * Held output is fed this often (a timer), and looked at this often while an echo is due. Every feed changes the
 * flooding pane's rows and scrollbar, and a changed page is a frame: fed every 16 ms, Chromium drew continuously and
 * an echo waited two frames (p50 23 ms); fed every 100 ms, 7 ms, with the flooder at 0.3 MB/s while the user types.
 */
export const FEED_EVERY_MS = 100;
export const ECHO_POLL_MS = 4;

interface Piece {
  data: Uint8Array;
  parsed: (() => void) | undefined;
}

interface Held {
  target: PacedTarget;
  pieces: Piece[];
}

export class WritePacer {
  private typingPane: string | null = null;
  private typingUntil = -Infinity;
  private echoDueUntil = -Infinity;
  private readonly held = new Map<string, Held>();
  private scheduled = false;
  private feeding = false;
  private sliceStart = 0;
  /** Main-thread time per frame for held output, and the bytes of a held piece (the bench weighs other values). */
  sliceMs = SLICE_MS;
  pieceBytes = PIECE_BYTES;
  directPieceBytes = PIECE_BYTES;
  /**
   * Feed on timers rather than after animation frames: a page that asks for a frame every 16 ms keeps Chromium
   * drawing continuously, and an echo then waits a whole frame more (render-throttle.ts). The bench weighs false.
   */
  timers = true;
  feedEveryMs = FEED_EVERY_MS;

  constructor(private readonly clock: PacerClock = browserClock) {}

  /** A key went to `pane`: its echo comes first, the other panes are paced until the user pauses. */
  typed(pane: string): void {
    this.startTyping(pane);
  }

  /**
   * A key went to the page outside every pane (the history's search box, a dialog's field): every pane's output is
   * paced as while typing into one, and the frame showing the key's result is kept clear of their drawing. With a
   * hundred agents printing, a key in the history's search box waited up to 28 ms behind the panes' parsing and
   * drawing (docs/performance.md, "Typing in the history").
   */
  typedElsewhere(): void {
    this.startTyping(null);
    // No echo to parse: the key's own work (the page's re-render) is done by the next frame, which shows it.
    this.clock.frame(() => {
      this.echoDueUntil = -Infinity;
    });
  }

  /** Writes `data` for `pane` now, or after the output held for it, in order; `parsed` once xterm has parsed it. */
  write(pane: string, target: PacedTarget, data: Uint8Array, parsed?: () => void): void {
    if (pane === this.typingPane && !this.held.has(pane)) {
      writeInPieces(target, data, this.directPieceBytes, () => {
        parsed?.();
        this.echoParsed();
      });
      return;
    }
    if (!this.pacing() && !this.held.has(pane)) {
      writeInPieces(target, data, this.directPieceBytes, parsed);
      return;
    }
    let held = this.held.get(pane);
    if (!held) this.held.set(pane, (held = { target, pieces: [] }));
    for (let at = 0; at < data.length; at += this.pieceBytes) {
      const end = Math.min(at + this.pieceBytes, data.length);
      held.pieces.push({ data: data.subarray(at, end), parsed: end === data.length ? parsed : undefined });
    }
    this.schedule();
  }

  /** The pane's screen is being replaced (a reset from the core): output held for it is older than that screen. */
  discard(pane: string): void {
    this.held.delete(pane);
  }

  /** Bytes held for `pane` (for tests and the bench). */
  heldBytes(pane: string): number {
    return this.held.get(pane)?.pieces.reduce((n, p) => n + p.data.length, 0) ?? 0;
  }

  /** Whether the user is typing: other panes' output is paced. */
  pacing(): boolean {
    return this.clock.now() < this.typingUntil;
  }

  /** A keystroke's echo is due and not yet painted (other panes' drawing waits for it too: render-throttle.ts). */
  echoPending(): boolean {
    return this.echoDue();
  }

  /** Pacing ends now (switched off): everything held goes to xterm, in order. */
  release(): void {
    this.typingPane = null;
    this.typingUntil = -Infinity;
    this.echoDueUntil = -Infinity;
    if (!this.feeding) this.flush();
  }

  /** Paces every pane but `pane` (null: every pane) until the user pauses, and holds them while an echo is due. */
  private startTyping(pane: string | null): void {
    const now = this.clock.now();
    this.typingPane = pane;
    this.typingUntil = now + TYPING_MS;
    this.echoDueUntil = now + ECHO_WAIT_MS;
  }

  private echoDue(): boolean {
    return this.clock.now() < this.echoDueUntil;
  }

  /**
   * The echo is parsed: it is painted in the coming frame, and held output may go once that frame is drawn (a drain
   * is always scheduled while output is held: it runs after this frame's callbacks).
   */
  private echoParsed(): void {
    if (!this.echoDue()) return;
    this.clock.frame(() => {
      this.echoDueUntil = -Infinity;
    });
  }

  private schedule(): void {
    if (this.scheduled || this.feeding) return;
    this.scheduled = true;
    if (!this.timers) return this.clock.frame(() => this.clock.soon(() => this.drain()));
    this.clock.later(() => this.drain(), this.echoDue() ? ECHO_POLL_MS : this.feedEveryMs);
  }

  private drain(): void {
    this.scheduled = false;
    if (this.feeding || this.held.size === 0) return;
    if (!this.pacing()) return this.flush();
    if (this.echoDue() || this.sliceMs <= 0) return this.schedule();
    this.sliceStart = this.clock.now();
    this.feed();
  }

  /** One piece in flight at a time, the next once it is parsed, round the held panes, until the slice is spent. */
  private feed(): void {
    const next = this.held.entries().next();
    if (next.done) return;
    const [pane, held] = next.value;
    const piece = held.pieces.shift()!;
    // Round robin: the pane goes to the back of the line.
    this.held.delete(pane);
    if (held.pieces.length > 0) this.held.set(pane, held);
    this.feeding = true;
    held.target.write(piece.data, () => {
      this.feeding = false;
      piece.parsed?.();
      if (this.held.size === 0) return;
      if (!this.pacing()) return this.flush();
      if (this.clock.now() - this.sliceStart < this.sliceMs && !this.echoDue()) return this.feed();
      this.schedule();
    });
  }

  /** Nobody is typing: everything held goes to xterm now, in order (xterm paces its own parsing). */
  private flush(): void {
    const all = [...this.held.values()];
    this.held.clear();
    for (const held of all) for (const piece of held.pieces) held.target.write(piece.data, piece.parsed);
  }
}

/**
 * xterm parses each write whole, in one task, and yields only between writes: a pane's catch-up (up to the core's
 * 1 MiB ring in one frame) goes in pieces, so no single task parses more than a piece.
 */
function writeInPieces(target: PacedTarget, data: Uint8Array, piece: number, parsed: (() => void) | undefined): void {
  for (let at = 0; at < data.length; at += piece) {
    const end = Math.min(at + piece, data.length);
    target.write(data.subarray(at, end), end === data.length ? parsed : undefined);
  }
  if (data.length === 0) target.write(data, parsed);
}
