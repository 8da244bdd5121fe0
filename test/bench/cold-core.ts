// `npx tsx test/bench/cold-core.ts` (after `npm run build`): the core's share of a cold start of the dashboard (web
// mode, issue 13's "cold start until interactive ≤ 1 s"), without a browser: `baton serve` launched on 10,000 stored
// runs (test/helpers/stored-runs.ts, as test/bench/idle.ts stores them) until it prints its address, then what a page
// does once its script has run: the page's files fetched, its WebSocket opened, its first requests sent at once
// (renderer/state: core.info, attention.list, host.info, the newest screenful of runs, recovery.get,
// settings.get) and the newest run's `run.get`. Each start is timed from the launch, with the core's CPU time (all
// its threads, /proc, 10 ms ticks) at each step: the CPU is what a loaded 2-core machine stretches least, and the
// core's CPU is taken from the page's while both start.
// BENCH_BEFORE=<a tree with another build> alternates its core with this one (ABBA: old, new, new, old, ...), each on
// its own copy of the store, so that both meet the same load; BENCH_ROUNDS pairs (4 unless given); BENCH_GAP_MS: the
// page's own load before its requests (300 unless given; the idle bench's page part is 0.3–0.8 s here). The first
// start of each side finds nothing saved (no health, no costs, no index) and is printed apart; the rest are the
// starts a user has every day. BATON_PROFILE_DIR=<dir>: every core writes a CPU profile there at its exit (the
// profiler's own cost is in its CPU times then). Nothing here asserts a time (docs/performance.md "Cold start: the core's share").
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../electron/cli/connect.js';
import { FIRST_SCREEN } from '../../renderer/state/run-list-sync.js';
import { BATON_BIN, tempDir, testEnv } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import { cpuMs } from './scale-measure.js';
import { cpuProfileEnv } from './cpu-profile-env.js';
import { fmt, median } from './stats.js';

const STORED_RUNS = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 300);

interface Start {
  /** Launch → the address printed (server.json written). */
  upMs: number;
  upCpuMs: number;
  /** Launch → the page's files fetched. */
  filesMs: number;
  /** Launch → the newest screenful of runs answered. */
  screenMs: number;
  /** Launch → every first request answered and the newest run's `run.get`. */
  answeredMs: number;
  answeredCpuMs: number;
  /** The core's CPU 3 s after the launch: what its warm-ups spent while a page would load. */
  cpu3sMs: number;
}

