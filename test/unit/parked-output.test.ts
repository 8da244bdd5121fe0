// A parked pane's output waits unparsed until the pane is shown (renderer/panes/parked-output.ts): kept in order, up
// to a bound, dropped when the screen is replaced, and parsed at once (or queued behind other output) when shown.
import { describe, expect, it } from 'vitest';
import { dropHeld, holdParked, parseHeld, takeHeld } from '../../renderer/panes/parked-output.js';
import type { PaneTerminal } from '../../renderer/panes/pane-terminal.js';

/** A pane whose xterm records what it parsed, synchronously (writeSync) or not (write). */
function fakePane(visible = false) {
  const parsed: string[] = [];
  const written: string[] = [];
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const term = {
    _core: { _writeBuffer: { writeSync: (b: Uint8Array) => parsed.push(text(b)) } },
    write: (b: Uint8Array) => written.push(text(b)),
  };
  return { pane: { visible, term } as unknown as PaneTerminal, parsed, written };
}
const bytes = (s: string) => new TextEncoder().encode(s);

describe('a parked pane’s output', () => {
  it('is held in order while parked and parsed in one piece when shown', () => {
    const { pane, parsed } = fakePane();
    expect(holdParked(pane, bytes('one\r\n'))).toBe(true);
    expect(holdParked(pane, bytes('two\r\n'))).toBe(true);
    expect(parsed).toEqual([]);
    parseHeld(pane, null);
    expect(parsed).toEqual(['one\r\ntwo\r\n']);
    expect(takeHeld(pane)).toBeNull();
  });

  it('is not held for a pane in view, nor beyond the bound', () => {
    expect(holdParked(fakePane(true).pane, bytes('x'))).toBe(false);
    const { pane } = fakePane();
    expect(holdParked(pane, new Uint8Array(16 * 1024))).toBe(true);
    expect(holdParked(pane, bytes('x'))).toBe(false);
  });

  it('is dropped when the screen is replaced, and queued behind output still waiting', () => {
    const { pane, parsed } = fakePane();
    holdParked(pane, bytes('old'));
    dropHeld(pane);
    parseHeld(pane, null);
    expect(parsed).toEqual([]);
    holdParked(pane, bytes('new'));
    const queued: string[] = [];
    parseHeld(pane, (b) => queued.push(new TextDecoder().decode(b)));
    expect(queued).toEqual(['new']);
    expect(parsed).toEqual([]);
  });
});
