// `npx tsx test/bench/mark-scan.ts [processes]`: what one pass over /proc costs, stat lines only (the 1 s tracking
// tick) against stat lines plus every own process's environment (the scan for agent marks, done once per stop and
// per start-up sweep, §8). Tops the machine up to ~500 processes with `sleep`s carrying this process's
// environment, and kills them again. Nothing here asserts a time.
import { spawn, type ChildProcess } from 'node:child_process';
import { newMarkValue, scanMarked } from '../../electron/core/pty/agent-mark.js';
import { scanProcesses } from '../../electron/core/pty/proc-stat.js';
import { median } from './stats.js';

const ROUNDS = 20;

async function measure(f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

async function main(): Promise<void> {
  const target = Number(process.argv[2] ?? 500);
  const kids: ChildProcess[] = [];
  try {
    for (let n = (await scanProcesses()).length; n < target; n++) {
      const child = spawn('sleep', ['300'], { stdio: 'ignore', detached: true });
      child.unref();
      kids.push(child);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const mark = { value: newMarkValue('trm_0123456789abcdef'), since: '0' };
    const stat = () => scanProcesses();
    const marked = () => scanMarked([mark]);
    for (let i = 0; i < 3; i++) await Promise.all([stat(), marked()].map((p) => p.then(() => undefined)));
    const s: { wall: number; cpu: number }[] = [];
    const m: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      s.push(await measure(stat));
      m.push(await measure(marked));
    }
    const processes = (await scanProcesses()).length;
    const envBytes = Object.entries(process.env).reduce((n, [k, v]) => n + k.length + (v?.length ?? 0) + 2, 0);
    const row = (label: string, xs: { wall: number; cpu: number }[]) =>
      console.log(
        `${label.padEnd(44)} wall ${median(xs.map((x) => x.wall)).toFixed(1)} ms, cpu ${median(xs.map((x) => x.cpu)).toFixed(1)} ms`,
      );
    console.log(`${processes} processes (each added sleep: ${envBytes} bytes of environment); median of ${ROUNDS}:`);
    row('stat lines only (tracking tick)', s);
    row('stat + owner + environ (marks, per stop)', m);
  } finally {
    for (const k of kids) k.kill('SIGKILL');
  }
}

await main();
