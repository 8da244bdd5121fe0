// Mirrors opened by a test file, every one closed after each test, and the flood and last-line readers the mirror
// tests share.
import { afterEach } from 'vitest';
import { Mirror } from '../../electron/core/pty/mirror.js';

/** An `open(scrollback)` for 80×24 mirrors that are all disposed after each test of the calling file. */
export function mirrorsPerTest(): (scrollback?: number) => Mirror {
  const mirrors: Mirror[] = [];
  afterEach(() => {
    for (const m of mirrors.splice(0)) m.dispose();
  });
  return (scrollback = 1000) => {
    const m = new Mirror(80, 24, scrollback);
    mirrors.push(m);
    return m;
  };
}

/** `lines` numbered lines written as PTY reads of ~4 KiB; returns the text written. */
export function flood(mirror: Mirror, tag: string, lines: number): string {
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

/** The last line of a screen's text that is not blank. */
export const lastLine = (text: string): string =>
  text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .at(-1) ?? '';
