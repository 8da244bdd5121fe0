// The mirrors spread over two threads (BATON_MIRROR_THREADS=2, the default from four cores): each thread has
// its own heap and queue, so a shown pane's reset is not held up by another thread's reflow, and a thread that dies
// takes only its own mirrors' screens with it.
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Read when the mirror modules load: two threads whatever the machine, and their trace (to see when each was busy).
const traceFile = vi.hoisted(() => {
  process.env.BATON_MIRROR_THREADS = '2';
  process.env.BATON_MIRROR_TRACE = `${process.env.TMPDIR ?? '/tmp'}/baton-mirror-threads-${process.pid}.jsonl`;
  return process.env.BATON_MIRROR_TRACE;
});

import { Mirror, liveMirrorCount, mirrorThreadCount } from '../../electron/core/pty/mirror.js';
import { endMirrorThreadForTest } from '../../electron/core/pty/mirror-thread.js';
import { flood, lastLine, mirrorsPerTest } from '../helpers/mirrors.js';

afterAll(() => {
  delete process.env.BATON_MIRROR_THREADS;
  delete process.env.BATON_MIRROR_TRACE;
  rmSync(traceFile, { force: true });
});

const open = mirrorsPerTest();

interface TraceLine {
  k: string;
  thread: number;
  id?: number;
  start?: number;
  ms?: number;
  recv?: number;
  end?: number;
  cols?: number;
}
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('mirror threads', () => {
  it('reads the thread count from BATON_MIRROR_THREADS, else one below four cores and two from four', () => {
    expect(mirrorThreadCount()).toBe(2);
    expect(mirrorThreadCount('1')).toBe(1);
    expect(mirrorThreadCount('3')).toBe(3);
    expect(mirrorThreadCount('')).toBe(availableParallelism() >= 4 ? 2 : 1);
    expect(mirrorThreadCount('0')).toBe(mirrorThreadCount(''));
    expect(mirrorThreadCount('two')).toBe(mirrorThreadCount(''));
  });

  it('spreads mirrors over the threads, each screen exact at its offset', async () => {
    const before = liveMirrorCount();
    const all = Array.from({ length: 6 }, () => open());
    expect(all.map((m) => m.thread).sort()).toEqual([0, 0, 0, 1, 1, 1]);
    expect(liveMirrorCount()).toBe(before + 6);
    const written = all.map((m, k) => flood(m, `t${k}`, 2000 + k));
    const screens = await Promise.all(all.map((m) => m.capture(3)));
    screens.forEach((s, k) => {
      expect(s.offset).toBe(written[k]!.length);
      expect(lastLine(s.text)).toBe(`t${k} line ${1999 + k} ${'x'.repeat(50)}`);
    });
    // A closed mirror makes room on its thread: the next one goes there.
    const freed = all[1]!;
    freed.dispose();
    expect(liveMirrorCount()).toBe(before + 5);
    expect(open().thread).toBe(freed.thread);
  });

  it('answers a reset on one thread while the other is inside a long reflow', async () => {
    // Two terminals with 30,000 lines of history on one thread, resized back and forth (each a reflow of every line).
    // Mirrors go to the thread with the fewest (the lower on a tie): these land on one thread, the shown on the other.
    const first = open(30_000);
    const shownMirror = open();
    const busy = [first, open(30_000)];
    expect(busy[1]!.thread).toBe(first.thread);
    expect(shownMirror.thread).not.toBe(first.thread);
    busy.forEach((m, k) => flood(m, `busy${k}`, 30_000));
    await Promise.all(busy.map((m) => m.capture(0, 0)));
    for (let i = 0; i < 6; i++) busy.forEach((m) => m.resize(i % 2 ? 80 : 41, 24));
    const reflowed = Promise.all(busy.map((m) => m.capture(0, 0)));
    let done = false;
    void reflowed.then(() => (done = true));
    // The shown pane's agent prints and its pane asks for its screen, again and again until the reflows are over.
    let written = '';
    const resets: Promise<{ offset: number; text: string }>[] = [];
    for (let i = 0; !done; i++) {
      const line = `tick ${i}\r\n`;
      shownMirror.write(Buffer.from(line));
      written += line;
      shownMirror.resize(80, 24); // its size already: posts the line now, as a trickle is posted
      resets.push(shownMirror.capture(3, 10, true));
      await sleep(5);
    }
    // Each is exact at its offset (at least the line printed before the first one asked).
    for (const r of await Promise.all(resets)) {
      expect(r.offset).toBeGreaterThan(0);
      expect(lastLine(r.text)).toBe(lastLine(written.slice(0, r.offset)));
    }
    // The trace (flushed a second after each line) says when each thread did what.
    await sleep(1500);
    const trace = readFileSync(traceFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as TraceLine);
    // (The reflows to 41 columns: only the busy terminals are resized to that.)
    const reflows = trace.filter((e) => e.k === 'resize' && e.thread === first.thread && e.cols === 41);
    const answers = trace.filter((e) => e.k === 'capture' && e.thread === shownMirror.thread && e.recv !== undefined);
    expect(reflows.length).toBe(6);
    // At least one reset was received and answered while the other thread was inside one reflow.
    const inside = answers.filter((a) => reflows.some((r) => a.recv! > r.start! && a.end! < r.start! + r.ms!));
    expect(inside.length).toBeGreaterThan(0);
  });

  it('loses only the mirrors of a thread that dies; the others keep every byte', async () => {
    const all = Array.from({ length: 4 }, () => open());
    const written = all.map((m, k) => flood(m, `m${k}`, 500));
    await Promise.all(all.map((m) => m.capture(0, 0)));
    await endMirrorThreadForTest(1);
    const gone = all.filter((m) => m.thread === 1);
    const kept = all.filter((m) => m.thread === 0);
    expect(gone.length).toBe(2);
    // Its mirrors answer at once with an empty screen at their offset (no caller waits forever), now and later.
    for (const m of gone) {
      m.write(Buffer.from('after the loss\r\n'));
      const s = await m.capture(3, 10, true);
      expect(s.serialized).toBe('');
      expect(m.backlog).toBe(0);
    }
    // The other thread's mirrors go on: every byte, in order, at its offset.
    for (const m of kept) {
      const k = all.indexOf(m);
      written[k] += 'still here\r\n';
      m.write(Buffer.from('still here\r\n'));
      const s = await m.capture(3);
      expect(s.offset).toBe(written[k]!.length);
      expect(
        s.text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .slice(-2)
          .map((l) => l.trimEnd()),
      ).toEqual([`m${k} line 499 ${'x'.repeat(50)}`, 'still here']);
    }
    // A mirror opened after the loss works, whichever thread it gets (a dead one is started again).
    const fresh = [open(), open(), open()];
    for (const m of fresh) m.write(Buffer.from('fresh\r\n'));
    for (const s of await Promise.all(fresh.map((m) => m.capture(2)))) expect(lastLine(s.text)).toBe('fresh');
    expect(new Set(fresh.map((m) => m.thread)).size).toBe(2);
  });
});
