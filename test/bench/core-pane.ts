// A pane's throughput through one core read over its socket (the host's core of a remote agent, with no ssh and no
// local core), against node-pty reading the same `cat` with no core, in rotated rounds: the like-for-like part of
// issue 14's throughput goal that is Baton's own (docs/performance.md, "Remote pane throughput (tput14)"). Prints the
// core's CPU per MB by thread, the client's frames, and how long the core's main thread and the client waited for a CPU
// (/proc schedstat). Needs a build (`npm run build`).
// Run: npx tsx test/bench/core-pane.ts   (MB=32, ROUNDS=5; BATON_OUTPUT_* / BATON_PTY_* switches go to the core;
// CORE_PANE_B=KEY=VAL,KEY=VAL: a second core with those switches in the same rounds, for an A/B in one run;
// CORE_PANE_BIN=<another build's bin/baton.js>: the second core runs that build instead).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { connect } from '../../electron/cli/connect.js';
import { BATON_BIN, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { coreTuning, load } from './renderer-kit.js';
import { profileEnv, ptyAlone, sleep } from './ssh-measures.js';
import { coresSettled } from './ssh-throughput.js';
import { fmt, mbps, median } from './stats.js';

const MBYTES = Number(process.env.MB ?? 32);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** CORE_PANE_CONSUMER=core: read as another core does (a remote agent's local side); a pane's stream by default. */
const CONSUMER = process.env.CORE_PANE_CONSUMER === 'core' ? 'core' : 'pane';

interface Core {
  name: string;
  child: ChildProcess;
  client: RpcClient;
  agentId: string;
}

/** CPU ticks (user + system) of each thread of `pid`, by thread name. */
function threadTicks(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : 'other';
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + Number(f[11]) + Number(f[12]));
    } catch {
      // The thread ended.
    }
  }
  return out;
}

/** [run ns, wait-for-CPU ns, timeslices] of a thread (/proc/.../schedstat). */
function sched(path: string): number[] {
  return readFileSync(path, 'utf8').trim().split(' ').map(Number);
}
const schedDelta = (a: number[], b: number[]) =>
  `run ${fmt((b[0]! - a[0]!) / 1e6)} ms, waited ${fmt((b[1]! - a[1]!) / 1e6)} ms, ${b[2]! - a[2]!} slices`;

/** CPU ticks (user + system) of this process and its reaped children's. */
function selfTicks(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
}

