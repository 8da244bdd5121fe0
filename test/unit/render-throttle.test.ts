// A flooding pane is drawn at most every FLOOD_FRAME_MS, and its last screen is always drawn; a pane with a little
// output, or one being typed into, is drawn at the next frame as before (renderer/panes/render-throttle.ts). Driven
// through xterm's own RenderDebouncer (its source, from the installed xterm), with frames run by hand.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FRAME_MS, RenderDebouncer } from '../helpers/xterm-debouncer.js';
import {
  canThrottle,
  FLOOD_BYTES,
  FLOOD_FRAME_MS,
  throttleRendering,
  TYPED_FLOOD_BYTES,
  TYPED_MS,
} from '../../renderer/panes/render-throttle.js';

/** An xterm-shaped terminal around a real RenderDebouncer, a clock and animation frames run by hand. */
function pane() {
  let now = 0;
  let nextId = 1;
  const frames = new Map<number, () => void>();
  let asked = 0;
  const requestAnimationFrame = (run: () => void) => {
    asked++;
    frames.set(nextId, run);
    return nextId++;
  };
  const timers = new Map<number, { at: number; run: () => void }>();
  const later = (run: () => void, ms: number) => {
    const id = nextId++;
    timers.set(id, { at: now + ms, run });
    return () => void timers.delete(id);
  };
  const window = { requestAnimationFrame, cancelAnimationFrame: (id: number) => frames.delete(id) };
  const draws: { at: number; start: number; end: number }[] = [];
  const debouncer = new RenderDebouncer((start, end) => draws.push({ at: now, start, end }), { window });
  const term = { _core: { _renderService: { _renderDebouncer: debouncer } } };
  let clockReads = 0;
  const clock = () => {
    clockReads++;
    return now;
  };
  const throttle = throttleRendering(term, { now: clock, frame: requestAnimationFrame, later })!;
  /** One animation frame: the clock moves on, the timers due meanwhile run, then every frame callback asked for. */
  const frame = () => {
    now += FRAME_MS;
    for (const [id, t] of [...timers]) {
      if (t.at > now) continue;
      timers.delete(id);
      t.run();
    }
    const run = [...frames.values()];
    frames.clear();
    for (const f of run) f();
  };
  /** Output that changed rows `start`..`end` (xterm asks its debouncer for a draw). */
  const output = (bytes: number, start = 0, end = 39) => {
    throttle.wrote(bytes);
    debouncer.refresh(start, end, 40);
  };
  return {
    term,
    debouncer,
    throttle,
    draws,
    frame,
    output,
    pending: () => frames.size + timers.size,
    /** Animation frames asked for so far. */
    asked: () => asked,
    now: () => now,
    /** Times the throttle read the clock so far. */
    clockReads: () => clockReads,
  };
}

