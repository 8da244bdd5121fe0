// When `agent.send` types a text a second time (docs/input-ready.md, "Typed once more"): only when the screen proves
// the CLI dropped it. A scripted terminal stands in for the CLI: what it draws, and when, after each write.
import { describe, expect, it } from 'vitest';
import { sendText, type SendTarget } from '../../electron/core/runs/agent-send.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const TEXT = 'what number did I ask you to remember';
const BOX = '╭────╮\n│ > Type your message or @path/to/file │\n╰────╯';
const FILLED = `╭────╮\n│ > ${TEXT} │\n╰────╯`;

/** A terminal whose CLI reacts to each write with `onWrite` (draws via `draw(screen, afterMs)`). */
function scripted(onWrite: (data: string, draw: (screen: string, afterMs: number) => void, n: number) => void) {
  const writes: string[] = [];
  const terminal = {
    screen: BOX,
    endOffset: 100,
    lastOutputAt: Date.now() - 10_000,
    exited: null,
    capture: () => Promise.resolve({ text: terminal.screen }),
    write(data: string) {
      writes.push(data);
      onWrite(
        data,
        (screen, afterMs) =>
          setTimeout(() => {
            terminal.screen = screen;
            terminal.endOffset += screen.length;
            terminal.lastOutputAt = Date.now();
          }, afterMs),
        writes.length,
      );
    },
  };
  const adapter = createVendors().get('gemini')!;
  const target: SendTarget = { terminal, adapter, start: { at: 0, offset: 0 } };
  return { writes, send: () => sendText(() => target, TEXT) };
}

describe('agent.send types a text again only when the CLI dropped it', () => {
  it('the Gemini adapter knows its empty box and its restoring notice', () => {
    const input = createVendors().get('gemini')!.input!;
    expect(input.emptyBox.some((p) => p.test(BOX))).toBe(true);
    expect(input.emptyBox.some((p) => p.test(FILLED))).toBe(false);
    expect(input.restoring.some((p) => p.test('⠋ Resuming session...'))).toBe(true);
  });

  it('dropped (the CLI redrew its empty box after the text, and never drew the text): typed once more', async () => {
    const t = scripted((data, draw, n) => {
      if (data === TEXT && n === 1) draw(`restored conversation\n${BOX}`, 100);
      else if (data === TEXT) draw(FILLED, 50);
    });
    await t.send();
    expect(t.writes).toEqual([TEXT, TEXT, '\r']);
  });

  it('drawn late (a CLI busy past the echo bound draws nothing, then the text): typed once', async () => {
    const t = scripted((data, draw) => {
      if (data === TEXT) draw(FILLED, 2600);
    });
    await t.send();
    expect(t.writes).toEqual([TEXT, '\r']);
  });

  it('shown otherwise (a paste drawn as a summary, the placeholder gone): typed once', async () => {
    const t = scripted((data, draw) => {
      if (data === TEXT) draw('╭────╮\n│ > [Pasted Text: 1 line] │\n╰────╯', 100);
    });
    await t.send();
    expect(t.writes).toEqual([TEXT, '\r']);
  });
});
