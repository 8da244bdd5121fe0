// The frame and window sizes the bench's paired runs switch (BATON_OUTPUT_FRAME_KIB, BATON_OUTPUT_WINDOW_KIB, read by
// electron/core/pty/flow.ts): whatever they are set to, what a client can leave unacknowledged stays within the ring
// (a dropped connection resumes byte-exact), a remote stream is acked while most of a window is unacknowledged, a pane gets its whole window in frames no larger than the frame size,
// and a value out of range leaves the shipped sizes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';

async function flowWith(env: Record<string, string>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  const { FLOW } = await import('../../electron/core/pty/flow.js');
  const { OutputStream } = await import('../../electron/core/pty/output-stream.js');
  return { FLOW, OutputStream };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const screen = () => Promise.resolve({ offset: 0, cols: 80, rows: 24, serialized: '', text: '' });

describe('flow sizes from the environment', () => {
  for (const env of [
    {} as Record<string, string>,
    { BATON_OUTPUT_FRAME_KIB: '256' },
    { BATON_OUTPUT_WINDOW_KIB: '2048', BATON_OUTPUT_FRAME_KIB: '256' },
    { BATON_OUTPUT_WINDOW_KIB: '256', BATON_OUTPUT_FRAME_KIB: '1024' },
  ])
    it(`keeps the unacknowledged within the ring and sends a pane its window (${JSON.stringify(env)})`, async () => {
      const { FLOW, OutputStream } = await flowWith(env);
      // All a client can leave unacknowledged: the PTY pauses above highWatermark, a core's window is larger.
      expect(FLOW.highWatermark + FLOW.coreBudget - FLOW.visibleBudget).toBeLessThan(FLOW.ringBytes);
      expect(FLOW.lowWatermark).toBeLessThan(FLOW.visibleBudget);
      expect(FLOW.highWatermark).toBeGreaterThan(FLOW.visibleBudget);
      // A remote stream is acked while the local pane has this much unacknowledged (remote-terminal.ts): most of a window.
      expect(FLOW.ringBytes - FLOW.coreBudget - 2 * FLOW.maxChunkBytes).toBeGreaterThanOrEqual(
        FLOW.visibleBudget * 0.6,
      );

      const stream = new OutputStream(screen as never, () => undefined);
      const frames: Extract<StreamFrame, { kind: 'bytes' }>[] = [];
      const { subscription } = await stream.attach(0, true, (f) => {
        if (f.kind === 'bytes') frames.push(f);
      });
      const total = FLOW.ringBytes - 1024;
      stream.push(Buffer.alloc(total, 'z'.charCodeAt(0)));
      await new Promise((r) => setTimeout(r, FLOW.coalesceMs * 4));
      const received = () => frames.reduce((n, f) => n + f.data.length, 0);
      expect(received()).toBe(FLOW.visibleBudget);
      subscription.ack(received());
      expect(received()).toBe(Math.min(total, 2 * FLOW.visibleBudget));
      expect(Math.max(...frames.map((f) => f.data.length))).toBe(FLOW.maxChunkBytes);
      // In order, no gap: the offsets follow one another.
      frames.forEach((f, k) => k > 0 && expect(f.offset).toBe(frames[k - 1]!.offset + frames[k - 1]!.data.length));
      stream.dispose();
    });

  it('sizes a frame and a window as asked, and ignores values out of range', async () => {
    let { FLOW } = await flowWith({ BATON_OUTPUT_FRAME_KIB: '256', BATON_OUTPUT_WINDOW_KIB: '2048' });
    expect([FLOW.maxChunkBytes, FLOW.coalesceBytes, FLOW.visibleBudget]).toEqual([256 << 10, 256 << 10, 2 << 20]);
    vi.unstubAllEnvs();
    ({ FLOW } = await flowWith({ BATON_OUTPUT_FRAME_KIB: 'lots', BATON_OUTPUT_WINDOW_KIB: '1' }));
    const shipped = await flowWith({});
    expect(FLOW).toEqual(shipped.FLOW);
  });
});
