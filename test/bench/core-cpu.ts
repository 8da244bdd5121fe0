// What the core spends per MiB of a pane's output, by thread: `npx tsx test/bench/core-cpu.ts` (needs `npm run build`).
// A real `baton serve`, the renderer bench's line writer as a `shell` agent, and a plain WebSocket client that acks
// on receipt (no page). CPU time (utime + stime from /proc, per thread) does not depend on how loaded the machine
// is, where MB/s on a shared 2-core machine does: this is the figure to compare before and after a change to the
// core's output path (docs/performance.md, "Output path and panes"). Linux only.
// BATON_BENCH_PROFILE=<dir>: a CPU profile of the core's main thread there, for test/bench/profile-summary.ts.
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { LINE_BYTES, writeAgentScripts } from './renderer-scripts.js';
import { fmt, mbps, median } from './stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const MIB = Number(process.env.MIB ?? 28);
const PROFILE_DIR = process.env.BATON_BENCH_PROFILE;
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

async function main(): Promise<void> {
  const root = realpathSync(tempDir('baton-core-cpu-'));
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  const scripts = writeAgentScripts(work);
  const profile: Record<string, string> = PROFILE_DIR
    ? {
        NODE_OPTIONS: `--require=${join(import.meta.dirname, 'cpu-profile-preload.cjs')}`,
        BATON_PROFILE_DIR: PROFILE_DIR,
      }
    : {};
  const server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), profile));
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
    const rates: number[] = [];
    const frameSizes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let got = 0;
      let frames = 0;
      let counting = false;
      let finish: (t: number) => void = () => undefined;
      const done = new Promise<number>((r) => (finish = r));
      const stream = await client.attach(
        agentId,
        { autoAck: true, visible: true },
        {
          onData: (data) => {
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
      // The mirror may parse a burst after it was delivered (flow.ts, `mirrorLagBytes`): its CPU counts too.
      await client.call('agent.screen', { agentId });
      const after = threadCpu(server.child.pid!);
      stream.detach();
      for (const [name, ms] of after) {
        const spent = (ms - (before.get(name) ?? 0)) / MIB;
        if (spent > 0) perThread.set(name, [...(perThread.get(name) ?? []), spent]);
      }
      rates.push(mbps(bytes, t1 - t0));
      frameSizes.push(bytes / frames);
      await new Promise((r) => setTimeout(r, 300));
    }
    console.log(`core CPU per MiB delivered to a plain client (${MIB} MiB of lines, ${ROUNDS} rounds, median)`);
    for (const [name, values] of [...perThread].sort((a, b) => median(b[1]) - median(a[1])))
      console.log(
        `  ${name.padEnd(28)} ${fmt(median(values), 1).padStart(6)} ms/MiB   (runs ${values.map((v) => fmt(v, 1)).join(' / ')})`,
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
