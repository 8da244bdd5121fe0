// Throughput of one PTY's output: straight from node-pty (the baseline), and through PtyHost with its mirror.
// Run directly (`npx tsx test/bench/throughput.ts`; MIB=16,28,128 and ROUNDS=7 by default) it prints the PtyHost's
// rate against raw node-pty for bursts within the mirror's allowance and a sustained flood, in interleaved pairs
// (throughput-pairs.ts): the median of the paired ratios with their spread, and the CPU per MiB. Linux only.
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import pty from 'node-pty';
import { FLOW } from '../../electron/core/pty/flow.js';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';
import type { Subscription } from '../../electron/core/pty/terminal.js';
import { fmt, mbps, median } from './stats.js';
import { contenders, describeSpread, pairedRounds, warmUp } from './throughput-pairs.js';
import { expectedOutput, sameBytes, totalBytes, WRITER_SCRIPT } from './workload.js';

export const SIZE = { cols: 120, rows: 40 } as const;
/** A measurement that takes this long is stuck (a flow-control deadlock, say): fail it instead of hanging. */
const STUCK_MS = 120_000;
/** The issue's goal for a burst the mirror holds back: this share of raw node-pty's rate. */
export const GOAL = 0.8;

export interface ThroughputSample {
  bytes: number;
  /** From spawn until the process exited and every byte was counted (delivered, for PtyHost). */
  ms: number;
  /** From spawn until the last byte was counted: the output's own pace, without the report of the exit. */
  lastByteMs: number;
  /** Chunks seen by the receiver (PTY reads for the baseline, frames for PtyHost). */
  chunks: number;
  /** Byte count, offsets and content all match what the writer wrote (checked after the clock stopped). */
  exact: boolean;
  /** Bytes the writer wrote that never arrived (node-pty drops unread output 200 ms after the child exits). */
  lost: number;
  /** CPU ms of this process's main and other threads (the mirror's parse, V8's) from spawn until the run was done. */
  mainWhile?: number;
  threadsWhile?: number;
  /** CPU ms per MiB from spawn until this process's threads were idle again (the mirror's later parse included). */
  cpu?: { main: number; threads: number; writer: number };
}

const expectedCache = new Map<number, Buffer>();
function expected(mib: number): Buffer {
  let b = expectedCache.get(mib);
  if (!b) expectedCache.set(mib, (b = expectedOutput(mib)));
  return b;
}

export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** Whether `data` equals the expected output at `offset`. */
const sameAt = (data: Uint8Array, want: Buffer, offset: number): boolean =>
  offset + data.length <= want.length && want.subarray(offset, offset + data.length).equals(data);

function stuckAfter(ms: number, what: string, onStuck: () => void): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onStuck();
      reject(new Error(`${what} did not finish within ${ms / 1000} s`));
    }, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Baseline: node-pty alone, counting bytes in onData until exit (node-pty emits exit after the last data). */
export async function rawPty(mib: number): Promise<ThroughputSample> {
  const want = expected(mib);
  const chunks: Buffer[] = [];
  let bytes = 0;
  let lastAt = 0;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const p = pty.spawn(process.execPath, ['-e', WRITER_SCRIPT, String(mib)], {
    name: 'xterm-256color',
    cols: SIZE.cols,
    rows: SIZE.rows,
    cwd: tmpdir(),
    env: childEnv(),
    encoding: null,
  });
  p.onData((d: string | Buffer) => {
    const b = typeof d === 'string' ? Buffer.from(d) : d;
    chunks.push(b);
    bytes += b.length;
    lastAt = performance.now();
  });
  const stuck = stuckAfter(STUCK_MS, 'the raw node-pty run', () => p.kill('SIGKILL'));
  let cpu1 = cpu0;
  const ms = await Promise.race([
    new Promise<number>((r) =>
      p.onExit(() => {
        cpu1 = cpuNow();
        r(performance.now() - t0);
      }),
    ),
    stuck.promise,
  ]).finally(stuck.cancel);
  return {
    bytes,
    ms,
    lastByteMs: lastAt - t0,
    chunks: chunks.length,
    exact: bytes === totalBytes(mib) && sameBytes(chunks, want),
    lost: Math.max(0, totalBytes(mib) - bytes),
    mainWhile: cpu1.main - cpu0.main,
    threadsWhile: cpu1.threads - cpu0.threads,
  };
}

