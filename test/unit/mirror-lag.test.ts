// The mirror lags a flood (its thread would take the CPU the PTY's reader needs) but never a screen: whatever was
// written before a capture is on the screen it returns, and output that trickles in is parsed without being asked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { Mirror } from '../../electron/core/pty/mirror.js';

const mirrors: Mirror[] = [];
afterEach(() => {
  for (const m of mirrors.splice(0)) m.dispose();
});
const open = (sourcePaused?: () => boolean) => {
  const m = new Mirror(80, 24, 1000, sourcePaused);
  mirrors.push(m);
  return m;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `lines` numbered lines, as PTY reads of ~4 KiB. */
function flood(mirror: Mirror, from: number, lines: number): number {
  let text = '';
  let bytes = 0;
  for (let i = from; i < from + lines; i++) {
    text += `line ${i} ${'x'.repeat(60)}\r\n`;
    if (text.length >= 4096 || i === from + lines - 1) {
      mirror.write(Buffer.from(text));
      bytes += text.length;
      text = '';
    }
  }
  return bytes;
}

describe('the mirror during a flood', () => {
  it('holds a burst back unparsed, and a capture right after shows its last line at its end offset', async () => {
    const mirror = open();
    const bytes = flood(mirror, 0, 30_000); // ≈ 2 MiB in one turn: a flood
    expect(mirror.backlog).toBe(bytes);
    expect(mirror.parsing).toBe(0); // nothing posted to the thread yet
    const screen = await mirror.capture(5);
    expect(screen.offset).toBe(bytes);
    expect(screen.text).toContain('line 29999 ');
    expect(mirror.backlog).toBe(0);
  });

  it('parses a burst once output stops, without a capture', async () => {
    const mirror = open();
    flood(mirror, 0, 2000);
    expect(mirror.parsing).toBe(0);
    for (let i = 0; i < 100 && mirror.backlog > 0; i++) await sleep(20);
    expect(mirror.backlog).toBe(0);
  });

  it('posts a flood larger than its allowance as it comes, so the thread parses alongside', async () => {
    const mirror = open();
    const read = Buffer.from(`${'y'.repeat(78)}\r\n`.repeat(51)); // 4080 bytes of plain lines
    let bytes = 0;
    while (bytes < FLOW.mirrorLagBytes * 1.25) {
      mirror.write(read);
      bytes += read.length;
    }
    bytes += flood(mirror, 0, 3);
    expect(mirror.backlog).toBe(bytes);
    expect(mirror.parsing).toBeGreaterThanOrEqual(FLOW.mirrorLagBytes);
    const screen = await mirror.capture(3);
    expect(screen.offset).toBe(bytes);
    expect(screen.text).toContain('line 2 ');
  });

  it('keeps a flood held while its PTY is paused for a slow pane, and parses it once the PTY runs dry', async () => {
    // A pane slower than the writer pauses the PTY every few ms; those pauses are the pane's pace, not the flood's end,
    // and parsing then took the CPU the pane needed (docs/performance.md, "Core bytes per MiB").
    let paused = true;
    const mirror = open(() => paused);
    const bytes = flood(mirror, 0, 2000);
    await sleep(200); // a dozen quiet ticks, every one with the PTY paused
    expect(mirror.parsing).toBe(0);
    expect(mirror.backlog).toBe(bytes);
    // A screen asked for meanwhile still shows every byte.
    const screen = await mirror.capture(3);
    expect(screen.offset).toBe(bytes);
    expect(screen.text).toContain('line 1999 ');
    const more = flood(mirror, 2000, 2000);
    await sleep(100);
    expect(mirror.backlog).toBe(more);
    paused = false; // the pane caught up and the writer is done: the next quiet tick posts the rest
    for (let i = 0; i < 100 && mirror.backlog > 0; i++) await sleep(20);
    expect(mirror.backlog).toBe(0);
    expect((await mirror.capture(3)).text).toContain('line 3999 ');
  });

  it('keeps a flood held through one quiet tick, and through a tick that fired late, and posts it after two', () => {
    // A writer descheduled for a tick, or a reader whose loop ran late (its reads come after the timers), is not the
    // end of a burst: posting there had the thread parse beside the reads (docs/performance.md, "burst11").
    let now = 1000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const step = (ms: number, late = 0) => {
      now += ms + late;
      vi.advanceTimersByTime(ms);
    };
    try {
      const mirror = open();
      let bytes = flood(mirror, 0, 20_000); // ≈ 1.4 MB a read burst: a flood, not a trickle
      step(16);
      step(16); // one tick without output: the writer's pause
      bytes += flood(mirror, 20_000, 20_000);
      step(16); // output came: the count starts over
      step(16); // one quiet tick again
      step(16, 40); // fired 40 ms late: not counted
      expect(mirror.parsing).toBe(0);
      bytes += flood(mirror, 40_000, 20_000); // what the late loop read after its timers
      step(16);
      step(16);
      expect(mirror.parsing).toBe(0);
      expect(mirror.backlog).toBe(bytes);
      step(16); // the second quiet tick in a row
      expect(mirror.parsing).toBe(bytes);
    } finally {
      vi.useRealTimers();
      clock.mockRestore();
    }
  });

  it('checks a PTY paused for a stalled pane less and less often, and still posts once it runs', async () => {
    let checks = 0;
    let paused = true;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const mirror = open(() => (checks++, paused));
      const bytes = flood(mirror, 0, 500);
      vi.advanceTimersByTime(10_000); // a pane that stopped acking for 10 s
      // Backing off to once a second: a tick every 16 ms would have asked ~600 times.
      expect(checks).toBeGreaterThan(5);
      expect(checks).toBeLessThan(20);
      expect(mirror.backlog).toBe(bytes);
      paused = false;
      vi.advanceTimersByTime(1_100);
      expect(mirror.parsing).toBe(bytes); // posted to the thread
    } finally {
      vi.useRealTimers();
    }
  });
});
