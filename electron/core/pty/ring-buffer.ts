// An offset-addressed ring of output bytes: a reader asks "from offset N" and gets bytes, or learns they are gone.
// The bytes live in one circular buffer, so a read is a view into it (no copy, no allocation) unless it crosses the
// buffer's end: a flood's 64 KiB frame used to be a concat of sixteen 4 KiB PTY reads, and every such copy was more
// garbage for the core's collector (docs/performance.md, "Flow control").

/** The first allocation; the buffer doubles up to the capacity as output arrives (an idle terminal stays small). */
const FIRST_BYTES = 64 * 1024;

export class RingBuffer {
  private buf: Buffer;
  /** Index in `buf` of the byte at `base`. */
  private head = 0;
  private bytes = 0;
  /** Offset of the first byte still held. */
  private base = 0;

  constructor(private readonly capacity: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.min(FIRST_BYTES, capacity));
  }

  get startOffset(): number {
    return this.base;
  }

  get endOffset(): number {
    return this.base + this.bytes;
  }

  append(chunk: Uint8Array): void {
    let data = chunk;
    if (data.length === 0) return;
    if (data.length >= this.capacity) {
      // One chunk as big as the whole ring: keep only its tail.
      const cut = data.length - this.capacity;
      this.base += this.bytes + cut;
      this.bytes = 0;
      this.head = 0;
      data = data.subarray(cut);
    }
    this.reserve(Math.min(this.capacity, this.bytes + data.length));
    const overflow = this.bytes + data.length - this.buf.length;
    if (overflow > 0) {
      // The oldest bytes make room (only once the buffer has grown to the capacity).
      this.head = (this.head + overflow) % this.buf.length;
      this.base += overflow;
      this.bytes -= overflow;
    }
    const tail = (this.head + this.bytes) % this.buf.length;
    const first = Math.min(data.length, this.buf.length - tail);
    this.buf.set(first === data.length ? data : data.subarray(0, first), tail);
    if (first < data.length) this.buf.set(data.subarray(first), 0);
    this.bytes += data.length;
  }

  /**
   * Bytes in [from, min(end, from + max)), or null when `from` is older than what the ring holds. The result is a view
   * of the ring when it can be (the bytes are contiguous): it stays valid until `capacity` more bytes are appended, so
   * a caller that keeps it longer than the turn it got it in copies it.
   */
  read(from: number, max = Infinity): Buffer | null {
    if (from < this.base || from > this.endOffset) return null;
    const want = Math.min(this.endOffset - from, max);
    if (want <= 0) return Buffer.alloc(0);
    const start = (this.head + (from - this.base)) % this.buf.length;
    if (start + want <= this.buf.length) return this.buf.subarray(start, start + want);
    const first = this.buf.length - start;
    return Buffer.concat([this.buf.subarray(start), this.buf.subarray(0, want - first)], want);
  }

  /** Grows the buffer (doubling, at most to the capacity) until it holds `need` bytes, keeping what it has in order. */
  private reserve(need: number): void {
    if (need <= this.buf.length) return;
    let size = this.buf.length;
    while (size < need) size = Math.min(this.capacity, size * 2);
    const next = Buffer.allocUnsafeSlow(size);
    const held = this.read(this.base);
    if (held) held.copy(next, 0);
    this.buf = next;
    this.head = 0;
  }
}