/** The same writer through PtyHost: ring, mirror, flow control, and a visible subscriber that acks each frame at once. */
export async function viaPtyHost(mib: number): Promise<ThroughputSample> {
  const want = expected(mib);
  const total = totalBytes(mib);
  const host = new PtyHost(null);
  let frames = 0;
  let bytes = 0;
  let contiguous = true;
  let subscription: Subscription | null = null;
  let exited = false;
  let ms = 0;
  let lastAt = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => (finish = r));
  // Done once the process has exited and everything the terminal received has been delivered. (Not `bytes ===
  // total`: node-pty may drop the tail of the output at exit, and that must show as a failure, not a hang.)
  const check = () => {
    if (exited && bytes >= terminal.endOffset && ms === 0) {
      ms = performance.now() - t0;
      const cpu = cpuNow();
      mainWhile = cpu.main - cpu0.main;
      threadsWhile = cpu.threads - cpu0.threads;
      finish();
    }
  };

  let mainWhile = 0;
  let threadsWhile = 0;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const terminal = host.spawn({
    argv: [process.execPath, '-e', WRITER_SCRIPT, String(mib)],
    cwd: tmpdir(),
    env: childEnv(),
    cols: SIZE.cols,
    rows: SIZE.rows,
  });
  terminal.onExit(() => {
    exited = true;
    check();
  });
  try {
    // Attached in the spawn's own tick, so the whole output arrives as frames from offset 0.
    const attached = await terminal.attach(0, true, (frame: StreamFrame) => {
      if (frame.kind !== 'bytes') {
        contiguous = false; // a reset: bytes were skipped
        return;
      }
      frames++;
      if (frame.offset !== bytes) contiguous = false;
      // Compared at once: the frame is a view of the terminal's ring, valid only until newer output overwrites it.
      if (!sameAt(frame.data, want, frame.offset)) contiguous = false;
      bytes = frame.offset + frame.data.length;
      lastAt = performance.now();
      subscription?.ack(bytes);
      check();
    });
    subscription = attached.subscription;
    if (attached.start.mode !== 'bytes') contiguous = false;
    else if (attached.start.data.length > 0) {
      // Output that arrived before the attach (normally none), ahead of every frame.
      if (!sameAt(attached.start.data, want, attached.start.offset)) contiguous = false;
      bytes = attached.start.offset + attached.start.data.length;
      lastAt = performance.now();
    }
    subscription.ack(bytes);
    const stuck = stuckAfter(STUCK_MS, 'the PtyHost run', () => void terminal.stop(0));
    await Promise.race([done, stuck.promise]).finally(stuck.cancel);
    // After the clock, inside the run's CPU: the mirror's parse of the burst it held. Released right after the exit,
    // a terminal drops what its mirror still holds, and its parse went uncounted (or counted) by a few ms of timing.
    // (The mirror's thread is unref'd and the PTY is gone: a timer keeps this process up meanwhile.)
    const alive = setInterval(() => {}, 1000);
    await terminal.capture(0, 0).finally(() => clearInterval(alive));
  } finally {
    subscription?.close();
    await host.stopAll();
    host.release(terminal.id);
    host.close();
  }
  return {
    bytes,
    ms,
    lastByteMs: lastAt - t0,
    chunks: frames,
    exact: contiguous && bytes === total,
    lost: Math.max(0, total - bytes),
    mainWhile,
    threadsWhile,
  };
}

/** CPU milliseconds so far: this process's main thread, its other threads (the mirror's, V8's), and reaped children. */
function cpuNow(): { main: number; threads: number; children: number } {
  const ticks = (stat: string, a: number, b: number) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[a]) + Number(f[b])) * 10; // clock ticks of 10 ms
  };
  let main = 0;
  let threads = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const ms = ticks(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'), 11, 12);
      if (tid === String(process.pid)) main = ms;
      else threads += ms;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return { main, threads, children: ticks(readFileSync('/proc/self/stat', 'utf8'), 13, 14) };
}

