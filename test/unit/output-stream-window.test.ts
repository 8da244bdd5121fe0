// The flow window of a stream read by another core (a remote agent's local side, docs/hosts.md): it may have more
// unacknowledged bytes in flight than a page, its larger window does not pause the PTY earlier, and what it has not
// acknowledged always stays within the ring, so a dropped connection still resumes byte-exact.
import { describe, expect, it } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';
import type { StreamConsumer, StreamFrame } from '../../electron/core/pty/subscriber.js';

const screen = () => Promise.resolve({ offset: 0, cols: 80, rows: 24, serialized: '', text: '' });

async function subscribed(consumer: StreamConsumer) {
  const stream = new OutputStream(screen as never, () => undefined);
  const frames: Extract<StreamFrame, { kind: 'bytes' }>[] = [];
  const { subscription } = await stream.attach(
    0,
    true,
    (f) => {
      if (f.kind === 'bytes') frames.push(f);
    },
    consumer,
  );
  const received = () => frames.reduce((n, f) => n + f.data.length, 0);
  return { stream, subscription, received };
}

describe('the flow window of a stream', () => {
  it('sends a core up to its larger window without acks, a pane only up to its own', async () => {
    const total = FLOW.ringBytes - 1024;
    for (const [consumer, window] of [
      ['pane', FLOW.visibleBudget],
      ['core', FLOW.coreBudget],
    ] as const) {
      const { stream, subscription, received } = await subscribed(consumer);
      stream.push(Buffer.alloc(total, 'x'.charCodeAt(0)));
      await new Promise((r) => setTimeout(r, FLOW.coalesceMs * 4));
      expect(received()).toBe(window);
      // Acknowledging what arrived opens the window again, up to everything written.
      subscription.ack(received());
      subscription.ack(received());
      expect(received()).toBe(Math.min(total, 3 * window));
      stream.dispose();
    }
  });

  it('counts a core as far behind as a pane at the same share of its window, within the ring', async () => {
    expect(FLOW.coreBudget).toBeGreaterThan(FLOW.visibleBudget);
    expect(FLOW.highWatermark + FLOW.coreBudget - FLOW.visibleBudget).toBeLessThan(FLOW.ringBytes);
    const pane = await subscribed('pane');
    const core = await subscribed('core');
    for (const s of [pane, core]) {
      s.stream.push(Buffer.alloc(FLOW.ringBytes - 1024, 'y'.charCodeAt(0)));
      await new Promise((r) => setTimeout(r, FLOW.coalesceMs * 4));
    }
    // The same bytes unacknowledged: the core's excess window is not pressure, the rest is.
    expect(core.stream.pressure()).toBe(pane.stream.pressure() - (FLOW.coreBudget - FLOW.visibleBudget));
    core.subscription.ack(core.received());
    expect(core.stream.pressure()).toBe(
      FLOW.ringBytes - 1024 - FLOW.coreBudget - (FLOW.coreBudget - FLOW.visibleBudget),
    );
    pane.stream.dispose();
    core.stream.dispose();
  });
});
