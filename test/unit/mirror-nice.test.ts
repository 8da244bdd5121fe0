// BATON_MIRROR_NICE (mirror-worker.mjs): the mirror thread runs below the core's main thread, which answers a shown
// pane's reset and forwards every pane's output, and only that thread does; its screens still carry every byte.
// Real mirrors on their real thread; the niceness read from /proc, as the kernel schedules it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../electron/core/pty/mirror.js';
import { tempDir } from '../helpers/server.js';

// Read by the thread when it starts, which is when this file's first mirror is made.
const tids = join(tempDir(), 'mirror-tids');
process.env.BATON_MIRROR_NICE = '7';
process.env.BATON_MIRROR_TIDS = tids;
afterAll(() => {
  delete process.env.BATON_MIRROR_NICE;
  delete process.env.BATON_MIRROR_TIDS;
});

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

/** A thread's niceness: field 19 of its stat line (the fields after the command name's closing parenthesis). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe.runIf(process.platform === 'linux')('the mirror thread at a lower priority', () => {
  it("runs at the niceness asked for, the core's own thread untouched, and its screens still show every line", async () => {
    const before = niceOf(process.pid);
    const mirror = new Mirror(80, 24, 1000);
    disposables.push(mirror);
    const lines = Array.from({ length: 200 }, (_, i) => Buffer.from(`line ${i} from an agent\r\n`));
    for (const line of lines) mirror.write(line);
    const screen = await mirror.capture(5);
    expect(screen.text).toContain('line 199 from an agent');
    expect(screen.offset).toBe(lines.reduce((n, l) => n + l.length, 0));

    const [entry] = readFileSync(tids, 'utf8').trim().split('\n');
    const [pid, , tid] = entry!.split('/');
    expect(Number(pid)).toBe(process.pid);
    expect(niceOf(Number(tid))).toBe(7);
    expect(niceOf(process.pid)).toBe(before);
  });
});
