// A keystroke's echo reaches the client at once, even when it follows the previous echo closely: output within the
// quiet spell after a send is coalesced (a flood goes in few frames), and an echo typed fast used to wait out that
// timer. The clock is faked, so the test depends on the order of events only, never on how fast the machine is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';

const screen = () => Promise.resolve({ offset: 0, cols: 80, rows: 24, serialized: '', text: '' });

/** A stream with one client that acks each frame on receipt; `sent()` is the text it got so far. */
async function attached() {
  const stream = new OutputStream(screen as never, () => undefined);
  let text = '';
  const { subscription } = await stream.attach(0, true, (f) => {
    if (f.kind !== 'bytes') return;
    text += Buffer.from(f.data).toString('latin1');
    subscription.ack(f.offset + f.data.length);
  });
  vi.advanceTimersByTime(1); // the attach's own pump
  return { stream, sent: () => text };
}

describe('the echo of a key', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('goes out at once when typed right after the last echo, without waiting for the coalescing timer', async () => {
    const { stream, sent } = await attached();
    vi.advanceTimersByTime(FLOW.quietMs * 10);
    stream.inputSent();
    stream.push(Buffer.from('a'));
    expect(sent()).toBe('a');
    // The next key, well within the quiet spell after that send.
    vi.advanceTimersByTime(FLOW.quietMs / 4);
    stream.inputSent();
    stream.push(Buffer.from('b'));
    expect(sent()).toBe('ab');
    stream.dispose();
  });

  it('still coalesces output that no input asked for (a flood goes in few frames)', async () => {
    const { stream, sent } = await attached();
    vi.advanceTimersByTime(FLOW.quietMs * 10);
    stream.push(Buffer.from('x'));
    expect(sent()).toBe('x');
    vi.advanceTimersByTime(FLOW.quietMs / 4);
    stream.push(Buffer.from('y'));
    stream.push(Buffer.from('z'));
    expect(sent()).toBe('x');
    vi.advanceTimersByTime(FLOW.coalesceMs);
    expect(sent()).toBe('xyz');
    stream.dispose();
  });

  it('sends only the first output after a key at once: what follows it is coalesced again', async () => {
    const { stream, sent } = await attached();
    vi.advanceTimersByTime(FLOW.quietMs / 4);
    stream.inputSent();
    stream.push(Buffer.from('a'));
    expect(sent()).toBe('a');
    stream.push(Buffer.from('1'));
    stream.push(Buffer.from('2'));
    expect(sent()).toBe('a');
    vi.advanceTimersByTime(FLOW.coalesceMs);
    expect(sent()).toBe('a12');
    stream.dispose();
  });
});
