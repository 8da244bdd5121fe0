// `npm run bench:scale` (and part of `npm run bench`): the core at a hundred agents and ten thousand runs, each figure
// read against a baseline measured in the same run on the same machine, next to its goal (docs/performance.md
// "Core"). Shared machines are noisy: the ratios mean more than the absolute figures. Nothing here asserts a time;
// the process fails only when a measurement breaks.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { FLOW } from '../../electron/core/pty/flow.js';
import { PERIODIC_SNAPSHOT_MS } from '../../electron/core/runs/snapshots.js';
import { SEARCH_IDLE_START_MS } from '../../electron/core/search/search-service.js';
import { FIRST_SCREEN, HISTORY_ROWS } from '../../renderer/state/run-list-sync.js';
import { startCore, stopCore, type CoreProcess } from '../helpers/core.js';
import { coreTuning } from './renderer-kit.js';
import { cpuProfileEnv, windowMarker } from './cpu-profile-env.js';
import { tempDir, testEnv } from '../helpers/server.js';
import { writeManyRuns } from './many-runs.js';
import { cliMs, cpuShare, everyPaneLive, medianOf, rawShells, rssMb, startRuns, timed } from './scale-measure.js';
import { fmt, mbps, median } from './stats.js';
import { GOAL } from './throughput.js';
import { contenders, pairedRounds, warmUp } from './throughput-pairs.js';

const RUNS = 4;
const PER_RUN = 25;
const HISTORY_RUNS = 10_000;
const IDLE_SETTLE_MS = 12_000;
const IDLE_WINDOW_MS = 10_000;
/**
 * The idle row is the median of this many windows in a row. The figure is a count of the kernel's 10 ms ticks, and a
 * single window read 0.10 % and 1.90 % on the same code half an hour apart: one event of about 0.2 s of CPU (a
 * collection of the heap the start and the resume left, a pass that found work) in it or not (docs/performance.md,
 * "The merged tree at the end of stop 28"). Each window is printed beside it.
 */
const IDLE_WINDOWS = 3;
/**
 * The idle window starts no earlier than this far into the core's life: its search index starts by itself at
 * SEARCH_IDLE_START_MS (a worker thread, sql.js and a first pass over the vendor stores: 0.3–0.6 s of CPU once, on
 * this machine), and the old window (25–35 s into the core's life) held exactly that start, which is no idle cost
 * (docs/performance.md "First list after open", idle). The start is measured and printed on its own.
 */
const IDLE_FROM_AGE_MS = SEARCH_IDLE_START_MS + 5_000;
/**
 * Nor does it hold a periodic snapshot (every PERIODIC_SNAPSHOT_MS of the core's life) of runs whose agents printed
 * since their last one: the agents printed their prompts when resumed, so the first pass after that snapshots them
 * (0.2–0.3 s of CPU once), and a later pass finds nothing to do. The margin covers the core's boot (the timer starts
 * once the store is open) and the snapshot itself.
 */
const PERIODIC_MARGIN_MS = 6_000;

/** The first moment at or after `from` from which a window of `length` holds no periodic snapshot pass. */
function clearOfPeriodicPass(launched: number, from: number, length: number): number {
  const age = from - launched;
  const pass = Math.ceil(age / PERIODIC_SNAPSHOT_MS) * PERIODIC_SNAPSHOT_MS;
  const lastPass = Math.floor(age / PERIODIC_SNAPSHOT_MS) * PERIODIC_SNAPSHOT_MS;
  if (lastPass > 0 && age < lastPass + PERIODIC_MARGIN_MS) return launched + lastPass + PERIODIC_MARGIN_MS;
  return age + length <= pass ? from : launched + pass + PERIODIC_MARGIN_MS;
}
const ROUNDS = 3;

/**
 * BATON_BENCH_PROFILE=<dir>: CPU profiles of the core's threads over the idle window alone, written there
 * (cpu-profile-preload.cjs; test/bench/profile-summary.ts reads them). The profiler's own sampling adds CPU: read the
 * profile for where the time goes, not the window's figure.
 */
