// The text of a terminal's buffer as a user reads it (shared/buffer-text.mjs): the core's mirror and the pane both give
// it. A real headless xterm, and a real mirror on its worker thread, which loads the module from the sources.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { bufferText } from '../../shared/buffer-text.mjs';
import { Mirror } from '../../electron/core/pty/mirror.js';

const { Terminal } = xtermHeadless;
// A line longer than the terminal is wide wraps onto the next row; blank rows follow the last line of text.
const OUTPUT = `short\r\n${'x'.repeat(30)}y\r\nlast\r\n`;

async function written(cols: number, rows: number, data: string): Promise<InstanceType<typeof Terminal>> {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(data, resolve));
  return term;
}

describe('bufferText', () => {
  it('joins a wrapped line to the one it continues and drops trailing blanks', async () => {
    const term = await written(20, 10, OUTPUT);
    expect(bufferText(term.buffer.active)).toBe(`short\n${'x'.repeat(30)}y\nlast`);
    expect(bufferText(term.buffer.active, 2)).toBe(`${'x'.repeat(30)}y\nlast`);
    term.dispose();
  });

  it('gives the last lines, read from the end, exactly as the last lines of the whole text', async () => {
    // Wrapped lines (one wrapped twice), blank lines between, trailing blanks, and history scrolled off the screen.
    const lines = Array.from({ length: 40 }, (_, i) =>
      i % 7 === 3 ? '' : i % 5 === 0 ? `${i}:${'w'.repeat(45)}` : `${i}`,
    );
    const term = await written(20, 10, `${lines.join('\r\n')}\r\n\r\n`);
    const whole = bufferText(term.buffer.active).split('\n');
    for (const n of [1, 2, 3, 5, 8, 13, 30, whole.length, whole.length + 5]) {
      expect(bufferText(term.buffer.active, n)).toBe(whole.slice(-n).join('\n'));
    }
    term.dispose();
  });

  it('is the text the core mirror gives for the same output', async () => {
    const mirror = new Mirror(20, 10, 100);
    try {
      mirror.write(Buffer.from(OUTPUT));
      expect((await mirror.capture()).text).toBe(`short\n${'x'.repeat(30)}y\nlast`);
    } finally {
      mirror.dispose();
    }
  });
});
