// A /proc scan (the process tracker's pass, every second while a terminal prints) never holds the event loop for
// more than a few stat reads: a keystroke's echo arriving meanwhile is handled between two slices, not after the
// whole scan (docs/performance.md, "Echo of one core").
import { describe, expect, it } from 'vitest';
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

  it('finds this process and its parent in a real scan', async () => {
    const all = await scanProcesses();
    const self = all.find((p) => p.pid === process.pid);
    expect(self?.ppid).toBe(process.ppid);
  });
});
