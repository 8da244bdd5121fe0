// Malformed messages on the background core's socket: what a window's MessagePort carries through the relay reaches
// the core as frames on this socket, so this is the desktop channel as the core sees it. The core must answer or
// close that connection, never die, and its memory must stay flat.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCoreSocket, whenOpen } from '../../electron/core/transport/core-socket.js';
import { fuzzSocket } from '../helpers/fuzz.js';
import { startCore, stopCore } from '../helpers/core.js';
import { tempDir, testEnv } from '../helpers/server.js';
import type { SoakRow } from './table.js';

const MB = 1 << 20;
const rss = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;

export async function socketFuzz(count: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  const root = tempDir('baton-soak-socket-');
  const core = await startCore(join(root, 'data'), testEnv(join(root, 'home')));
  try {
    const address = { socket: core.info.socket, token: core.info.token };
    const open = () => whenOpen(openCoreSocket(address), address.token);
    await fuzzSocket(open, 200, 3);
    const before = rss(core.child.pid!);
    const report = await fuzzSocket(open, count, 5);
    const after = rss(core.child.pid!);
    const alive = core.child.exitCode === null && core.child.signalCode === null;
    const ok = alive && report.problems.length === 0 && after < 2 * before + 50 * MB;
    return {
      count,
      ok,
      figures: `${alive ? 0 : 1} crashes, ${report.problems.length} problems${report.problems.length ? ` (${report.problems[0]})` : ''}, RSS ${Math.round(before / MB)} → ${Math.round(after / MB)} MB`,
    };
  } finally {
    await stopCore(core);
  }
}
