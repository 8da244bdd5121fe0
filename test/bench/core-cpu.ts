// What the core spends per MiB of a pane's output, by thread: `npx tsx test/bench/core-cpu.ts` (needs `npm run build`).
// A real `baton serve`, the renderer bench's line writer as a `shell` agent, and a plain WebSocket client that acks
// on receipt (no page). CPU time (utime + stime from /proc, per thread) does not depend on how loaded the machine
// is, where MB/s on a shared 2-core machine does: this is the figure to compare before and after a change to the
// core's output path (docs/performance.md, "Output path and panes"). Linux only.
// BATON_BENCH_PROFILE=<dir>: a CPU profile of the core's main thread there, for test/bench/profile-summary.ts.
// ACK_NS_PER_BYTE=n: the client acks each frame only after n ns per byte of pretend parsing, one frame after the other
// (50 ≈ a pane at 20 MB/s): a client slower than the writer, which pauses the PTY as a page does. The CPU is then also
// split into what the core took while the client was receiving (what it takes from a page on two cores) and after.
// The core's A/B switches (BATON_MIRROR_*, BATON_OUTPUT_*) are passed on to it.
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { LINE_BYTES, writeAgentScripts } from './renderer-scripts.js';
import { cpuProfileEnv } from './cpu-profile-env.js';
import { coreTuning } from './renderer-kit.js';
import { fmt, mbps, median } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const MIB = Number(process.env.MIB ?? 28);
const PROFILE_DIR = process.env.BATON_BENCH_PROFILE;
const ACK_NS_PER_BYTE = Number(process.env.ACK_NS_PER_BYTE ?? 0);
/** Linux reports thread CPU time in clock ticks of 10 ms. */
const TICK_MS = 10;

/** CPU milliseconds so far of each thread of `pid`, keyed by its name and nice value. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = tid === String(pid) ? 'main' : `thread ${tid} (nice ${fields[16]})`;
      out.set(name, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function main(): Promise<void> {
  const root = realpathSync(tempDir('baton-core-cpu-'));
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  const scripts = writeAgentScripts(work);
  const profile = cpuProfileEnv(PROFILE_DIR);
  const server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), { ...coreTuning(), ...profile }));
  const client = await server.connect();
  try {
    const lines = Math.floor((MIB << 20) / LINE_BYTES);
    const bytes = lines * LINE_BYTES;
    const run = await client.call('run.start', {
      name: 'core-cpu',
      agents: [
        { vendor: 'shell', label: 'out', cwd: work, command: [process.execPath, scripts.writer, String(lines)] },
      ],
    });
    const agentId = run.agents[0]!.id;
    await waitFor(
      async () => / ready/.test((await client.call('agent.screen', { agentId })).text),
      'the writer',
      30_000,
    );
    const perThread = new Map<string, number[]>();
    const during = new Map<string, number[]>();
    const totals = { during: [] as number[], all: [] as number[] };
    const rates: number[] = [];
    const frameSizes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let got = 0;
      let frames = 0;
      let counting = false;
      let finish: (t: number) => void = () => undefined;
      const done = new Promise<number>((r) => (finish = r));
      let parsedUntil = 0;
      const stream = await client.attach(
        agentId,
        { autoAck: ACK_NS_PER_BYTE === 0, visible: true },
        {
          onData: (data, offset) => {
            if (ACK_NS_PER_BYTE > 0) {
              // One frame after the other, each "parsed" for its size, then acked (a page acks once parsed).
              const now = performance.now();
              parsedUntil = Math.max(parsedUntil, now) + (data.length * ACK_NS_PER_BYTE) / 1e6;
              const end = offset + data.length;
              setTimeout(() => stream.ack(end), parsedUntil - now);
            }
            if (!counting) return;
            frames++;
            got += data.length;
            if (got >= bytes) finish(performance.now());
          },
          onReset: () => undefined,
        },
      );
      await new Promise((r) => setTimeout(r, 200));
      counting = true;
      const before = threadCpu(server.child.pid!);
      const t0 = performance.now();
      await client.call('agent.write', { agentId, data: `${lines}\r` });
      const t1 = await done;
      const delivered = threadCpu(server.child.pid!);
      // The mirror may parse a burst after it was delivered (flow.ts, `mirrorLagBytes`): its CPU counts too.
      await client.call('agent.screen', { agentId });
      const after = threadCpu(server.child.pid!);
      stream.detach();
      for (const [name, ms] of after) {
        const spent = (ms - (before.get(name) ?? 0)) / MIB;
        if (spent > 0) perThread.set(name, [...(perThread.get(name) ?? []), spent]);
        during.set(name, [...(during.get(name) ?? []), ((delivered.get(name) ?? 0) - (before.get(name) ?? 0)) / MIB]);
      }
      const total = (m: Map<string, number>) =>
        [...m].reduce((a, [name, ms]) => a + ms - (before.get(name) ?? 0), 0) / MIB;
      totals.during.push(total(delivered));
      totals.all.push(total(after));
      rates.push(mbps(bytes, t1 - t0));
      frameSizes.push(bytes / frames);
      await new Promise((r) => setTimeout(r, 300));
    }
    const reader = ACK_NS_PER_BYTE > 0 ? `a client acking after ${ACK_NS_PER_BYTE} ns/byte of parse` : 'a plain client';
    console.log(
      `core CPU per MiB delivered to ${reader} (${MIB} MiB of lines, ${ROUNDS} rounds, median; load ${load()})`,
    );
    for (const [what, values] of [
      ['all threads, while delivering', totals.during],
      ['all threads, in all', totals.all],
    ] as const)
      console.log(
        `  ${what.padEnd(28)} ${fmt(median(values), 1).padStart(6)} ms/MiB   (runs ${values.map((v) => fmt(v, 1)).join(' / ')})`,
      );
    for (const [name, values] of [...perThread].sort((a, b) => median(b[1]) - median(a[1])))
      console.log(
        `  ${name.padEnd(28)} ${fmt(median(values), 1).padStart(6)} ms/MiB   (runs ${values.map((v) => fmt(v, 1)).join(' / ')}), while delivering ${fmt(median(during.get(name) ?? []), 1)}`,
      );
    console.log(
      `  rate ${fmt(median(rates), 1)} MB/s, mean frame ${fmt(median(frameSizes))} B (both depend on the load)`,
    );
    await client.call('run.stop', { run: 'core-cpu' });
  } finally {
    client.close();
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
