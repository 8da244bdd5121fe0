// One client's view of a terminal's output: where it has been sent to and what it has acknowledged.
import type { Disposable } from '../lifecycle.js';

export type StreamFrame =
  | { kind: 'bytes'; offset: number; data: Buffer }
  | { kind: 'reset'; offset: number; cols: number; rows: number; screen: string };

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
  ) {}

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
