// A stream's reset (a pane shown) is answered on the mirror thread between other terminals' writes, by its own port
// (mirror-worker.mjs, pollResets): whatever it overtakes, its screen is exactly the bytes up to its offset.
import { afterEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../electron/core/pty/mirror.js';

const mirrors: Mirror[] = [];
afterEach(() => {
  for (const m of mirrors.splice(0)) m.dispose();
});
const open = () => {
  const m = new Mirror(80, 24, 1000);
  mirrors.push(m);
  return m;
};

/** `lines` numbered lines written as PTY reads of ~4 KiB; returns the text written. */
function flood(mirror: Mirror, tag: string, lines: number): string {
  let all = '';
  let text = '';
  for (let i = 0; i < lines; i++) {
    text += `${tag} line ${i} ${'x'.repeat(50)}\r\n`;
    if (text.length >= 4096 || i === lines - 1) {
      mirror.write(Buffer.from(text));
      all += text;
      text = '';
    }
  }
  return all;
}

const lastLine = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .at(-1) ?? '';

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
