// The ring a reconnecting pane catches up from: every read must give exactly the bytes at those offsets, across the
// buffer's growth and wrap, or report them gone; never bytes from elsewhere in the buffer.
import { describe, expect, it } from 'vitest';
import { RingBuffer } from '../../electron/core/pty/ring-buffer.js';

/** A deterministic byte stream: byte i of the output is (i * 7 + (i >> 9)) & 0xff. */
const OUTPUT = Buffer.alloc(8 << 20);
for (let i = 0; i < OUTPUT.length; i++) OUTPUT[i] = (i * 7 + (i >> 9)) & 0xff;
const stream = (from: number, n: number) => OUTPUT.subarray(from, from + n);

describe('the output ring', () => {
  it('gives back exactly the bytes at any offset it still holds, through growth and many wraps', () => {
    const capacity = 300_000;
    const ring = new RingBuffer(capacity);
    let end = 0;
    let seed = 1;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let step = 0; step < 400; step++) {
      // PTY-read-sized chunks, now and then a large one.
      const n = random() < 0.05 ? Math.floor(random() * 200_000) : Math.floor(random() * 8192);
      ring.append(stream(end, n));
      end += n;
      expect(ring.endOffset).toBe(end);
      expect(end - ring.startOffset).toBeLessThanOrEqual(capacity);
      expect(end - ring.startOffset).toBe(Math.min(end, capacity));
      const from = ring.startOffset + Math.floor(random() * (end - ring.startOffset + 1));
      const max = Math.floor(random() * 70_000);
      const got = ring.read(from, max)!;
      expect(got.length).toBe(Math.min(max, end - from));
      expect(got.equals(stream(from, got.length))).toBe(true);
    }
    expect(ring.read(ring.startOffset - 1)).toBeNull();
    expect(ring.read(end + 1)).toBeNull();
    expect(ring.read(end)!.length).toBe(0);
  });

  it('keeps only the tail of a chunk larger than itself', () => {
    const ring = new RingBuffer(1000);
    ring.append(stream(0, 10));
    ring.append(stream(10, 2500));
    expect(ring.startOffset).toBe(1510);
    expect(ring.endOffset).toBe(2510);
    expect(ring.read(1510)!.equals(stream(1510, 1000))).toBe(true);
    ring.append(stream(2510, 300));
    expect(ring.read(1810)!.equals(stream(1810, 1000))).toBe(true);
  });
});
