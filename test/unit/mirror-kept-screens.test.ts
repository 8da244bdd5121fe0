// A shown pane's reset answered on the core's main thread from the screen its mirror thread kept (mirror.ts, keptFor;
// mirror-worker.mjs, keep), the bytes after it sent from the ring: it does not wait for the thread, which may be inside
// a reflow or a garbage collection, nor for its terminal's last line to be parsed there. Real mirrors on their thread
// and a real output stream; the pane is a headless xterm fed what the stream delivers.
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_REPLAY_BYTES, Mirror } from '../../electron/core/pty/mirror.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';
import { lastLine } from '../helpers/mirrors.js';

const { Terminal } = xtermHeadless;
const ROWS = 24;
/** What a pane's first visit asks for: three of its screens of history. */
const CATCH_UP = 3 * ROWS;

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

function mirrored(): { mirror: Mirror; stream: OutputStream; push(text: string): void } {
  const mirror = new Mirror(80, ROWS, 5000);
  const stream = new OutputStream(
    (scrollback, soon) => mirror.capture(0, scrollback, soon),
    () => undefined,
  );
  disposables.push(stream, mirror);
  const push = (text: string) => {
    mirror.write(Buffer.from(text));
    stream.push(Buffer.from(text));
  };
  return { mirror, stream, push };
}

const history = (lines: number) => Array.from({ length: lines }, (_, i) => `history line ${i} ${'x'.repeat(40)}\r\n`);

/** The text a pane shows after writing `data` at `cols` columns: its screen's last line that is not blank. */
async function shownLastLine(data: string, cols: number): Promise<string> {
  const term = new Terminal({ cols, rows: ROWS, scrollback: 1000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(data, resolve));
  const buffer = term.buffer.active;
  let text = '';
  for (let y = 0; y < buffer.length; y++) text += (buffer.getLine(y)?.translateToString(true) ?? '') + '\n';
  term.dispose();
  return lastLine(text);
}

describe('kept screens', () => {
  it("answer a shown pane's reset without waiting for its last line behind reflows, the line following from the ring", async () => {
    const { mirror, stream, push } = mirrored();
    for (const line of history(5000)) push(line);
    await mirror.capture(0, 0);
    // Taken once the history has been printed (not every 16 KiB of it while it comes): it is the whole of it.
    await expect.poll(() => mirror.keptOffset, { timeout: 10_000 }).toBe(stream.endOffset);
    // A switch: the other panes shown are resized (each a reflow of its history on the thread), and the agent prints a
    // line just before its pane asks for its screen.
    const others = Array.from({ length: 4 }, () => mirrored());
    for (const other of others) for (const line of history(3000)) other.push(line);
    await Promise.all(others.map((o) => o.mirror.capture(0, 0)));
    others.forEach((o, k) => o.mirror.resize(k % 2 ? 31 : 120, 13));
    const tick = '● tick 1 step 1: reading files\r\n';
    push(tick);
    const frames: StreamFrame[] = [];
    const attached = stream
      .attach(undefined, true, (f) => frames.push(f), 'pane', CATCH_UP)
      .then((a) => ({
        ...a,
        // What the thread had still to parse when the pane got its screen. Answered by the thread, this is 0: it answers
        // only once the line posted before the reset is applied (and the core hears that first).
        backlog: mirror.backlog,
      }));
    const { start, backlog } = await attached;
    expect(backlog).toBeGreaterThan(0);
    if (start.mode !== 'reset') throw new Error('expected a reset');
    expect(start.offset).toBe(mirror.keptOffset);
    // The pane: the kept screen, then the bytes after it, ends on the agent's newest line.
    await expect
      .poll(() => frames.reduce((end, f) => (f.kind === 'bytes' ? f.offset + f.data.length : end), start.offset))
      .toBe(stream.endOffset);
    const after = Buffer.concat(frames.map((f) => (f.kind === 'bytes' ? Buffer.from(f.data) : Buffer.alloc(0))));
    expect(await shownLastLine(start.screen + after.toString('utf8'), start.cols)).toBe(tick.trim());
  });

  it('are dropped by a resize and taken again once output came at the new size', async () => {
    const { mirror, push } = mirrored();
    for (const line of history(500)) push(line);
    await mirror.capture(0, 0);
    await expect.poll(() => mirror.keptOffset, { timeout: 10_000 }).not.toBeNull();
    const before = mirror.keptOffset!;
    mirror.resize(40, ROWS);
    // Until then a reset is the thread's, exact at its offset.
    expect(mirror.keptOffset).toBeNull();
    push('after the resize\r\n');
    expect((await mirror.capture(0, CATCH_UP, true)).offset).toBe(before + 'after the resize\r\n'.length);
    expect(mirror.keptOffset).toBeNull();
    const all = history(500).join('') + 'after the resize\r\n' + history(400).join('').replaceAll('history', 'later');
    for (const line of history(400)) push(line.replace('history', 'later'));
    // Taken again once 16 KiB came since (mirror-worker.mjs, KEEP_EVERY_BYTES) and the output paused.
    await expect.poll(() => mirror.keptOffset, { timeout: 10_000 }).toBe(all.length);
    const reset = await mirror.capture(0, CATCH_UP, true);
    expect(reset.offset).toBe(mirror.keptOffset);
    expect(reset.cols).toBe(40);
    // Exactly the bytes up to its offset, laid out at 40 columns.
    const expected = await shownLastLine(all.slice(0, reset.offset), 40);
    expect(expected).toMatch(/x$/);
    expect(await shownLastLine(reset.serialized, 40)).toBe(expected);
  });

  it('leave to the thread a reset too far behind them or asking for more history, and every capture with text', async () => {
    const { mirror, push } = mirrored();
    for (const line of history(200)) push(line);
    await mirror.capture(0, 0);
    await expect.poll(() => mirror.keptOffset, { timeout: 10_000 }).not.toBeNull();
    const kept = mirror.keptOffset!;
    // More than the pane should replay came since: the thread's screen, at the newest offset.
    const flood = history(2000)
      .join('')
      .slice(0, KEPT_REPLAY_BYTES + 100);
    push(flood);
    expect((await mirror.capture(0, CATCH_UP, true)).offset).toBe(kept + flood.length);
    // The whole history (a pane scrolled to its top) and a screen's text (snapshots, attention) come from the thread.
    push('one more line\r\n');
    const queued = kept + flood.length + 'one more line\r\n'.length;
    expect((await mirror.capture(0, undefined, true)).offset).toBe(queued);
    push('and another\r\n');
    const snapshot = await mirror.capture();
    expect(snapshot.offset).toBe(queued + 'and another\r\n'.length);
    expect(lastLine(snapshot.text)).toBe('and another');
  });

  it('are never taken of a terminal closed while its last write is parsed (xterm complained of a disposed buffer)', async () => {
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      said.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      for (let i = 0; i < 5; i++) {
        const mirror = new Mirror(80, ROWS, 5000);
        // A terminal's first output makes a keep due; the terminal ends while it is still being parsed.
        mirror.write(Buffer.from(history(40_000).join('')));
        await new Promise((resolve) => setTimeout(resolve, 20 + 10 * i));
        mirror.dispose();
      }
      // The keeper looks again 50 ms after a write; a closed terminal it kept would print xterm's complaint.
      const alive = new Mirror(80, ROWS, 5000);
      disposables.push(alive);
      alive.write(Buffer.from('still here\r\n'));
      await expect.poll(() => alive.keptOffset, { timeout: 10_000 }).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.stderr.write = write;
    }
    expect(said.join('')).not.toContain('disposed');
  });
});
