// The core's side of acknowledged input (docs/hosts.md, "Keys are never lost nor typed twice"): per terminal and
// input channel, the highest numbered input frame written to the PTY. It outlives the connection a frame came on (a
// sender re-sends after a reconnect, on a new connection): a number already written is dropped, so a key re-sent is
// never typed twice. Confirmations go back batched, one message per stream per ACK_DELAY_MS at most.
import type { ServerMessage } from '../../../shared/contract.js';

/** Channels remembered per core; the least recently used is forgotten first (a sender long gone). */
const MAX_CHANNELS = 4096;
/** Confirmations wait this long to gather the keys that follow (the sender never waits for them). */
const ACK_DELAY_MS = 30;

export class InputSequences {
  private readonly written = new Map<string, number>();

  /** What the core has written of this terminal's channel (0: nothing yet). */
  writtenOf(terminalId: string, channel: string): number {
    return this.written.get(key(terminalId, channel)) ?? 0;
  }

  /**
   * Takes frame `seq` of the channel: true when it is new (the caller writes it, in the order frames arrive), false
   * when that number or a later one was already written (a re-sent duplicate).
   */
  take(terminalId: string, channel: string, seq: number): boolean {
    const k = key(terminalId, channel);
    const last = this.written.get(k) ?? 0;
    // Re-inserted: the Map's order is then the order of last use.
    this.written.delete(k);
    this.written.set(k, Math.max(last, seq));
    if (this.written.size > MAX_CHANNELS) this.written.delete(this.written.keys().next().value!);
    return seq > last;
  }
}

const key = (terminalId: string, channel: string) => `${terminalId}\n${channel}`;

const perCore = new WeakMap<object, InputSequences>();

/** The one record of a core, shared by all its client sessions. */
export function inputSequencesOf(core: object): InputSequences {
  let sequences = perCore.get(core);
  if (!sequences) perCore.set(core, (sequences = new InputSequences()));
  return sequences;
}

/** One session's pending confirmations: the highest written number per stream, sent together after a short wait. */
export class InputAcks {
  private readonly due = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly send: (message: ServerMessage) => void) {}

  written(stream: number, seq: number): void {
    this.due.set(stream, Math.max(this.due.get(stream) ?? 0, seq));
    this.timer ??= setTimeout(() => this.flush(), ACK_DELAY_MS);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.due.clear();
  }

  private flush(): void {
    this.timer = null;
    for (const [stream, seq] of this.due) this.send({ t: 'inputAck', stream, seq });
    this.due.clear();
  }
}
