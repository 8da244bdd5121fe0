// A first visit's catch-up: the mirror's screen with only the newest lines of history above it (`scrollback` in
// `agent.attach`), the same screen as the full history's, and every later reset of that client bounded the same way.
// Real mirrors (headless xterms on their worker thread) and a real output stream.
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { Mirror } from '../../electron/core/pty/mirror.js';
import { OutputStream } from '../../electron/core/pty/output-stream.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';

const { Terminal } = xtermHeadless;
const COLS = 80;
const ROWS = 24;

const numbered = (from: number, to: number) => {
  let text = '';
  for (let i = from; i <= to; i++) text += `line ${i}\r\n`;
  return Buffer.from(text);
};

/** What a pane shows after writing the serialized screen: every line of its buffer, history first. */
async function shown(serialized: string): Promise<string[]> {
  const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: FLOW.mirrorScrollback, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(serialized, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  term.dispose();
  return lines;
}

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

function mirrored(): { mirror: Mirror; stream: OutputStream } {
  const mirror = new Mirror(COLS, ROWS, FLOW.mirrorScrollback);
  const stream = new OutputStream(
    (scrollback, soon) => mirror.capture(undefined, scrollback, soon),
    () => undefined,
  );
  disposables.push(stream, mirror);
  return { mirror, stream };
}

describe('a bounded catch-up', () => {
  it('carries the same screen as the full history, with only the newest lines above it', async () => {
    const { mirror } = mirrored();
    mirror.write(numbered(1, 5000));
    const full = await mirror.capture();
    const bounded = await mirror.capture(undefined, 3 * ROWS);
    expect(bounded.offset).toBe(full.offset);
    const fullLines = await shown(full.serialized);
    const boundedLines = await shown(bounded.serialized);
    expect(fullLines[0]).toBe('line 1');
    expect(boundedLines).toHaveLength(4 * ROWS);
    // The screen (the last rows) is the same; the history above it is the full one's newest lines.
    expect(boundedLines).toEqual(fullLines.slice(-4 * ROWS));
    expect(boundedLines).not.toContain('line 1');
    expect(bounded.serialized.length * 20).toBeLessThan(full.serialized.length);
  });

  it('asks nothing more of a short history than it has', async () => {
    const { mirror } = mirrored();
    mirror.write(numbered(1, 30));
    const bounded = await mirror.capture(undefined, 3 * ROWS);
    expect(await shown(bounded.serialized)).toEqual(await shown((await mirror.capture()).serialized));
  });

  it('bounds a client its attach asked for, on attach and when it is reset after lagging; others get everything', async () => {
    const { mirror, stream } = mirrored();
    const push = (bytes: Buffer) => {
      mirror.write(bytes);
      stream.push(bytes);
    };
    push(numbered(1, 5000));
    const resets: Extract<StreamFrame, { kind: 'reset' }>[] = [];
    // The bytes after the reset: a reset starts where the mirror had parsed, and the rest follows from the ring.
    const after: Buffer[] = [];
    const deliver = (f: StreamFrame) => {
      if (f.kind === 'reset') resets.push(f);
      else if (resets.length > 0) after.push(Buffer.from(f.data));
    };
    const bounded = await stream.attach(undefined, false, deliver, 'pane', 2 * ROWS);
    const old = await stream.attach(undefined, true, () => undefined);
    if (bounded.start.mode !== 'reset' || old.start.mode !== 'reset') throw new Error('expected resets');
    expect(await shown(bounded.start.screen)).toHaveLength(3 * ROWS);
    expect((await shown(old.start.screen))[0]).toBe('line 1');
    // Hidden through a flood longer than the catch-up allows: shown again, it gets a reset, bounded as it asked.
    push(numbered(5001, 5001 + Math.ceil(FLOW.catchUpBytes / 8)));
    old.subscription.ack(stream.endOffset);
    bounded.subscription.setVisible(true);
    await expect.poll(() => resets.length).toBe(1);
    const reset = resets[0]!;
    expect(await shown(reset.screen)).toHaveLength(3 * ROWS);
    bounded.subscription.ack(reset.offset);
    await expect.poll(() => reset.offset + Buffer.concat(after).length).toBe(stream.endOffset);
    // The pane, its reset's screen then the bytes after it, ends on the newest line.
    const lines = await shown(reset.screen + Buffer.concat(after).toString('utf8'));
    expect(lines.at(-2)).toBe(`line ${5001 + Math.ceil(FLOW.catchUpBytes / 8)}`);
  });
});
