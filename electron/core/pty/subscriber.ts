// One client's view of a terminal's output: where it has been sent to and what it has acknowledged.
import type { Disposable } from '../lifecycle.js';
import { FLOW } from './flow.js';

/**
 * What a client is sent. `data` is a view of the terminal's ring (ring-buffer.ts), not a copy: it stays valid until the
 * ring has taken a ring's worth of newer output, so a client that keeps it beyond the turn it got it in copies it.
 */
export type StreamFrame =
  | { kind: 'bytes'; offset: number; data: Buffer }
  | { kind: 'reset'; offset: number; cols: number; rows: number; screen: string };

/** Who reads the stream: a page's terminal, or another core that keeps its own copy and acks on receipt. */
export type StreamConsumer = 'pane' | 'core';

export class Subscriber implements Disposable {
  /** Set once the client is gone: a reset still being prepared for it is dropped. */
  closed = false;

  constructor(
    /** Next offset to send. */
    public sent: number,
    /** Everything below this offset has been written into the client's view. */
    public acked: number,
    public visible: boolean,
    readonly deliver: (frame: StreamFrame) => void,
    /** Unacknowledged bytes it may have in flight while visible and not paced. */
    readonly window: number = FLOW.visibleBudget,
    /** Lines of history its resets carry at most (a pane's bounded catch-up); all the mirror has when undefined. */
    readonly scrollback?: number,
    /**
     * A flood goes to it in whole frames only, a rest waiting for the next frame or the coalescing timer: another core
     * reading the stream (a remote agent's local side), for which every frame is a wake-up of each process of the chain
     * and an ack back. A page keeps its frames as they were (its throughput was not measured better either way).
     */
    readonly wholeFrames = false,
  ) {}

  /**
   * Its share of the terminal's backlog: what it has not acknowledged beyond its own window's excess over a pane's,
   * so a larger window is used before the PTY waits, and the ring still holds everything it has not acknowledged.
   */
  pressure(endOffset: number): number {
    return endOffset - this.acked - (this.window - FLOW.visibleBudget);
  }

  /** When it was last sent output while hidden (FLOW.hiddenEveryMs). */
  hiddenSentAt = -Infinity;

  /** Held to a small budget while the user types elsewhere (FLOW.pacedBudget). */
  paced = false;

  ack(offset: number): void {
    // An ack can never run ahead of what was sent; a bogus one must not open the budget.
    if (offset > this.acked) this.acked = Math.min(offset, this.sent);
  }

  inFlight(): number {
    return this.sent - this.acked;
  }

  dispose(): void {
    this.closed = true;
  }
}