const load = () => loadavg()[0]!.toFixed(1);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The files the page's index.html names (its script, its style sheet), fetched as a browser would. */
async function fetchPage(url: string): Promise<void> {
  const html = await (await fetch(`${url}/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
  await Promise.all(assets.map(async (a) => (await fetch(`${url}${a}`)).arrayBuffer()));
}

async function oneStart(bin: string, dataDir: string, env: Record<string, string>): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    let output = '';
    const address = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      const seen = (d: Buffer) => {
        output += d.toString();
        const m = /Open (http:\/\/[^/\s]+)\/#token=(\S+)/.exec(output);
        if (m) resolve({ url: m[1]!, token: decodeURIComponent(m[2]!) });
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.once('exit', () => reject(new Error(`baton serve ended:\n${output}`)));
    });
    const upMs = performance.now() - t0;
    const pid = child.pid!;
    const upCpuMs = cpuMs(pid);
    await fetchPage(address.url);
    const filesMs = performance.now() - t0;
    await sleep(GAP_MS);
    const client = await connect(address);
    try {
      const times: Record<string, number> = {};
      const at = <T>(name: string, p: Promise<T>) =>
        p.then((v) => {
          times[name] = performance.now() - t0;
          return v;
        });
      const [runs] = await Promise.all([
        at('run.list', client.call('run.list', { limit: FIRST_SCREEN })),
        at('core.info', client.call('core.info', {})),
        at('attention.list', client.call('attention.list', {})),
        at('host.info', client.call('host.info', {})),
        at('recovery.get', client.call('recovery.get', {})),
        at('settings.get', client.call('settings.get', {})),
      ]);
      const screenMs = times['run.list']!;
      if (process.env.BENCH_VERBOSE === '1')
        console.log(
          `    ${Object.entries(times)
            .map(([k, v]) => `${k} ${fmt(v)}`)
            .join(', ')}`,
        );
      if (runs.length !== FIRST_SCREEN) throw new Error(`the first screen had ${runs.length} runs`);
      await client.call('run.get', { run: runs[0]!.id });
      const answeredMs = performance.now() - t0;
      const answeredCpuMs = cpuMs(pid);
      await sleep(Math.max(0, 3000 - (performance.now() - t0)));
      return { upMs, upCpuMs, filesMs, screenMs, answeredMs, answeredCpuMs, cpu3sMs: cpuMs(pid) };
    } finally {
      client.close();
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const line = (s: Start) =>
  `up ${fmt(s.upMs)} ms (CPU ${fmt(s.upCpuMs)}), files ${fmt(s.filesMs)}, first screen ${fmt(s.screenMs)}, ` +
  `all answered ${fmt(s.answeredMs)} ms (CPU ${fmt(s.answeredCpuMs)}); CPU at 3 s ${fmt(s.cpu3sMs)} ms`;

async function main(): Promise<void> {
  const before = process.env.BENCH_BEFORE;
  const sides: [string, string][] = [['this build', BATON_BIN]];
  if (before) sides.unshift(['BENCH_BEFORE', join(before, 'bin', 'baton.js')]);
  console.log(
    `Cold start, the core's share: ${STORED_RUNS} stored runs, ${ROUNDS} rounds, page requests ${GAP_MS} ms after ` +
      `its files (node ${process.version}, load ${load()})`,
  );
  const root = tempDir('baton-cold-core-');
  const work = join(root, 'work');
  mkdirSync(work);
  const store = join(root, 'store');
  writeStoredRuns(store, STORED_RUNS, work);
  // BATON_PROFILE_DIR: each core writes a CPU profile there at exit (cpu-profile-preload.cjs).
  const env = testEnv(join(root, 'home'), cpuProfileEnv(process.env.BATON_PROFILE_DIR));
  const dirs = new Map<string, string>();
  for (const [name] of sides) {
    const dir = join(root, `data-${dirs.size}`);
    cpSync(store, dir, { recursive: true });
    dirs.set(name, dir);
  }
  for (const [name, bin] of sides)
    console.log(`  first start ${name.padEnd(12)} load ${load()}: ${line(await oneStart(bin, dirs.get(name)!, env))}`);
  const all = new Map<string, Start[]>(sides.map(([name]) => [name, []]));
  for (let r = 1; r <= ROUNDS; r++) {
    // ABBA: each side goes first in every other round.
    for (const [name, bin] of r % 2 === 1 ? sides : [...sides].reverse()) {
      const s = await oneStart(bin, dirs.get(name)!, env);
      all.get(name)!.push(s);
      console.log(`  round ${r} ${name.padEnd(12)} load ${load()}: ${line(s)}`);
    }
  }
  const keys: [keyof Start, string][] = [
    ['upMs', 'launch → address printed (ms)'],
    ['upCpuMs', '  core CPU until then (ms)'],
    ['screenMs', 'launch → first screen of runs answered (ms)'],
    ['answeredMs', 'launch → every first request answered (ms)'],
    ['answeredCpuMs', '  core CPU until then (ms)'],
    ['cpu3sMs', 'core CPU in the first 3 s (ms)'],
  ];
  console.log(`\nmedians (load ${load()})`);
  for (const [key, label] of keys) {
    const now = median(all.get('this build')!.map((s) => s[key]));
    let rest = '';
    if (before) {
      const old = all.get('BENCH_BEFORE')!;
      const ratios = all.get('this build')!.map((s, i) => s[key] / old[i]![key]);
      rest = `  before ${fmt(median(old.map((s) => s[key])))}, ratio per round ${fmt(median(ratios), 2)} (${ratios.map((x) => fmt(x, 2)).join(' ')})`;
    }
    console.log(`${label.padEnd(46)}${fmt(now).padStart(7)}${rest}`);
  }
  console.log(`(load at the end: ${load()}; ${readFileSync('/proc/loadavg', 'utf8').trim()})`);
}

await main();
