// A first visit's catch-up (a stream's reset, a `soon` capture) does not wait behind other terminals' output: every
// terminal's mirror parses on one thread, and a pane shown while a hundred agents print must get its screen at once.
// Real mirrors on their worker thread, and a real headless xterm standing for the pane.
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../electron/core/pty/mirror.js';

const { Terminal } = xtermHeadless;
const mirrors: Mirror[] = [];
afterEach(() => {
  for (const m of mirrors.splice(0)) m.dispose();
});
const open = () => {
  const m = new Mirror(80, 24, 1000);
  mirrors.push(m);
  return m;
};

/** `lines` numbered lines as PTY reads of ~4 KiB; the bytes written. */
function flood(mirror: Mirror, lines: number): number {
  let text = '';
  let bytes = 0;
  for (let i = 0; i < lines; i++) {
    text += `line ${i} ${'x'.repeat(60)}\r\n`;
    if (text.length >= 4096 || i === lines - 1) {
      mirror.write(Buffer.from(text));
      bytes += text.length;
      text = '';
    }
  }
  return bytes;
}

/** What a pane shows after writing `data` (a serialized screen, then bytes): its visible rows. */
async function shown(data: string | Uint8Array): Promise<string[]> {
  const term = new Terminal({ cols: 80, rows: 24, scrollback: 0, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(data, resolve));
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
  term.dispose();
  return rows;
}

describe('a first visit while other terminals print', () => {
  it("answers a quiet terminal's reset before another terminal's backlog is parsed, with its exact screen", async () => {
    const busy = open();
    const quiet = open();
    const first = Buffer.from('\x1b[1;36m● agent\x1b[0m ready\r\n\x1b[32m$\x1b[0m ');
    quiet.write(first);
    await quiet.capture();
    // Megabytes of another terminal's output queued on the thread (a resize posts what its mirror holds back)...
    const bytes = flood(busy, 120_000);
    busy.resize(80, 24);
    expect(busy.parsing).toBe(bytes);
    // ...and a keystroke's echo on the quiet one, behind them.
    const echo = Buffer.from('ls -la');
    quiet.write(echo);
    const reset = await quiet.capture(0, 72, true);
    // Answered before the other terminal's backlog was parsed (the thread handles messages between xterm's passes)...
    expect(busy.backlog).toBeGreaterThan(0);
    // ...and without waiting for its own next write, whose turn comes after the other's: taken as far as the thread
    // had got, the echo following from the ring. The pane then shows the exact screen.
    expect(reset.offset).toBe(first.length);
    const all = Buffer.concat([first, echo]);
    const full = await quiet.capture();
    expect(full.offset).toBe(all.length);
    const pane = await shown(Buffer.concat([Buffer.from(reset.serialized), all.subarray(reset.offset)]));
    expect(pane).toEqual(await shown(full.serialized));
    expect(pane[1]).toBe('$ ls -la');
    // The other terminal lost nothing and kept its order.
    const busyScreen = await busy.capture(2);
    expect(busyScreen.offset).toBe(bytes);
    expect(busyScreen.text).toContain('line 119999 ');
  });

  it("still waits for a terminal's own long backlog, so the pane is handed a screen rather than megabytes", async () => {
    const busy = open();
    const bytes = flood(busy, 30_000);
    const reset = await busy.capture(0, 72, true);
    expect(reset.offset).toBeGreaterThan(0);
  });
});
