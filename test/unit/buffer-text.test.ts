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
