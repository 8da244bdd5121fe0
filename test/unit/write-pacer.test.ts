// While the user types into one pane, another pane's flood waits for the echo and then gets a slice of each frame:
// every byte still reaches its xterm, in order; the pane being typed into is never held; without typing nothing is
// held at all (renderer/panes/write-pacer.ts).
import { describe, expect, it } from 'vitest';
import {
  ECHO_WAIT_MS,
  FEED_EVERY_MS,
  PIECE_BYTES,
  SLICE_MS,
  TYPING_MS,
  WritePacer,
} from '../../renderer/panes/write-pacer.js';

/** A page with a clock, frames and tasks run by hand, and xterms that parse a piece in `parseMs` of that clock. */
function page(parseMs = 2) {
  let now = 0;
  let frames: (() => void)[] = [];
  const tasks: (() => void)[] = [];
  const parses: (() => void)[] = [];
  let timers: { at: number; run: () => void }[] = [];
  let asked = 0;
  const pacer = new WritePacer({
    now: () => now,
    frame: (run) => {
      asked++;
      frames.push(run);
    },
    soon: (run) => tasks.push(run),
    later: (run, ms) => timers.push({ at: now + ms, run }),
  });
  const term = () => {
    const got: number[] = [];
    return {
      got,
      write(data: Uint8Array, parsed?: () => void) {
        parses.push(() => {
          now += parseMs;
          got.push(...data);
          parsed?.();
        });
      },
    };
  };
  /** Runs everything queued: parses, then tasks; `frame()` runs one frame's callbacks. */
  const settle = () => {
    while (parses.length > 0 || tasks.length > 0) (parses.shift() ?? tasks.shift())!();
  };
  /** One frame's time: the timers due meanwhile run, then the frame's callbacks. */
  const frame = () => {
    now += 16;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) {
      t.run();
      settle();
    }
    const run = frames;
    frames = [];
    for (const f of run) f();
    settle();
  };
  /** Frames for `ms`. */
  const wait = (ms: number) => {
    for (let t = 0; t < ms; t += 16) frame();
  };
  return {
    pacer,
    term,
    settle,
    frame,
    wait,
    advance: (ms: number) => (now += ms),
    now: () => now,
    /** Animation frames the pacer asked for. */
    asked: () => asked,
  };
}

const bytes = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251);

describe('write pacer', () => {
  it('writes straight to xterm when nobody types', () => {
    const p = page();
    const flood = p.term();
    p.pacer.write('flood', flood, bytes(100_000));
    expect(p.pacer.heldBytes('flood')).toBe(0);
    p.settle();
    expect(flood.got).toEqual([...bytes(100_000)]);
  });

  it('holds a flood while an echo is due, paints the echo first, then feeds the flood a slice per FEED_EVERY_MS, in order', () => {
    const p = page(2);
    const flood = p.term();
    const echo = p.term();
    p.pacer.typed('echo');
    const acks: number[] = [];
    const sent = [bytes(400_000), bytes(50_000, 7)];
    p.pacer.write('flood', flood, sent[0]!, () => acks.push(0));
    p.pacer.write('flood', flood, sent[1]!, () => acks.push(1));
    p.settle();
    expect(flood.got.length).toBe(0);
    // The echo goes straight in, ahead of the held flood.
    p.pacer.write('echo', echo, Uint8Array.of(120));
    p.settle();
    expect(echo.got).toEqual([120]);
    expect(flood.got.length).toBe(0);
    // The frame that paints the echo has no flood in it; after it, one slice.
    p.frame();
    expect(flood.got.length).toBe(0);
    p.frame();
    const afterOne = flood.got.length;
    expect(afterOne).toBeGreaterThan(0);
    expect(afterOne).toBeLessThanOrEqual(Math.ceil(SLICE_MS / 2 + 1) * PIECE_BYTES);
    // The next slice comes after FEED_EVERY_MS, not at the next frame; and the pacer asked for no frame but the
    // echo's (each frame asked for keeps the browser drawing, and the next echo then waits for a frame).
    p.frame();
    expect(flood.got.length).toBe(afterOne);
    p.wait(FEED_EVERY_MS);
    expect(flood.got.length).toBeGreaterThan(afterOne);
    expect(p.asked()).toBe(1);
    // The user stops typing, and the rest goes at once.
    p.advance(TYPING_MS);
    p.wait(FEED_EVERY_MS * 2);
    expect(flood.got).toEqual([...sent[0]!, ...sent[1]!]);
    expect(acks).toEqual([0, 1]);
  });

  it('gives the flood its slice when the echo does not come', () => {
    const p = page();
    const flood = p.term();
    p.pacer.typed('echo');
    p.pacer.write('flood', flood, bytes(PIECE_BYTES * 4));
    p.frame();
    expect(flood.got.length).toBe(0);
    p.advance(ECHO_WAIT_MS);
    p.frame();
    expect(flood.got.length).toBeGreaterThan(0);
  });

  it('drops held output older than a new screen, and keeps a pane that is typed into in order', () => {
    const p = page();
    const a = p.term();
    p.pacer.typed('b');
    p.pacer.write('a', a, bytes(1000));
    p.pacer.discard('a');
    p.advance(TYPING_MS);
    p.frame();
    p.frame();
    expect(a.got.length).toBe(0);
    // Held output for a pane the user then types into stays ahead of what comes next for it.
    p.pacer.typed('b');
    p.pacer.write('a', a, bytes(10));
    p.pacer.typed('a');
    p.pacer.write('a', a, bytes(5, 10));
    p.settle();
    p.advance(TYPING_MS);
    p.frame();
    p.frame();
    expect(a.got).toEqual([...bytes(15)]);
  });

  it('switched off while it holds output, hands all of it to xterm at once, in order, and holds nothing after', () => {
    const p = page();
    const flood = p.term();
    p.pacer.typed('echo');
    p.pacer.write('flood', flood, bytes(PIECE_BYTES * 3));
    expect(p.pacer.heldBytes('flood')).toBe(PIECE_BYTES * 3);
    p.pacer.release();
    expect(p.pacer.pacing()).toBe(false);
    expect(p.pacer.heldBytes('flood')).toBe(0);
    p.pacer.write('flood', flood, bytes(10, PIECE_BYTES * 3));
    p.settle();
    expect(flood.got).toEqual([...bytes(PIECE_BYTES * 3 + 10)]);
  });
});

describe('write pacer: typing outside the panes', () => {
  it('paces every pane while the user types in the page, keeps the frame after the key clear, loses no byte', () => {
    const p = page(2);
    const a = p.term();
    const b = p.term();
    p.pacer.typedElsewhere();
    const sent = { a: bytes(200_000), b: bytes(120_000, 3) };
    p.pacer.write('a', a, sent.a);
    p.pacer.write('b', b, sent.b);
    p.settle();
    // No pane is the one typed into: both are held, and the frame that shows the key's result has none of them.
    expect(a.got.length + b.got.length).toBe(0);
    p.frame();
    expect(a.got.length + b.got.length).toBe(0);
    // Then a slice at a time, not all at once.
    p.wait(FEED_EVERY_MS);
    const fed = a.got.length + b.got.length;
    expect(fed).toBeGreaterThan(0);
    expect(fed).toBeLessThan(sent.a.length + sent.b.length);
    // The user stops typing: the rest goes, each pane's bytes in order.
    p.advance(TYPING_MS);
    p.wait(FEED_EVERY_MS * 2);
    expect(a.got).toEqual([...sent.a]);
    expect(b.got).toEqual([...sent.b]);
  });
});
