// The local screen of a remote terminal, parsed only when someone asks for it (docs/hosts.md, "One parse"). The remote
// core already parses every byte into its own mirror; parsing them all again here halved a remote pane's throughput.
// So output is only held (references to the chunks, up to a ring's worth, with the resizes between them) and parsed
// when a screen is wanted: a snapshot, a pane's reset, the attention watch after output settled. When more than that
// arrived since the last screen, the remote core's screen is the starting point and only what followed is parsed.
import type { Screen } from '../../../shared/contract.js';
import type { Disposable } from '../lifecycle.js';
import { FLOW } from '../pty/flow.js';
import { Mirror, type MirrorScreen } from '../pty/mirror.js';

type Held = Buffer | { cols: number; rows: number };

export class LazyMirror implements Disposable {
  private mirror: Mirror | null = null;
  /** What arrived since the mirror was last fed, in order; null when more than a ring's worth arrived. */
  private held: Held[] | null = [];
  private heldBytes = 0;
  /** The local stream's offset of the next byte written here. */
  private end = 0;
  /** Local offset = mirror offset + this (the mirror may have started from a remote screen at a later offset). */
  private shift = 0;
  private cols: number;
  private rows: number;
  /** The size the stream began with, for a mirror that starts from its first byte. */
  private readonly initial: { cols: number; rows: number };
  /** Captures run one after another: each may replace the mirror. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(
    cols: number,
    rows: number,
    /** The remote core's screen of this terminal now (null: it cannot be reached). */
    private readonly remoteScreen: () => Promise<Screen | null>,
  ) {
    this.cols = cols;
    this.rows = rows;
    this.initial = { cols, rows };
  }

  /** Bytes as they enter the local stream (the same offsets). */
  write(chunk: Buffer): void {
    this.end += chunk.length;
    if (!this.held) return;
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes > FLOW.ringBytes) {
      this.held = null;
      this.heldBytes = 0;
    }
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.held?.push({ cols, rows });
  }

  /**
   * The screen with everything written so far applied; `offset` is the local stream's. `scrollback` and `soon` are
   * the mirror's own (`Mirror.capture`): a bounded history, and a screen as of the mirror's next write boundary.
   */
  capture(textLines?: number, scrollback?: number, soon = false): Promise<MirrorScreen> {
    const next = this.queue.then(() => this.captureNow(textLines, scrollback, soon));
    this.queue = next.catch(() => undefined);
    return next;
  }

  dispose(): void {
    this.disposed = true;
    this.mirror?.dispose();
    this.mirror = null;
    this.held = null;
  }

  private async captureNow(textLines?: number, scrollback?: number, soon = false): Promise<MirrorScreen> {
    if (this.disposed) throw new Error('the terminal was closed: its screen is no longer kept');
    if (!this.held || !this.mirror) await this.restart();
    const mirror = this.mirror!;
    for (const item of this.held ?? []) {
      if (Buffer.isBuffer(item)) mirror.write(item);
      else mirror.resize(item.cols, item.rows);
    }
    this.held = [];
    this.heldBytes = 0;
    const screen = await mirror.capture(textLines, scrollback, soon);
    return { ...screen, offset: screen.offset + this.shift };
  }

  /**
   * A fresh mirror. With nothing lost it starts from the beginning of the stream; otherwise from the remote core's
   * screen, taken as of what this side has received when it answers (the remote terminal may have written a little
   * more meanwhile, during a flood: those lines then show twice in the scrollback, never missing).
   */
  private async restart(): Promise<void> {
    const lost = this.held === null;
    const screen = lost ? await this.remoteScreen().catch(() => null) : null;
    if (this.disposed) throw new Error('the terminal was closed: its screen is no longer kept');
    this.mirror?.dispose();
    const cols = screen?.cols ?? (lost ? this.cols : this.initial.cols);
    const rows = screen?.rows ?? (lost ? this.rows : this.initial.rows);
    this.mirror = new Mirror(cols, rows, FLOW.mirrorScrollback);
    if (!lost) return;
    // What follows the screen is what arrives from now on.
    const prefix = Buffer.from(screen?.serialized ?? '', 'utf8');
    if (prefix.length > 0) this.mirror.write(prefix);
    this.shift = this.end - prefix.length;
    this.held = cols === this.cols && rows === this.rows ? [] : [{ cols: this.cols, rows: this.rows }];
    this.heldBytes = 0;
  }
}
