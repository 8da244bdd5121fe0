// A flood reaches a client in few large frames even when the client acks each frame at once: every frame costs the
// core a syscall and the page a task, and a frame per PTY read (~4 KiB) left the page waiting between them. The
// clock is faked, so the test depends on the order of events only, never on how fast the machine is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';

const READ = 4096;
const READS = 64;
const screen = () => Promise.resolve({ offset: 0, cols: 80, rows: 24, serialized: '', text: '' });

describe('coalescing a flood for a client that acks at once', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends 64 PTY reads as a few frames of up to 64 KiB, byte for byte, not a frame per read', async () => {
    const stream = new OutputStream(screen as never, () => undefined);
    const frames: { offset: number; data: Buffer }[] = [];
    // As a client that acks on receipt: each frame's ack reaches the core one PTY read later (its round trip).
    let acks: number[] = [];
    const { subscription } = await stream.attach(0, true, (f) => {
      if (f.kind !== 'bytes') return;
      frames.push({ offset: f.offset, data: Buffer.from(f.data) });
      acks.push(f.offset + f.data.length);
    });
    vi.advanceTimersByTime(1); // the attach's own pump
    const written: Buffer[] = [];
    for (let i = 0; i < READS; i++) {
      const arrived = acks;
      acks = [];
      const read = Buffer.alloc(READ, 33 + (i % 90));
      written.push(read);
      stream.push(read);
      for (const offset of arrived) subscription.ack(offset);
      vi.advanceTimersByTime(0.1);
    }
    vi.advanceTimersByTime(FLOW.coalesceMs * 2);

    expect(Buffer.concat(frames.map((f) => f.data)).equals(Buffer.concat(written))).toBe(true);
    let at = 0;
    for (const f of frames) {
      expect(f.offset).toBe(at);
      expect(f.data.length).toBeLessThanOrEqual(FLOW.maxChunkBytes);
      at += f.data.length;
    }
    // 256 KiB in 6.4 ms: 64 KiB frames (the stream used to answer each ack with the one read since: 49 frames).
    expect(frames.length).toBeLessThanOrEqual(8);
    stream.dispose();
  });
});
