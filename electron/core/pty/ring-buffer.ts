// An offset-addressed ring of output chunks: a reader asks "from offset N" and gets bytes, or learns they are gone.

export class RingBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** Offset of the first byte still held. */
  private base = 0;

  constructor(private readonly capacity: number) {}

  get startOffset(): number {
    return this.base;
  }

  get endOffset(): number {
    return this.base + this.bytes;
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes - (this.chunks[0]?.length ?? 0) >= this.capacity && this.chunks.length > 1) {
      this.dropFirst();
    }
    if (this.bytes > this.capacity && this.chunks.length === 1) {
      // One chunk bigger than the whole ring: keep only its tail.
      const only = this.chunks[0]!;
      const cut = only.length - this.capacity;
      this.chunks[0] = only.subarray(cut);
      this.base += cut;
      this.bytes -= cut;
    }
  }

  /** Bytes in [from, min(end, from + max)), or null when `from` is older than what the ring holds. */
  read(from: number, max = Infinity): Buffer | null {
    if (from < this.base || from > this.endOffset) return null;
    const want = Math.min(this.endOffset - from, max);
    if (want <= 0) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    let skip = from - this.base;
    let left = want;
    for (const chunk of this.chunks) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      const piece = chunk.subarray(skip, Math.min(chunk.length, skip + left));
      parts.push(piece);
      left -= piece.length;
      skip = 0;
      if (left === 0) break;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, want);
  }

  private dropFirst(): void {
    const first = this.chunks.shift()!;
    this.bytes -= first.length;
    this.base += first.length;
  }
}
