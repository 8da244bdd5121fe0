// A flood goes to a client that acks at once (another core, over ssh) in whole frames: the read that crosses the
// frame size no longer goes as a frame of a few KiB of its own after every full one (half of a flood's frames, each a
// wake-up of every process of a remote chain and an ack back). What is left past a whole frame still arrives within
// the coalescing time, byte for byte; and a hidden pane far behind no longer makes every read a frame for the others.
// The clock is faked: the test depends on the order of events only, never on how fast the machine is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';

const READ = 4095; // a PTY read, as Linux hands it over (never a divisor of the frame size)
const screen = () => Promise.resolve({ offset: 0, cols: 80, rows: 24, serialized: '', text: '' });

/** A client acking each frame on receipt; its acks reach the core one read later (a round trip). */
async function fastClient(stream: OutputStream, visible = true) {
  const frames: { offset: number; data: Buffer; at: number }[] = [];
  let acks: number[] = [];
  const { subscription } = await stream.attach(
    0,
    visible,
    (f) => {
      if (f.kind !== 'bytes') return;
      frames.push({ offset: f.offset, data: Buffer.from(f.data), at: performance.now() });
      acks.push(f.offset + f.data.length);
    },
    'core',
  );
  return {
    frames,
    subscription,
    ackArrived: () => {
      for (const offset of acks) subscription.ack(offset);
      acks = [];
    },
  };
}

/** Pushes `reads` PTY reads `everyMs` apart, the client's acks arriving in between; returns what was written. */
function flood(stream: OutputStream, reads: number, everyMs: number, ackArrived: () => void): Buffer {
  const written: Buffer[] = [];
  for (let i = 0; i < reads; i++) {
    const read = Buffer.alloc(READ, 33 + (i % 90));
    written.push(read);
    stream.push(read);
    ackArrived();
    vi.advanceTimersByTime(everyMs);
  }
  return Buffer.concat(written);
}

describe('a flood in whole frames', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a flood acked at once as whole frames, the rest within the coalescing time, byte for byte', async () => {
    const stream = new OutputStream(screen as never, () => undefined);
    const client = await fastClient(stream);
    vi.advanceTimersByTime(1); // the attach's own pump
    // 1 MiB at ~60 MB/s (a read every 0.07 ms): 8 frames' worth.
    const everyMs = 0.07;
    const written = flood(stream, 256, everyMs, client.ackArrived);
    const lastReadAt = performance.now() - everyMs;
    vi.advanceTimersByTime(FLOW.coalesceMs);

    const { frames } = client;
    expect(Buffer.concat(frames.map((f) => f.data)).equals(written)).toBe(true);
    frames.forEach((f, k) => k > 0 && expect(f.offset).toBe(frames[k - 1]!.offset + frames[k - 1]!.data.length));
    // The last bytes waited at most the coalescing time after the last read.
    expect(frames.at(-1)!.at - lastReadAt).toBeLessThanOrEqual(FLOW.coalesceMs);
    const short = frames.filter((f) => f.data.length < FLOW.maxChunkBytes);
    const full = frames.length - short.length;
    // A short frame only when the coalescing timer fires (every coalesceMs of the flood) and at its end: it used to
    // follow every full frame (8 full, 8 short).
    const floodMs = 256 * everyMs;
    expect(short.length).toBeLessThanOrEqual(Math.ceil(floodMs / FLOW.coalesceMs) + 1);
    expect(short.length).toBeLessThan(full);
    stream.dispose();
  });

  it('coalesces a visible client while a hidden one is far behind', async () => {
    const stream = new OutputStream(screen as never, () => undefined);
    await fastClient(stream, false); // a hidden pane: sent nothing, more than a frame behind
    const client = await fastClient(stream);
    vi.advanceTimersByTime(1);
    const before = flood(stream, 64, 0.07, client.ackArrived); // 256 KiB: the hidden pane is now far behind
    vi.advanceTimersByTime(FLOW.coalesceMs);
    const framesBefore = client.frames.length;
    // A steady trickle: a read every 0.5 ms, acked before the next (never a quiet gap of its own).
    const trickle = flood(stream, 40, 0.5, client.ackArrived);
    vi.advanceTimersByTime(FLOW.coalesceMs);

    const frames = client.frames.slice(framesBefore);
    expect(Buffer.concat(client.frames.map((f) => f.data)).equals(Buffer.concat([before, trickle]))).toBe(true);
    // 20 ms of output in frames of up to coalesceMs each (it was a frame per read: 40).
    expect(frames.length).toBeLessThanOrEqual(Math.ceil((40 * 0.5) / FLOW.coalesceMs) + 2);
    stream.dispose();
  });
});