/**
 * Waits until this process's threads are idle (no CPU tick over 60 ms, at most 5 s): the mirror parses a burst after
 * it, and that parse must neither overlap the next run of a pair nor go uncounted.
 */
export async function settled(): Promise<void> {
  const until = performance.now() + 5000;
  let last = cpuNow();
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, 60));
    const now = cpuNow();
    if (now.main + now.threads - last.main - last.threads <= 10) return;
    last = now;
  }
}

/** `run`, then its CPU per MiB once the process has settled (the mirror's deferred parse of the burst counted). */
export async function costed(run: () => Promise<ThroughputSample>, mib: number): Promise<ThroughputSample> {
  const before = cpuNow();
  const sample = await run();
  await settled();
  const after = cpuNow();
  return {
    ...sample,
    cpu: {
      main: (after.main - before.main) / mib,
      threads: (after.threads - before.threads) / mib,
      writer: (after.children - before.children) / mib,
    },
  };
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function compare(): Promise<void> {
  const rounds = Number(process.env.ROUNDS ?? 7);
  const allowance = FLOW.mirrorLagBytes >> 20;
  const who = (await contenders()).map((c) => ({ name: c.name, run: (mib: number) => costed(() => c.run(mib), mib) }));
  await warmUp(who);
  console.log(
    `PtyHost + mirror vs raw node-pty: ${rounds} rounds of ${who.map((c) => c.name).join(', ')} (order rotated), ` +
      `each ratio against its round's raw run; the mirror holds up to ${allowance} MiB of a burst unparsed; ` +
      `load average ${load()} at the start`,
  );
  const sizes = process.env.MIB ?? `${allowance / 2},${allowance - 4},128`;
  for (const mib of sizes.split(',').map(Number)) {
    const f = await pairedRounds(mib, rounds, who);
    const burst = mib <= allowance;
    console.log(`${String(mib).padStart(4)} MiB, ${burst ? 'a burst within the allowance' : 'beyond the allowance'}:`);
    for (const [name, spread] of f.toExit) {
      const ok = spread.median >= GOAL ? '✓' : '✗';
      const exact = f.samples.get(name)!.every((s) => s.exact);
      if (!exact) process.exitCode = 1;
      console.log(
        `      ${name} / raw, to the exit:      ${describeSpread(spread)}` +
          `${burst ? `  goal ≥ ${GOAL} ${ok}` : '  reported (the parse bounds it)'}; ${exact ? 'byte-exact' : 'NOT byte-exact'}\n` +
          `      ${name} / raw, to the last byte: ${describeSpread(f.toLastByte.get(name)!)}`,
      );
    }
    if (f.hostOverBefore) {
      const { n } = f.hostOverBefore;
      const wins = f.samples.get('host')!.filter((h, i) => h.ms < f.samples.get('before')![i]!.ms).length;
      console.log(
        `      host / before, same round:  ${describeSpread(f.hostOverBefore)}; host faster in ${wins} of ${n}`,
      );
    }
    const rate = (x: ThroughputSample) => mbps(x.bytes, x.ms);
    const cpu = (xs: readonly ThroughputSample[], k: 'main' | 'threads' | 'writer') =>
      fmt(median(xs.map((x) => x.cpu?.[k] ?? NaN)), 1);
    for (const [name, xs] of f.samples)
      console.log(
        `      ${name.padEnd(6)} MB/s ${xs.map((x) => fmt(rate(x))).join(' / ')}; CPU ms/MiB main ${cpu(xs, 'main')}, ` +
          `other threads ${cpu(xs, 'threads')}, writer ${cpu(xs, 'writer')}; mean chunk ` +
          `${fmt(median(xs.map((x) => x.bytes / Math.max(1, x.chunks))))} B; while delivering (spawn to done): main ` +
          `${fmt(median(xs.map((x) => (x.mainWhile ?? NaN) / mib)), 1)}, other threads ` +
          `${fmt(median(xs.map((x) => (x.threadsWhile ?? NaN) / mib)), 1)} ms/MiB`,
      );
  }
  console.log(`load average ${load()} at the end`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await compare();
  // Without waiting for whatever the measured PTYs left open (the figures are printed).
  process.exit();
}