async function startCore(name: string, dir: string, work: string, env: Record<string, string>, bin: string) {
  const dataDir = join(dir, `data-${name}`);
  const child = spawn(process.execPath, [bin, 'serve', '--socket', '--data-dir', dataDir], {
    env: testEnv(join(dir, `home-${name}`), { ...env, ...profileEnv(`core-${name}`) }),
    stdio: ['ignore', process.env.CORE_PANE_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  const serverJson = join(dataDir, 'server.json');
  await waitFor(() => existsSync(serverJson), `core ${name} to start`, 20_000);
  await sleep(100);
  const info = JSON.parse(readFileSync(serverJson, 'utf8')) as { socket: string; token: string };
  const client = await connect({ socket: info.socket, token: info.token });
  const run = await client.call('run.start', {
    name: `bench-${name}`,
    agents: [{ vendor: 'shell', label: 'pane', cwd: work, command: ['/bin/bash', '--noprofile', '--norc'] }],
  });
  return { name, child, client, agentId: run.agents[0]!.id };
}

/** `cat big.txt` in the core's pane until its end mark arrives, acked on receipt: MB/s, frames, resets, core CPU. */
async function paneRound(core: Core, round: string, bytes: number) {
  let tail = '';
  let done = false;
  /** When the end mark arrived (the poll below only notices it up to 100 ms later). */
  let doneAt = 0;
  let frames = 0;
  let resets = 0;
  let got = 0;
  const mark = `END-OF-BIG-${round}-42`;
  const stream = await core.client.attach(
    core.agentId,
    // A remote agent's host core is read by the local core (consumer 'core', acking on receipt, as here).
    { autoAck: true, ...(CONSUMER === 'core' ? { consumer: 'core' as const } : {}) },
    {
      onData: (d) => {
        frames++;
        got += d.length;
        // Only the frame's end is looked at: decoding all of every frame cost this reader more than the core's own.
        tail = (tail + Buffer.from(d.buffer, d.byteOffset, d.byteLength).subarray(-64).toString('latin1')).slice(-64);
        if (!done && tail.includes(mark)) [done, doneAt] = [true, performance.now()];
      },
      onReset: (screen) => {
        resets++;
        if (!done && screen.includes(mark)) [done, doneAt] = [true, performance.now()];
      },
    },
  );
  await sleep(400);
  resets = 0;
  frames = 0;
  got = 0;
  const before = threadTicks(core.child.pid!);
  const selfBefore = selfTicks();
  const mainPath = `/proc/${core.child.pid}/task/${core.child.pid}/schedstat`;
  const s0 = sched(mainPath);
  const c0 = sched('/proc/thread-self/schedstat');
  const t0 = performance.now();
  stream.input(`cat big.txt; echo END-OF-BIG-${round}-$((40+2))\r`);
  await waitFor(() => done, 'the pane to show all of big.txt', 300_000);
  const elapsed = doneAt - t0;
  const after = threadTicks(core.child.pid!);
  const schedText = `core main ${schedDelta(s0, sched(mainPath))}; client ${schedDelta(c0, sched('/proc/thread-self/schedstat'))}`;
  const cpu = new Map<string, number>();
  for (const [k, v] of after) cpu.set(k, (v - (before.get(k) ?? 0)) * 10);
  const client = (selfTicks() - selfBefore) * 10;
  stream.detach();
  return { rate: mbps(bytes, elapsed), frames, got, resets, cpu, client, schedText };
}

async function main(): Promise<void> {
  const dir = tempDir('baton-bench-core-pane-');
  const work = join(dir, 'work');
  mkdirSync(work);
  const line = `${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(2)}\n`;
  const lines = Math.ceil((MBYTES * 1e6) / line.length);
  writeFileSync(join(work, 'big.txt'), line.repeat(lines));
  const bytes = lines * line.length;
  const tuning = coreTuning();
  const cores: Core[] = [await startCore('A', dir, work, tuning, BATON_BIN)];
  const bEnv = process.env.CORE_PANE_B;
  const bBin = process.env.CORE_PANE_BIN;
  if (bEnv !== undefined || bBin) {
    const extra = Object.fromEntries(
      (bEnv ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=') as [string, string]),
    );
    cores.push(await startCore('B', dir, work, { ...tuning, ...extra }, bBin ?? BATON_BIN));
    console.log(
      `A: ${JSON.stringify(tuning)} ${BATON_BIN}; B: ${JSON.stringify({ ...tuning, ...extra })} ${bBin ?? BATON_BIN}`,
    );
  }
  console.log(
    `load at start: ${load()}; ${fmt(bytes / 1e6, 1)} MB a round, ${ROUNDS} rounds; core pids ${cores.map((c) => c.child.pid).join(' ')}`,
  );
  const rates = new Map<string, number[]>();
  const add = (k: string, v: number) => rates.set(k, [...(rates.get(k) ?? []), v]);
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order = [...cores.map((c) => c.name), 'pty'];
      for (let i = 0; i < r % order.length; i++) order.push(order.shift()!);
      const parts: string[] = [];
      for (const which of order) {
        // Each pane round leaves its core's mirror a parse of the burst: never inside the next measure.
        await coresSettled(cores.map((c) => c.child.pid!));
        if (which === 'pty') {
          const c0 = sched('/proc/thread-self/schedstat');
          const v = await ptyAlone(join(work, 'big.txt'), bytes);
          console.log(`  pty alone reader: ${schedDelta(c0, sched('/proc/thread-self/schedstat'))}`);
          add('pty', v);
          parts.push(`pty ${fmt(v, 1)}`);
          continue;
        }
        const core = cores.find((c) => c.name === which)!;
        const m = await paneRound(core, `${which}${r}`, bytes);
        add(which, m.rate);
        const threads = [...m.cpu].filter(([, v]) => v > 0).map(([k, v]) => `${k} ${fmt(v / (bytes / 1e6), 1)}`);
        parts.push(
          `${which} ${fmt(m.rate, 1)} (${m.frames} frames, ${fmt(m.got / Math.max(1, m.frames) / 1024, 1)} KiB avg, ` +
            `resets ${m.resets}; core ms/MB: ${threads.join(', ')}; client ${fmt(m.client / (bytes / 1e6), 1)}; ${m.schedText})`,
        );
      }
      console.log(`round ${r} (load ${load()}): ${parts.join(' | ')}`);
    }
    const pty = rates.get('pty')!;
    for (const c of cores) {
      const ratios = rates.get(c.name)!.map((v, i) => v / pty[i]!);
      console.log(
        `${c.name}: median ${fmt(median(rates.get(c.name)!), 1)} MB/s; over node-pty alone per round: ` +
          `${ratios.map((x) => fmt(x, 2)).join(', ')} (median ${fmt(median(ratios), 2)})`,
      );
    }
    if (cores.length === 2) {
      const ab = rates.get('B')!.map((v, i) => v / rates.get('A')![i]!);
      console.log(`B / A per round: ${ab.map((x) => fmt(x, 2)).join(', ')} (median ${fmt(median(ab), 2)})`);
    }
    console.log(`node-pty alone: median ${fmt(median(pty), 1)} MB/s; load at end: ${load()}`);
  } finally {
    for (const c of cores) {
      await c.client.call('run.stop', { run: `bench-${c.name}` }).catch(() => undefined);
      c.client.close();
      c.child.kill('SIGTERM');
    }
    await sleep(500);
    // 32 MB of file and two cores' data each run: a machine running benches in a loop fills its disk otherwise.
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
