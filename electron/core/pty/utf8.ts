// Output is cut into messages without ever splitting a UTF-8 sequence across two of them.

/** The largest end ≤ `end` such that buf[start, end) does not stop inside a UTF-8 sequence. */
export function utf8SafeEnd(buf: Uint8Array, start: number, end: number): number {
  // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
  let i = end - 1;
  let continuations = 0;
  while (i >= start && continuations < 3 && (buf[i]! & 0xc0) === 0x80) {
    i--;
    continuations++;
  }
  if (i < start) return end;
  const lead = buf[i]!;
  const needed = lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (needed === 1) return end;
  return end - i >= needed ? end : i;
}
