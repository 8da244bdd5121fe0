// A /proc scan (the process tracker's pass, every second while a terminal prints) never holds the event loop for
// more than a few stat reads: a keystroke's echo arriving meanwhile is handled between two slices, not after the
// whole scan (docs/performance.md, "Echo of one core").
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Mirror, readStatLinesOnMirrorThread } from '../../electron/core/pty/mirror.js';
import { readInSlices, scanProcesses, SCAN_SLICE } from '../../electron/core/pty/proc-stat.js';

describe('a /proc scan in slices', () => {
  it('reads at most SCAN_SLICE processes per turn of the event loop, and every one of them', async () => {
    let turn = 0;
    let scanning = true;
    const spin = () => {
      turn++;
      if (scanning) setImmediate(spin);
    };
    setImmediate(spin);
    const readsPerTurn = new Map<number, number>();
    const pids = Array.from({ length: 10 * SCAN_SLICE + 3 }, (_, i) => i + 1);
    const read = (pid: number) => {
      readsPerTurn.set(turn, (readsPerTurn.get(turn) ?? 0) + 1);
      return pid % 7 === 0 ? null : pid;
    };
    const got = await readInSlices(pids, read);
    scanning = false;
    expect(got).toEqual(pids.filter((p) => p % 7 !== 0));
    expect(Math.max(...readsPerTurn.values())).toBeLessThanOrEqual(SCAN_SLICE);
    expect(readsPerTurn.size).toBeGreaterThanOrEqual(10);
  });

  it('finds this process, and a child whose name holds a newline and a parenthesis, in a real scan', async () => {
    // With a terminal's mirror open, the lines come from the mirrors' thread joined by NUL: a newline in a command
    // name must not split one.
    const mirror = new Mirror(80, 24, 10);
    const child = spawn(process.execPath, ['-e', `process.title = 'x\\n1) Z 1'; setTimeout(() => {}, 20000)`]);
    try {
      expect(await readStatLinesOnMirrorThread()).not.toBeNull();
      await new Promise((r) => setTimeout(r, 300));
      const all = await scanProcesses();
      expect(all.find((p) => p.pid === process.pid)?.ppid).toBe(process.ppid);
      const found = all.find((p) => p.pid === child.pid);
      expect(found).toMatchObject({ ppid: process.pid, zombie: false });
    } finally {
      child.kill();
      mirror.dispose();
    }
  });
});
