// The focused pane's cursor stands still while the user types and blinks again once they pause; an unfocused
// pane never blinks, and a pane left alone stops blinking (its animation kept the idle page drawing frames). (A blinking cursor in xterm's DOM renderer is a CSS animation that delayed every echo.)
import { describe, expect, it } from 'vitest';
import { BLINK_AFTER_MS, BLINK_FOR_MS, cursorBlink } from '../../renderer/panes/cursor-blink.js';

function setup() {
  let now = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  const term = { options: { cursorBlink: false as boolean | undefined } };
  const blink = cursorBlink(term, {
    set: (run, ms) => {
      pending.set(next, { at: now + ms, run });
      return next++;
    },
    clear: (handle) => pending.delete(handle as number),
  });
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending]) {
      if (t.at > now) continue;
      pending.delete(id);
      t.run();
    }
  };
  return { term, blink, advance };
}

describe('cursor blink', () => {
  it('blinks when focused, stands still while keys come, blinks again after a pause', () => {
    const { term, blink, advance } = setup();
    blink.focused();
    expect(term.options.cursorBlink).toBe(true);
    blink.typed();
    expect(term.options.cursorBlink).toBe(false);
    advance(BLINK_AFTER_MS - 100);
    blink.typed();
    advance(BLINK_AFTER_MS - 100);
    expect(term.options.cursorBlink).toBe(false); // the second key restarted the pause
    advance(200);
    expect(term.options.cursorBlink).toBe(true);
  });

  it('never blinks once the pane has lost focus, even after a pause', () => {
    const { term, blink, advance } = setup();
    blink.focused();
    blink.typed();
    blink.blurred();
    advance(BLINK_AFTER_MS * 2);
    expect(term.options.cursorBlink).toBe(false);
  });

  it('focus while typing does not start the blink before the pause', () => {
    const { term, blink, advance } = setup();
    blink.typed();
    blink.focused();
    expect(term.options.cursorBlink).toBe(false);
    advance(BLINK_AFTER_MS);
    expect(term.options.cursorBlink).toBe(true);
  });

  it('stops blinking when left alone, and blinks again at the next key or focus', () => {
    const { term, blink, advance } = setup();
    blink.focused();
    advance(BLINK_FOR_MS - 100);
    expect(term.options.cursorBlink).toBe(true);
    advance(200);
    expect(term.options.cursorBlink).toBe(false); // still, with nothing happening
    blink.typed();
    advance(BLINK_AFTER_MS);
    expect(term.options.cursorBlink).toBe(true); // the pause after a key blinks again…
    advance(BLINK_FOR_MS);
    expect(term.options.cursorBlink).toBe(false); // …for a while
    blink.blurred();
    blink.focused();
    expect(term.options.cursorBlink).toBe(true);
  });
});
