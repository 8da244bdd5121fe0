// A stream's reset (a pane shown) is answered on the mirror thread between other terminals' writes, by its own port
// (mirror-worker.mjs, pollResets): whatever it overtakes, its screen is exactly the bytes up to its offset.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { Mirror, readStatLinesOnMirrorThread } from '../../electron/core/pty/mirror.js';
import { flood, lastLine, mirrorsPerTest } from '../helpers/mirrors.js';

const open = mirrorsPerTest();

describe('resets on the mirror thread', () => {
  it('show exactly the bytes up to their offset while other terminals floods are being parsed', async () => {
    const others = Array.from({ length: 6 }, open);
    const shown = open();
    const written = flood(shown, 'shown', 20_000);
    // Every terminal's backlog goes to the thread (a capture posts what is held), so the resets below overtake it.
    const whole = [...others.map((m, k) => (flood(m, `other${k}`, 20_000), m.capture(0))), shown.capture(0)];
    const resets = await Promise.all(Array.from({ length: 5 }, () => shown.capture(5, 10, true)));
    for (const reset of resets) {
      expect(reset.offset).toBeLessThanOrEqual(written.length);
      expect(lastLine(reset.text)).toBe(lastLine(written.slice(0, reset.offset)));
    }
    await Promise.all(whole);
    const last = await shown.capture(5, 10, true);
    expect(last.offset).toBe(written.length);
    expect(lastLine(last.text)).toBe('shown line 19999 ' + 'x'.repeat(50));
  });

  it("answer a shown pane before other terminals' resizes queued after its last line", async () => {
    // A switch: other panes' mirrors are resized (each a reflow of its history) right after the shown pane's agent
    // printed a line; the shown pane's reset must have that line and must not wait for those reflows.
    const others = Array.from({ length: 8 }, open);
    others.forEach((m, k) => flood(m, `other${k}`, 3000));
    const shown = open();
    const history = flood(shown, 'shown', 3000);
    await Promise.all([...others, shown].map((m) => m.capture(0, 0)));
    const answered: string[] = [];
    const tick = '● tick 1 step 1: reading files\r\n';
    shown.write(Buffer.from(tick));
    shown.resize(80, 24); // its size already: posts the line on its own, as a trickle is posted
    others.forEach((m, k) => m.resize(k % 2 ? 31 : 120, 13));
    const reset = shown.capture(5, 10, true).then((s) => (answered.push('shown'), s));
    // A terminal opened after the reflows on the shown pane's thread: its reset is answered as that thread reaches
    // its `open` (mirrors go to the thread with the fewest, so one of the next few lands there).
    let marker = open();
    while (marker.thread !== shown.thread) marker = open();
    const markerReset = marker.capture(0, 0, true).then(() => answered.push('marker'));
    const screen = await reset;
    await markerReset;
    expect(answered).toEqual(['shown', 'marker']);
    expect(screen.offset).toBe(history.length + Buffer.byteLength(tick));
    expect(lastLine(screen.text)).toBe(tick.trim());
  });

  it('answer a shown pane while a /proc scan of many processes is under way', async () => {
    // The process tracker scans /proc on this thread every second while a terminal prints (30–550 ms under load).
    const children = Array.from({ length: 80 }, () => spawn('sleep', ['30'], { stdio: 'ignore' }));
    try {
      await Promise.all(children.map((c) => new Promise((resolve) => c.once('spawn', resolve))));
      const shown = open();
      const history = flood(shown, 'shown', 100);
      await shown.capture(0, 0);
      const answered: string[] = [];
      const scan = readStatLinesOnMirrorThread().then((lines) => (answered.push('scan'), lines));
      const tick = 'tick 2\r\n';
      shown.write(Buffer.from(tick));
      shown.resize(80, 24); // posts the line behind the scan, as a trickle is posted
      const reset = shown.capture(5, 10, true).then((s) => (answered.push('shown'), s));
      const [screen, lines] = await Promise.all([reset, scan]);
      expect(answered).toEqual(['shown', 'scan']);
      expect(screen.offset).toBe(history.length + tick.length);
      expect(lastLine(screen.text)).toBe('tick 2');
      // The scan in slices still reads every process.
      for (const c of children) expect(lines?.some((l) => l.startsWith(`${c.pid} (sleep)`))).toBe(true);
    } finally {
      for (const c of children) c.kill();
    }
  });

  it('keep every byte in order when lines come between and after a flood still being parsed', async () => {
    const mirror = open();
    let written = flood(mirror, 'flood', 20_000);
    mirror.resize(80, 24); // posts the flood: parsed in xterm's timer, a batch at a time
    for (let i = 0; i < 50; i++) {
      const line = `after ${i}\r\n`;
      mirror.write(Buffer.from(line));
      mirror.resize(80, 24); // each line posted on its own while the flood is parsed
      written += line;
      if (i % 10 === 0) void mirror.capture(0, 0); // a capture between writes, as snapshots ask
    }
    const screen = await mirror.capture(60);
    expect(screen.offset).toBe(written.length);
    const lines = screen.text.split('\n').map((l) => l.trimEnd());
    const tail = lines.filter((l) => l.startsWith('after '));
    expect(tail).toEqual(Array.from({ length: 50 }, (_, i) => `after ${i}`));
    expect(lines.filter((l) => l !== '').at(-51)).toBe(`flood line 19999 ${'x'.repeat(50)}`);
  });

  it('parse what came before a resize at the old size, and a reset meanwhile is exact at its offset', async () => {
    const mirror = open();
    // The flood and a line laid out for 80 columns ('B' in the last one) are parsed while the resize to 40 waits.
    let written = flood(mirror, 'flood', 20_000) + 'A\x1b[999CB\r\n';
    mirror.write(Buffer.from('A\x1b[999CB\r\n'));
    mirror.resize(40, 24);
    const during = mirror.capture(3, 10, true);
    mirror.write(Buffer.from('C\x1b[999CD\r\n'));
    written += 'C\x1b[999CD\r\n';
    const reset = await during;
    expect(reset.offset).toBeLessThanOrEqual(written.length);
    expect(reset.cols === 80 || reset.cols === 40).toBe(true);
    const screen = await mirror.capture(3);
    expect(screen.offset).toBe(written.length);
    expect(screen.cols).toBe(40);
    // 'B' sat in column 80 of its line, which the resize wrapped onto a second row (40 more columns before it than
    // in a line printed at 40 columns); 'D' came after the resize.
    expect(screen.text.split('\n').slice(-2)).toEqual([`A${' '.repeat(39)}B`, `C${' '.repeat(38)}D`]);
  });

  it('answers a reset asked the moment its terminal opens', async () => {
    const mirror = open();
    const reset = await mirror.capture(5, 10, true);
    expect(reset.offset).toBe(0);
    expect(reset.cols).toBe(80);
    expect(lastLine(reset.text)).toBe('');
  });

  it('refuses a reset of a terminal closed before the thread answered', async () => {
    const mirror = open();
    flood(mirror, 'gone', 5000);
    const reset = mirror.capture(0, 10, true);
    mirror.dispose();
    await expect(reset).rejects.toThrow();
  });
});
