// The PTY input writer (electron/core/pty/pty-writer.ts) on a real PTY: what the kernel refuses while the agent is not
// reading is kept and sent in order ahead of later keys, and once node-pty has closed the PTY nothing is written to
// whatever file took over its descriptor number.
import { existsSync, openSync, readFileSync, closeSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { ptyInput } from '../../electron/core/pty/pty-writer.js';
import { tempDir, waitFor } from '../helpers/server.js';

const LATE_CAT = 'stty raw -echo && : > started && while [ ! -e go ]; do sleep 0.05; done; exec cat > got.txt';

describe('typed input written straight to the PTY', () => {
  it('keeps a paste the PTY cannot take yet, and the keys after it, in order and exactly once', async () => {
    const dir = tempDir('baton-pty-writer-');
    const term = pty.spawn('/bin/sh', ['-c', LATE_CAT], { cwd: dir, cols: 80, rows: 24, encoding: null });
    term.onData(() => undefined);
    const input = ptyInput(term);
    try {
      await waitFor(() => existsSync(join(dir, 'started')), 'the agent to start (not reading yet)');
      // 256 KiB: several times what a PTY holds for a reader that is not reading.
      let typed = 'abcdefghij'.repeat(256 * 102.4).replace(/(.{99})./g, '$1\n');
      input.write(typed);
      for (let i = 0; i < 40; i++) {
        input.write(`k${i};`);
        typed += `k${i};`;
      }
      writeFileSync(join(dir, 'go'), '');
      const got = () => (existsSync(join(dir, 'got.txt')) ? readFileSync(join(dir, 'got.txt'), 'utf8') : '');
      await waitFor(() => got().length >= typed.length, 'everything written to reach the agent', 30_000);
      await new Promise((r) => setTimeout(r, 200));
      expect(got().length).toBe(typed.length);
      expect(got() === typed).toBe(true);
    } finally {
      input.dispose();
      term.kill();
    }
  }, 60_000);

  it('writes nothing into a file that took over the closed PTY’s descriptor number', async () => {
    const dir = tempDir('baton-pty-writer-');
    const term = pty.spawn('/bin/sh', ['-c', 'exit 0'], { cwd: dir, cols: 80, rows: 24, encoding: null });
    term.onData(() => undefined);
    const input = ptyInput(term);
    const fd = (term as unknown as { fd: number }).fd;
    await new Promise<void>((resolve) => term.onExit(() => resolve()));
    // node-pty closed the master: open files until one gets its number (the lowest free number is taken first).
    const opened: number[] = [];
    try {
      for (let i = 0; i < 256 && !opened.includes(fd); i++) opened.push(openSync(join(dir, `other-${i}.txt`), 'w'));
      expect(opened).toContain(fd);
      input.write('must not land in another file');
      await new Promise((r) => setTimeout(r, 50));
      expect(statSync(join(dir, `other-${opened.indexOf(fd)}.txt`)).size).toBe(0);
    } finally {
      for (const f of opened) closeSync(f);
      input.dispose();
    }
  });
});
