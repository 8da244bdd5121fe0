// A screen from the core's mirror written into a pane of another size, then the output that follows it: the pane
// shows what the mirror shows (renderer/panes/reset-screen.ts). Real xterms on both sides: a headless one as the
// mirror with the serialize addon the core uses, a headless one as the pane.
import xterm from '@xterm/headless';
import serialize from '@xterm/addon-serialize';
import { describe, expect, it } from 'vitest';
import { scrollSafeScreen } from '../../renderer/panes/reset-screen.js';

const { Terminal } = xterm;
const { SerializeAddon } = serialize;
type Term = InstanceType<typeof Terminal>;

const write = (term: Term, data: string) => new Promise<void>((resolve) => term.write(data, resolve));
const lastLines = (term: Term, count: number) => {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.slice(-count);
};

/** The mirror at `mirror` size after `before`; the pane at `pane` size gets its screen, then both get `after`. */
async function replay(
  mirror: [number, number],
  pane: [number, number],
  before: string,
  after: string,
  safe = scrollSafeScreen,
) {
  const core = new Terminal({ cols: mirror[0], rows: mirror[1], scrollback: 5000, allowProposedApi: true });
  const serializer = new SerializeAddon();
  core.loadAddon(serializer);
  await write(core, before);
  const view = new Terminal({ cols: pane[0], rows: pane[1], scrollback: 5000, allowProposedApi: true });
  await write(view, `\x1bc${safe(serializer.serialize({ scrollback: 72 }))}`);
  await write(core, after);
  await write(view, after);
  return { core: lastLines(core, 12), view: lastLines(view, 12) };
}

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\r\n`).join('');

describe('a mirror screen written into a pane of another size', () => {
  it('keeps every line when the pane is shorter than what was written and the cursor sat below the text', async () => {
    // A shell after a newline: the cursor on the empty row below the last line, in a 30-row mirror; the pane is a
    // new xterm's 80×24.
    const { core, view } = await replay([138, 30], [80, 24], numbered(1, 25), numbered(26, 28));
    expect(view).toEqual(core);
    expect(view.slice(-4)).toEqual(['line 25', 'line 26', 'line 27', 'line 28']);
  });

  it('lost the line as the serializer wrote it (the cursor move down stops at the bottom)', async () => {
    const { core, view } = await replay([138, 30], [80, 24], numbered(1, 25), numbered(26, 28), (s) => s);
    expect(view).not.toEqual(core);
  });

  it('keeps the cursor column, its style and the modes after it (bracketed paste, as bash sets it)', async () => {
    const prompt = `${numbered(1, 25)}\x1b[?2004h\x1b[1;32muser$ \x1b[0m\r\n`;
    const { core, view } = await replay([120, 40], [80, 24], prompt, 'typed\r\nnext\r\n');
    expect(view).toEqual(core);
  });

  it('changes nothing the pane had room for: a taller pane, a cursor after text, a full screen', async () => {
    for (const [mirror, pane, before] of [
      [[80, 24], [138, 40], numbered(1, 60)],
      [[138, 30], [80, 24], `${numbered(1, 25)}half`],
      [[80, 24], [80, 24], numbered(1, 30)],
    ] as const) {
      const { core, view } = await replay([...mirror], [...pane], before, `${numbered(100, 103)}end`);
      expect(view).toEqual(core);
    }
  });
});