const PROFILE_DIR = process.env.BATON_BENCH_PROFILE;
async function profilingIdle<T>(measure: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return measure();
  const marker = windowMarker(PROFILE_DIR);
  mkdirSync(PROFILE_DIR, { recursive: true });
  writeFileSync(marker, '');
  try {
    return await measure();
  } finally {
    rmSync(marker, { force: true });
    // The preload checks for the marker every 200 ms and writes the profiles when it is gone.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const LABEL = 52;
const row = (label: string, value: string, vs: string, goal: string) =>
  console.log(`${label.padEnd(LABEL)}${value.padStart(11)}  ${vs.padEnd(34)} ${goal}`);
const s = (ms: number) => (ms >= 1000 ? `${fmt(ms / 1000, 2)} s` : `${fmt(ms, ms < 10 ? 2 : 0)} ms`);
const pct = (share: number) => `${fmt(share * 100, 2)} %`;
const verdict = (ok: boolean) => (ok ? '✓' : '✗');

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  console.log(
    `Baton scale bench  (node ${process.version}, ${availableParallelism()} cores, ${cpu}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  const root = tempDir('baton-scale-');
  const work = join(root, 'work');
  mkdirSync(work);
  // A fresh HOME: the shells read no rc files, so the figures are the core's, not the user's shell start-up.
  // The core's A/B switches (BATON_MIRROR_THREADS=1 against 2, docs/performance.md) reach it too.
  const env = testEnv(join(root, 'home'), coreTuning());
  let core: CoreProcess | null = null;
  // BENCH_ONLY=history: the 10,000-run store alone (its figures do not depend on the others).
  const historyOnly = process.env.BENCH_ONLY === 'history';
  try {
    if (!historyOnly) {
      const launched = Date.now();
      core = await startCore(join(root, 'data'), { ...env, ...cpuProfileEnv(PROFILE_DIR, true) });
      await liveAgents(core, env, work, launched);
      await stopCore(core);
      core = null;
    }
    await manyRuns(root, env);
    if (!historyOnly) await ptyHostRates();
  } finally {
    if (core) await stopCore(core);
    rmSync(root, { recursive: true, force: true });
  }
}

/** 100 shell agents in 4 runs: start, list, snapshot, stop and resume, idle CPU. */
async function liveAgents(
  core: CoreProcess,
  env: Record<string, string>,
  work: string,
  /** When the core was launched (Date.now()). */
  launched: number,
): Promise<void> {
  const client = await core.connect();
  const pid = core.info.pid;
  console.log(
    `\n${RUNS * PER_RUN} shell agents in ${RUNS} runs of ${PER_RUN} (figure, baseline in the same run, goal)`,
  );
  const idleEmpty = await cpuShare(pid, IDLE_WINDOW_MS / 2);

  const raw = await rawShells(RUNS * PER_RUN, work, env);
  const started = await timed(async () => {
    const runs = await startRuns(client, RUNS, PER_RUN, work);
    await everyPaneLive(
      client,
      runs.flatMap((r) => r.agents.map((a) => a.id)),
    );
    return runs;
  });
  row(
    `${RUNS * PER_RUN} agents started, every pane showing its prompt`,
    s(started.ms),
    `${fmt(started.ms / raw, 2)} × raw node-pty (${s(raw)})`,
    `goal ≤ 10 s ${verdict(started.ms <= 10_000)}`,
  );

  const info = await medianOf(20, () => client.call('core.info', {}));
  const list = await medianOf(20, () => client.call('run.list', {}));
  row(
    `run.list with ${RUNS * PER_RUN} live (request)`,
    s(list),
    `${fmt(list / info, 2)} × core.info (${s(info)})`,
    `goal ≤ 100 ms ${verdict(list <= 100)}`,
  );
  const help = median([0, 1, 2, 3, 4].map(() => cliMs(null, ['help'], env)));
  const ls = median([0, 1, 2, 3, 4].map(() => cliMs(core, ['ls', '--json'], env)));
  row(
    `\`baton ls --json\` with ${RUNS * PER_RUN} live (a new process)`,
    s(ls),
    `${fmt(ls / help, 2)} × \`baton help\` (${s(help)})`,
    `goal ≤ 100 ms ${verdict(ls <= 100)}`,
  );

  const first = started.value[0]!;
  const snap = await timed(() => client.call('run.snapshot', { run: first.id }));
  row(`snapshot of a ${PER_RUN}-agent run`, s(snap.ms), `${fmt(snap.ms / info, 0)} × core.info`, '–');

  await client.call('run.stop', { run: first.id });
  const rawResume = await rawShells(PER_RUN, work, env);
  const resumed = await timed(async () => {
    const { handle } = await client.call('run.handle', { run: first.id });
    const confirmShell = first.agents.map((_, i) => i);
    const result = await client.call('run.resume', { handle, confirmShell });
    await everyPaneLive(
      client,
      result.run.agents.map((a) => a.id),
    );
  });
  row(
    `a ${PER_RUN}-agent run resumed until every pane is live`,
    s(resumed.ms),
    `${fmt(resumed.ms / rawResume, 2)} × raw node-pty (${s(rawResume)})`,
    `goal ≤ 3 s ${verdict(resumed.ms <= 3000)}`,
  );

  // Let start-up work end and the process tracker back off, then measure a quiet core. Work that happens once is
  // measured apart, before the window: the search index's start (at SEARCH_IDLE_START_MS of the core's life) and the
  // periodic snapshot of the runs that printed when they were resumed.
  await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
  const windowAt = clearOfPeriodicPass(
    launched,
    Math.max(Date.now(), launched + IDLE_FROM_AGE_MS),
    IDLE_WINDOW_MS * IDLE_WINDOWS,
  );
  const toIdle = windowAt - Date.now();
  if (toIdle > 0) {
    const before = await cpuShare(pid, toIdle);
    row(
      `  core CPU before the window (once: index, snapshot)`,
      pct(before),
      `${fmt((before * toIdle) / 1000, 2)} s of CPU in ${s(toIdle)}`,
      '–',
    );
  }
  const windows = await profilingIdle(async () => {
    const shares: number[] = [];
    for (let w = 0; w < IDLE_WINDOWS; w++) shares.push(await cpuShare(pid, IDLE_WINDOW_MS));
    return shares;
  });
  const idle = median(windows);
  row(
    `core CPU, ${RUNS * PER_RUN} idle agents (median of ${IDLE_WINDOWS} × ${IDLE_WINDOW_MS / 1000} s)`,
    pct(idle),
    `windows ${windows.map(pct).join(', ')}; ${fmt(idle / Math.max(idleEmpty, 0.0005), 1)} × no agents (${pct(idleEmpty)})`,
    `goal ≤ 2 % ${verdict(idle <= 0.02)}`,
  );
  row(`core resident memory, ${RUNS * PER_RUN} agents`, `${fmt(rssMb(pid))} MB`, '', '–');
  client.close();
}

/** A store of 10,000 stopped runs: how fast the core opens it and answers run.list. */
async function manyRuns(root: string, env: Record<string, string>): Promise<void> {
  console.log(`\n${HISTORY_RUNS} runs in the store`);
  const dirs = [0, 1, 2].map((i) => join(root, `repo${i}`));
  for (const d of dirs) mkdirSync(d);
  const emptyOpen = await timed(() => startCore(join(root, 'empty'), env));
  await stopCore(emptyOpen.value);
  await writeManyRuns(join(root, 'history'), HISTORY_RUNS, dirs);
  const opened = await timed(() => startCore(join(root, 'history'), env));
  const core = opened.value;
  try {
    const client = await core.connect();
    row(
      `core open until serving`,
      s(opened.ms),
      `${fmt(opened.ms / emptyOpen.ms, 2)} × an empty store (${s(emptyOpen.ms)})`,
      '–',
    );
    // What a page asks first (renderer/state/run-list-sync.ts): its first screen, then the whole list, each without
    // the agents' states (its history shows none); `baton ls --json`'s list, with them, has a row of its own.
    const screen = await timed(() => client.call('run.list', { ...HISTORY_ROWS, limit: FIRST_SCREEN }));
    if (screen.value.length !== FIRST_SCREEN) throw new Error(`run.list gave ${screen.value.length} runs`);
    const first = await timed(() => client.call('run.list', HISTORY_ROWS));
    if (first.value.length !== HISTORY_RUNS) throw new Error(`run.list gave ${first.value.length} runs`);
    const info = await medianOf(10, () => client.call('core.info', {}));
    row(
      `a page's first screen after open (newest ${FIRST_SCREEN}, nothing saved)`,
      s(screen.ms),
      `${fmt(screen.ms / info, 0)} × core.info (${s(info)})`,
      `goal ≤ 300 ms ${verdict(screen.ms <= 300)}`,
    );
    row(
      'first run.list after open (nothing saved: waits for checks)',
      s(first.ms),
      `${fmt(first.ms / info, 0)} × core.info (${s(info)})`,
      `goal ≤ 300 ms ${verdict(first.ms <= 300)}`,
    );
    const list = await medianOf(5, () => client.call('run.list', HISTORY_ROWS));
    row(
      'run.list (median of 5)',
      s(list),
      `${fmt(list / info, 0)} × core.info`,
      `goal ≤ 300 ms ${verdict(list <= 300)}`,
    );
    const withStates = await medianOf(5, () => client.call('run.list', {}));
    row(
      "run.list with each agent's state (`baton ls --json`)",
      s(withStates),
      `${fmt(withStates / list, 2)} × without`,
      '–',
    );
    const query = await medianOf(5, () => client.call('run.list', { ...HISTORY_ROWS, query: 'history 0999' }));
    row('run.list filtered (`history 0999`)', s(query), `${fmt(query / info, 1)} × core.info`, '–');
    client.close();
  } finally {
    await stopCore(core);
  }
  // The next core on the same store: the health answers the last one saved serve its first list.
  const reopened = await timed(() => startCore(join(root, 'history'), env));
  try {
    const client = await reopened.value.connect();
    const first = await timed(() => client.call('run.list', HISTORY_ROWS));
    const info = await medianOf(10, () => client.call('core.info', {}));
    row(
      'reopened: first run.list (saved health answers)',
      s(first.ms),
      `${fmt(first.ms / info, 0)} × core.info (${s(info)})`,
      `goal ≤ 300 ms ${verdict(first.ms <= 300)}`,
    );
    client.close();
  } finally {
    await stopCore(reopened.value);
  }
}

/**
 * The PtyHost with its mirror against raw node-pty: bursts within the mirror's allowance (the bytes it holds back
 * unparsed while output floods) and a sustained flood, as interleaved pairs (throughput-pairs.ts): the median of the
 * pairs' ratios with its quartiles, to the exit (every byte delivered). PTYHOST_ROUNDS pairs each (7 unless given).
 */
async function ptyHostRates(): Promise<void> {
  const allowance = FLOW.mirrorLagBytes >> 20;
  const rounds = Number(process.env.PTYHOST_ROUNDS ?? 7);
  const who = await contenders();
  console.log(
    `\nPtyHost + mirror vs raw node-pty (${rounds} interleaved pairs each; the mirror holds up to ${allowance} MiB of a ` +
      `burst unparsed; load ${loadavg()[0]!.toFixed(1)})`,
  );
  await warmUp(who);
  for (const [label, mib, goal] of [
    [`burst of ${allowance / 2} MiB (within the allowance)`, allowance / 2, GOAL],
    [`burst of ${allowance - 4} MiB (near the allowance)`, allowance - 4, GOAL],
    ['sustained 128 MiB (bounded by the mirror parse)', 128, null],
  ] as const) {
    const f = await pairedRounds(mib, rounds, who);
    for (const [name, spread] of f.toExit) {
      const exact = f.samples.get(name)!.every((x) => x.exact);
      if (!exact) process.exitCode = 1;
      const q = `${fmt(spread.q1, 2)}–${fmt(spread.q3, 2)}`;
      row(
        name === 'host' ? label : `  ${name} (BENCH_BEFORE)`,
        `${fmt(median(f.samples.get(name)!.map((x) => mbps(x.bytes, x.ms))))} MB/s`,
        `${fmt(spread.median, 2)} × raw (quartiles ${q}), ${exact ? 'byte-exact' : 'NOT byte-exact'}`,
        goal === null ? 'reported' : `goal ≥ ${goal} ${verdict(spread.median >= goal)}`,
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(`scale bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
