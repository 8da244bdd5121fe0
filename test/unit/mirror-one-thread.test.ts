// BATON_MIRROR_THREADS=1: every mirror on one thread, as before the mirrors were spread (the A/B of the scale bench).
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.BATON_MIRROR_THREADS = '1';
});

import { Mirror, mirrorThreadCount, readStatLinesOnMirrorThread } from '../../electron/core/pty/mirror.js';

afterAll(() => {
  delete process.env.BATON_MIRROR_THREADS;
});

const mirrors: Mirror[] = [];
afterEach(() => {
  for (const m of mirrors.splice(0)) m.dispose();
});

describe('one mirror thread', () => {
  it('keeps every mirror on it, each screen exact, resets answered between reflows, /proc scanned there', async () => {
    expect(mirrorThreadCount()).toBe(1);
    const all = Array.from({ length: 4 }, () => new Mirror(80, 24, 3000));
    mirrors.push(...all);
    expect(all.map((m) => m.thread)).toEqual([0, 0, 0, 0]);
    const written = all.map((m, k) => {
      let text = '';
      for (let i = 0; i < 3000; i++) text += `one${k} line ${i}\r\n`;
      m.write(Buffer.from(text));
      return text;
    });
    await Promise.all(all.map((m) => m.capture(0, 0)));
    all.slice(1).forEach((m) => m.resize(40, 24));
    all[0]!.write(Buffer.from('shown\r\n'));
    all[0]!.resize(80, 24);
    const reset = await all[0]!.capture(3, 10, true);
    expect(reset.offset).toBe(written[0]!.length + 'shown\r\n'.length);
    expect(reset.text.trimEnd().split('\n').at(-1)).toBe('shown');
    const screens = await Promise.all(all.slice(1).map((m) => m.capture(2)));
    screens.forEach((s, k) => {
      expect(s.cols).toBe(40);
      expect(s.offset).toBe(written[k + 1]!.length);
      expect(s.text.trimEnd().split('\n').at(-1)?.trimEnd()).toBe(`one${k + 1} line 2999`);
    });
    const lines = await readStatLinesOnMirrorThread();
    expect(lines?.some((l) => l.startsWith(`${process.pid} `))).toBe(true);
  });
});
