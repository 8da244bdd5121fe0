// A hidden pane is kept nearly current at a low rate (docs/performance.md, switch7): its agent's output after a quiet
// spell is sent at once, more of it at most once every FLOW.hiddenEveryMs, and a flood (more than the catch-up
// allowance behind) not at all: shown, that pane is given the mirror's screen instead.
import { describe, expect, it } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';

const screen = () => Promise.resolve({ offset: 0, cols: 80, rows: 24, serialized: 'screen', text: 'screen' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function hiddenClient() {
  const stream = new OutputStream(screen as never, () => undefined);
  const frames: StreamFrame[] = [];
  const { subscription } = await stream.attach(0, false, (f) => frames.push(f));
  const bytes = () => frames.reduce((n, f) => n + (f.kind === 'bytes' ? f.data.length : 0), 0);
  // The page acks what it parsed, as a pane does.
  const ackAll = () =>
    subscription.ack(frames.reduce((o, f) => (f.kind === 'bytes' ? f.offset + f.data.length : o), 0));
  return { stream, subscription, frames, bytes, ackAll };
}

describe('a hidden pane', () => {
  it("is sent a quiet agent's line at once, and a busy agent's at most once per cadence", async () => {
    const c = await hiddenClient();
    c.stream.push(Buffer.from('one line\r\n'));
    await sleep(FLOW.coalesceMs * 4);
    expect(c.bytes()).toBe(10);
    c.ackAll();
    c.stream.push(Buffer.from('two\r\n'));
    await sleep(FLOW.coalesceMs * 4);
    expect(c.bytes()).toBe(10); // within the cadence: it waits
    await sleep(FLOW.hiddenEveryMs);
    expect(c.bytes()).toBe(15);
    c.stream.dispose();
  });

  it('is sent at most its budget in flight, and nothing of a flood; shown, it is given the screen', async () => {
    const c = await hiddenClient();
    c.stream.push(Buffer.alloc(FLOW.hiddenBudget * 2, 'x'.charCodeAt(0)));
    await sleep(FLOW.coalesceMs * 4);
    expect(c.bytes()).toBe(FLOW.hiddenBudget);
    c.stream.push(Buffer.alloc(FLOW.catchUpBytes, 'y'.charCodeAt(0)));
    c.ackAll();
    await sleep(FLOW.hiddenEveryMs * 2);
    expect(c.bytes()).toBe(FLOW.hiddenBudget);
    c.subscription.setVisible(true);
    await sleep(FLOW.coalesceMs * 4);
    expect(c.frames.some((f) => f.kind === 'reset')).toBe(true);
    c.stream.dispose();
  });
});