describe('render throttle', () => {
  it('draws a little output at the next frame, every frame', () => {
    const p = pane();
    for (let i = 0; i < 10; i++) {
      p.output(100, i, i);
      p.frame();
    }
    expect(p.draws).toHaveLength(10);
    expect(p.draws.map((d) => d.start)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('draws a flooding pane at most every FLOOD_FRAME_MS, every changed row, and its last screen once the flood ends', () => {
    const p = pane();
    p.output(1000); // the first lines after a quiet spell: drawn at once
    p.frame();
    expect(p.draws).toHaveLength(1);
    for (let i = 0; i < 60; i++) {
      p.output(FLOOD_BYTES + 1, i % 40, i % 40); // a second of flood, more than FLOOD_BYTES a frame
      p.frame();
    }
    const gaps = p.draws.slice(1).map((d, i) => d.at - p.draws[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FLOOD_FRAME_MS);
    expect(p.draws.length).toBeLessThanOrEqual(1 + Math.ceil(1000 / FLOOD_FRAME_MS));
    expect(p.draws.length).toBeGreaterThan(1000 / FLOOD_FRAME_MS / 2);
    // Rows changed while a draw was held are drawn with the next one.
    expect(p.draws.some((d) => d.end - d.start > 0)).toBe(true);
    // The flood stops: its last rows are drawn within FLOOD_FRAME_MS, and nothing is left asked for.
    const stoppedAt = p.now();
    p.output(10, 7, 39);
    for (let i = 0; i < 10; i++) p.frame();
    const last = p.draws.at(-1)!;
    expect(last.end).toBe(39);
    expect(last.at - stoppedAt).toBeLessThanOrEqual(FLOOD_FRAME_MS + FRAME_MS);
    expect(p.pending()).toBe(0);
  });

  it('draws the rows waiting now when asked (a pane just shown), held by a flood or not, and its frame finds none left', () => {
    const p = pane();
    expect(p.throttle.drawNow()).toBe(false); // nothing waits
    p.output(1000);
    p.frame();
    p.output(FLOOD_BYTES * 2, 0, 39); // a flood: its next draw is held for FLOOD_FRAME_MS
    p.frame();
    expect(p.draws).toHaveLength(1);
    p.output(100, 3, 5);
    expect(p.throttle.drawNow()).toBe(true);
    expect(p.draws).toHaveLength(2);
    expect(p.draws[1]).toMatchObject({ start: 0, end: 39 });
    // The wait and the frame xterm asked for draw nothing more, and nothing is left asked for.
    for (let i = 0; i < 5; i++) p.frame();
    expect(p.draws).toHaveLength(2);
    expect(p.pending()).toBe(0);
    expect(p.throttle.draws).toBe(2);
  });

  it('keeps a flooding pane throttled while xterm parses behind (rows change in frames with no new bytes)', () => {
    const p = pane();
    p.output(FLOOD_BYTES * 4);
    p.frame(); // the first draw after a quiet spell
    p.debouncer.refresh(0, 39, 40); // xterm parses the rest of what it was given: rows change, no bytes came
    p.frame();
    p.debouncer.refresh(0, 39, 40);
    p.frame();
    expect(p.draws).toHaveLength(1);
    for (let i = 0; i < 3; i++) p.frame();
    expect(p.draws).toHaveLength(2);
  });

  it("answers a flooding pane's per-line checks without reading the clock, unless a key may still count", () => {
    // xterm asks on every line it scrolls (flood-quiet.ts: scrollbar, textarea, selection), 10,000 times a MiB of
    // 100-character lines: a clock read each was several ms of the page's main thread per MiB.
    const p = pane();
    p.output(FLOOD_BYTES * 2);
    const before = p.clockReads();
    for (let line = 0; line < 10_000; line++) expect(p.throttle.flooding()).toBe(true);
    expect(p.clockReads() - before).toBe(0);
    // Typed into a moment ago: not a flood until TYPED_FLOOD_BYTES came since the key (the clock says how long ago).
    p.throttle.typed();
    p.output(1000);
    expect(p.throttle.flooding()).toBe(false);
    p.output(TYPED_FLOOD_BYTES);
    const afterKey = p.clockReads();
    for (let line = 0; line < 10_000; line++) expect(p.throttle.flooding()).toBe(true);
    expect(p.clockReads() - afterKey).toBe(0);
    // The old way (the bench weighs it): a read per check.
    p.throttle.lazyClock = false;
    const old = p.clockReads();
    for (let line = 0; line < 100; line++) p.throttle.flooding();
    expect(p.clockReads() - old).toBe(100);
  });

  it('throttles a pane typed into once a flood follows the key (a command that floods, not an echo)', () => {
    const p = pane();
    p.throttle.typed();
    for (let i = 0; i < 20; i++) {
      p.output(FLOOD_BYTES * 2);
      p.frame();
    }
    // Drawn every frame while its first TYPED_FLOOD_BYTES came, then as a flood.
    const unthrottled = Math.ceil(TYPED_FLOOD_BYTES / (FLOOD_BYTES * 2));
    expect(p.draws.length).toBeGreaterThanOrEqual(unthrottled);
    expect(p.draws.length).toBeLessThan(unthrottled + 6);
  });

  it('draws every frame in a pane typed into, and again when switched off', () => {
    const p = pane();
    for (let i = 0; i < 20; i++) {
      p.throttle.typed(); // keys keep coming: each echo (and whatever came with it) is drawn at the next frame
      p.output(FLOOD_BYTES * 2);
      p.frame();
    }
    expect(p.draws).toHaveLength(20);
    // The key is long past: the flood is throttled again.
    for (let i = 0; i < Math.ceil(TYPED_MS / FRAME_MS); i++) p.frame();
    const before = p.draws.length;
    for (let i = 0; i < 20; i++) {
      p.output(FLOOD_BYTES * 2);
      p.frame();
    }
    expect(p.draws.length - before).toBeLessThan(10);
    p.throttle.enabled = false;
    for (let i = 0; i < 4; i++) p.frame(); // a draw already waiting on its timer comes first
    const off = p.draws.length;
    for (let i = 0; i < 20; i++) {
      p.output(FLOOD_BYTES * 2);
      p.frame();
    }
    expect(p.draws.length - off).toBe(20);
  });

  it("does not draw while another pane's echo is due, then draws what changed; a pane typed into is never held", () => {
    const p = pane();
    let echoDue = true;
    p.throttle.hold = () => echoDue;
    p.output(10, 3, 5);
    p.frame();
    p.frame();
    expect(p.draws).toHaveLength(0);
    echoDue = false;
    p.frame();
    expect(p.draws).toEqual([expect.objectContaining({ start: 3, end: 5 })]);
    const typed = pane();
    typed.throttle.hold = () => true;
    typed.throttle.typed();
    typed.output(10);
    typed.frame();
    expect(typed.draws).toHaveLength(1);
  });

  it('asks for no animation frame while it waits to draw (each asked frame keeps Chromium drawing), only to draw', () => {
    const p = pane();
    p.output(1000);
    p.frame();
    const before = p.asked();
    for (let i = 0; i < 60; i++) {
      p.output(FLOOD_BYTES + 1);
      p.frame();
    }
    // About one asked frame per draw, not one a frame: a second of flood at 60 frames asks for ~20.
    expect(p.asked() - before).toBeLessThanOrEqual(p.draws.length - 1 + 2);
    let echoDue = true;
    p.throttle.hold = () => echoDue;
    const held = p.asked();
    p.output(10);
    for (let i = 0; i < 6; i++) p.frame();
    expect(p.asked() - held).toBeLessThanOrEqual(1); // the one xterm asked for with the output
    echoDue = false;
    const drawn = p.draws.length;
    p.frame();
    p.frame();
    expect(p.draws.length).toBe(drawn + 1);
    // The old way (asking for every frame) is still there to be weighed, and asks every frame.
    p.throttle.timers = false;
    const old = p.asked();
    for (let i = 0; i < 10; i++) {
      p.output(FLOOD_BYTES + 1);
      p.frame();
    }
    expect(p.asked() - old).toBeGreaterThanOrEqual(9);
  });

  it('draws a flooding pane less often while the user types elsewhere, and at its usual pace once they stop', () => {
    const p = pane();
    let typing = true;
    p.throttle.floodFrameMs = () => (typing ? 4 * FLOOD_FRAME_MS : FLOOD_FRAME_MS);
    p.output(1000);
    p.frame();
    for (let i = 0; i < 60; i++) {
      p.output(FLOOD_BYTES + 1);
      p.frame();
    }
    const gaps = p.draws.slice(1).map((d, i) => d.at - p.draws[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4 * FLOOD_FRAME_MS);
    // The user stops right after a draw: a wait set for the typing pace does not hold the next draw past the usual one.
    const drawn = p.draws.length;
    while (p.draws.length === drawn) {
      p.output(FLOOD_BYTES + 1);
      p.frame();
    }
    typing = false;
    const stoppedAt = p.now();
    const before = p.draws.length;
    for (let i = 0; i < Math.ceil((FLOOD_FRAME_MS * 2) / FRAME_MS); i++) {
      p.output(FLOOD_BYTES + 1);
      p.frame();
    }
    expect(p.draws.length).toBeGreaterThan(before);
    expect(p.draws[before]!.at - stoppedAt).toBeLessThanOrEqual(FLOOD_FRAME_MS + 2 * FRAME_MS);
  });

  it('leaves no frame asked for once its terminal is disposed', () => {
    const p = pane();
    p.output(FLOOD_BYTES * 2);
    p.frame();
    p.output(FLOOD_BYTES * 2);
    p.frame(); // held: a timer waits to ask for the frame
    expect(p.pending()).toBe(1);
    p.debouncer.dispose();
    expect(p.pending()).toBe(0);
  });

  it("finds xterm's render debouncer in the installed xterm (an upgrade that renames it must be noticed)", () => {
    const lib = readFileSync(
      fileURLToPath(new URL('../../node_modules/@xterm/xterm/lib/xterm.mjs', import.meta.url)),
      'utf8',
    );
    for (const f of ['_core', '_renderService', '_renderDebouncer', '_innerRefresh', '_animationFrame', 'dispose'])
      expect(lib).toContain(f);
    expect(canThrottle(pane().term)).toBe(true);
    expect(throttleRendering({ _core: {} })).toBeNull();
  });
});
