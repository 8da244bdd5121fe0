// The sender's side of acknowledged input (docs/hosts.md, "Keys are never lost nor typed twice"). One ledger per
// agent for the life of the sender's copy of it, across every attach and reconnect: each piece typed gets the next
// number of the ledger's channel and a copy is kept until the core confirms it wrote it to the PTY. While no stream is
// bound (the connection is down, or being set up) pieces are only kept; when a stream is bound again the core says
// what it already wrote and only what follows is sent again, so a key is neither lost nor typed twice.
// The copies are bounded (64 KiB): what does not fit is sent without a copy on a live stream, and refused while none
// is bound; either way the user is told when such input did not reach the agent, never silently.

/** Unconfirmed input kept per agent. */
export const INPUT_LEDGER_BYTES = 64 * 1024;

/** Keys pasted in one go go in pieces of at most this many UTF-16 units (≤ 48 KiB of UTF-8 each). */
export const INPUT_PIECE = 16 * 1024;

export interface NumberedInput {
  seq: number;
  data: Uint8Array;
}

export type InputSender = (input: NumberedInput) => void;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `text` in pieces of at most INPUT_PIECE units, never split inside a surrogate pair (each piece is whole UTF-8). */
export function inputPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + INPUT_PIECE);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/** 128 random bits as hex (getRandomValues: randomUUID exists only in secure contexts, and a page may be served over http). */
function randomChannel(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} byte${bytes === 1 ? '' : 's'}` : `${Math.ceil(bytes / 1024)} KiB`;

export class InputLedger {
  /** The channel named in each attach: the core's numbers for this ledger are kept under it. */
  readonly channel: string;
  private lastSeq = 0;
  /** The highest number the core has confirmed. */
  private written = 0;
  /** Copies of what was numbered and not yet confirmed, in order. */
  private kept: NumberedInput[] = [];
  private keptBytes = 0;
  /** Pieces sent without a copy (the copies were full): lost if the connection drops before they are confirmed. */
  private uncopied: { seq: number; bytes: number }[] = [];
  /** Pieces refused while no stream was bound and the copies were full, since the last bind. */
  private refusedBytes = 0;
  private send: InputSender | null = null;
  private readonly encoder = new TextEncoder();

  constructor(
    /** Tells the user, in the agent's pane, that input did not reach the agent. */
    private readonly tell: (message: string) => void,
    private readonly limit = INPUT_LEDGER_BYTES,
    channel: string = randomChannel(),
  ) {
    this.channel = channel;
  }

  /** Bytes kept for a re-send. */
  get pendingBytes(): number {
    return this.keptBytes;
  }

  /** Numbers, keeps and (when a stream is bound) sends what the user typed. */
  type(text: string): void {
    for (const piece of inputPieces(text)) {
      const data = this.encoder.encode(piece);
      if (data.length === 0) continue;
      const fits = this.keptBytes + data.length <= this.limit;
      if (!fits && !this.send) {
        if (this.refusedBytes === 0)
          this.tell(
            `input not delivered: ${size(this.keptBytes)} typed while disconnected is already waiting; ` +
              'what you type now is dropped until the connection is back',
          );
        this.refusedBytes += data.length;
        continue;
      }
      const input = { seq: ++this.lastSeq, data };
      if (fits) {
        this.kept.push(input);
        this.keptBytes += data.length;
      } else this.uncopied.push({ seq: input.seq, bytes: data.length });
      this.send?.(input);
    }
  }

  /**
   * The core has written everything of this channel up to `seq`. A number this ledger never gave (a core that is
   * confused, or not the one these were sent to) changes nothing.
   */
  acknowledge(seq: number): void {
    if (!Number.isSafeInteger(seq) || seq <= this.written || seq > this.lastSeq) return;
    this.written = seq;
    let dropped = 0;
    while (dropped < this.kept.length && this.kept[dropped]!.seq <= seq)
      this.keptBytes -= this.kept[dropped++]!.data.length;
    if (dropped > 0) this.kept = this.kept.slice(dropped);
    if (this.uncopied.length > 0) this.uncopied = this.uncopied.filter((u) => u.seq > seq);
  }

  /**
   * A stream is attached: the core has written up to `written` of this channel. What follows is sent again, in
   * order, then new input goes out as it is typed. Pieces sent without a copy that the core does not have are lost:
   * the user is told how much.
   */
  bind(written: number, send: InputSender): void {
    this.acknowledge(written);
    const lost = this.uncopied.filter((u) => u.seq > this.written).reduce((n, u) => n + u.bytes, 0);
    this.uncopied = [];
    if (lost > 0)
      this.tell(
        `input not delivered: ${size(lost)} typed just before the connection dropped did not arrive ` +
          `(more than ${size(this.limit)} was unconfirmed); check what the agent received`,
      );
    if (this.refusedBytes > 0)
      this.tell(
        `input not delivered: ${size(this.refusedBytes)} of what you typed while disconnected was dropped; ` +
          'type it again',
      );
    this.refusedBytes = 0;
    this.send = send;
    for (const input of this.kept) if (input.seq > this.written) send(input);
  }

  /** The stream `send` belonged to is gone: keep what is typed until the next bind. */
  unbind(send: InputSender): void {
    if (this.send === send) this.send = null;
  }
}
