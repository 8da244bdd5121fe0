// The dashboard at rest and its start, alone (`npx tsx test/bench/idle.ts`, after `npm run build` and
// `npm run build:renderer-bench`): 100 `shell` agents in 10 runs, each printing a screenful and then waiting as an
// idle agent does (no output, no new processes), beside 10,000 stored runs, with one run's panes in view.
// - cold start until interactive (web mode), two ways: from launching `baton serve` on that store until the page
//   answers a click on New run (the core's open, the page's load and first list), and opening the page while
//   the core already runs (the 100 agents live);
// - core + page CPU over 10 s with the agents idle (the core's process and Chromium's renderer and GPU processes,
//   from /proc), against the same page with no run selected.
// - typing into the history's search box (10,000 runs): keydown → the filtered rows in the DOM, and → the next frame
//   painted, p50/p99/max (renderer-history.ts).
// The idle windows start once the core's periodic snapshot has recorded each run's screen after its output (once a
// minute, only for runs whose output changed): at rest nothing changes, and nothing should cross the socket.
// BENCH_PROFILE=1 prints where the page's main thread spent the idle seconds (and the typing); the sampling profiler
// then runs in the measured window, and its own cost is in the page's CPU (several % of a core): read the figures of a
// run without it. BENCH_ONLY=typing: the
// stored runs and the typing alone. Figures next to their goals (docs/performance.md "Idle and start").
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { skipUnlessChromium } from '../e2e/browser.js';
import { coreTuning } from './renderer-kit.js';
import { cpuProfileEnv } from './cpu-profile-env.js';
import { BATON_BIN, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import type { TypingKey } from '../../renderer/bench-typing-hooks.js';
import { countMessages, countsText } from './idle-window.js';
import { printProfile, startProfile } from './page-profile.js';
import { printTyping, typeIntoHistory } from './renderer-history.js';
import {
  browserCpuSeconds,
  cpuSeconds,
  launchBenchBrowser,
  mainThread,
  openBenchPage,
  type BenchBrowser,
  type BenchPage,
} from './renderer-page.js';
import { fmt, max, ms, quantile } from './stats.js';

const RUNS = 10;
const AGENTS_PER_RUN = 10;
const STORED_RUNS = 10_000;
const IDLE_SECONDS = 10;
const GOAL = { idleCpu: 0.02, coldStartMs: 1000 };
/** BENCH_CORE_BIN: another build's bin/baton.js for the core (an A/B of the core's share with this page). */
const CORE_BIN = process.env.BENCH_CORE_BIN ?? BATON_BIN;
/** The core's periodic snapshot (electron/core/runs/snapshots.ts) comes within a minute of the agents' output. */
const SNAPSHOT_WAIT_MS = 90_000;

/** An agent that prints a screenful, then waits for input as an idle CLI does: no output, no new processes. */
const IDLE_AGENT = `seq 1 200 | sed 's/^/history line /'; printf '\\033[1;36m●\\033[0m waiting for you\\n> '; exec sleep 100000`;

/** Records, from the first script on, when the dashboard first shows its run list and its New run button. */
const COLD_START_PROBE = `(() => {
  const seen = () => document.querySelector('[aria-label="Runs"]') && [...document.querySelectorAll('button')].some((b) => b.textContent === 'New run');
  new MutationObserver((_, o) => { if (seen()) { globalThis.__coldStart = performance.now(); o.disconnect(); } })
    .observe(document, { subtree: true, childList: true });
})();`;

const LABEL = 58;
const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
const mark = (good: boolean) => (good ? '✓' : '✗');
const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

type ProbeGlobal = typeof globalThis & {
  __coldStart?: number;
};

/** Types a run's name into the history's search box and clears it, four times (renderer-history.ts); every key's times. */
async function typing(p: BenchPage, profiling: boolean): Promise<TypingKey[]> {
  const keys = await typeIntoHistory(
    p.page,
    profiling ? { during: () => startProfile(p), after: () => printProfile(p, 'typing into the history search') } : {},
  );
  await p.page.keyboard.press('Escape');
  return keys;
}

/**
 * Resolves once each run has a snapshot (the core's periodic one after its agents' output), told by `run.changed`
 * (no polling: the window it ends is measured), and 2 s more for the page to take the news.
 */
async function snapshotsTaken(client: RpcClient, runIds: string[]): Promise<void> {
  const waiting = new Set(runIds);
  for (const r of await client.call('run.list', { runs: runIds })) if (r.lastSnapshotAt) waiting.delete(r.id);
  if (waiting.size > 0)
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no periodic snapshot of the idle runs came')), SNAPSHOT_WAIT_MS);
      const off = client.on('run.changed', ({ runId }) => {
        waiting.delete(runId);
        if (waiting.size > 0) return;
        clearTimeout(timer);
        off();
        resolve();
      });
    });
  await sleep(2000);
}

/** Opens the page; ms from navigation until the dashboard answers a click on New run (its dialog open). */
async function openUntilInteractive(b: BenchBrowser, server: ServerProcess): Promise<{ p: BenchPage; ms: number }> {
  const p = await openBenchPage(b, server, COLD_START_PROBE);
  await p.page.waitForFunction(() => (globalThis as ProbeGlobal).__coldStart !== undefined);
  const shown = await p.page.evaluate(() => (globalThis as ProbeGlobal).__coldStart!);
  // The click is answered when the dialog is in the page: measured inside it, from the click's task.
  const answered = await p.page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'New run')!;
        const at = performance.now();
        new MutationObserver((_, o) => {
          if (document.querySelector('[role="dialog"]')) {
            o.disconnect();
            resolve(performance.now() - at);
          }
        }).observe(document.body, { subtree: true, childList: true });
        button.click();
      }),
  );
  await p.page.keyboard.press('Escape');
  return { p, ms: shown + answered };
}

/** Core and page CPU (shares of a core) and what crossed the socket over IDLE_SECONDS, or while `during` runs. */
async function idleCpu(
  b: BenchBrowser,
  p: BenchPage,
  server: ServerProcess,
  profiling: boolean,
  what: string,
  during: () => Promise<void> = () => sleep(IDLE_SECONDS * 1000),
) {
  await p.cdp.send('Network.enable');
  const messages = countMessages(p);
  const browser0 = await browserCpuSeconds(b);
  const core0 = cpuSeconds(server.child.pid!);
  const page0 = await mainThread(p);
  if (profiling) await startProfile(p);
  await during();
  if (profiling) await printProfile(p, what);
  const page1 = await mainThread(p);
  const wall = (page1.at - page0.at) / 1000;
  const core = (cpuSeconds(server.child.pid!) - core0) / wall;
  const page = ((await browserCpuSeconds(b)) - browser0) / wall;
  const busy = (page1.task - page0.task) / wall;
  console.log(`  messages in ${fmt(wall, 0)} s (${what}): ${countsText(messages())}`);
  return { core, page, mainThread: busy, seconds: wall };
}

/** The core's CPU time until it served and until the page answered: what a loaded machine stretches less than wall time. */
const coreCpu = (up: number, server: ServerProcess) =>
  `core CPU ${ms(up * 1000)} until up, ${ms(cpuSeconds(server.child.pid!) * 1000)} until the click`;

/** Four more cold starts from `baton serve` on the same store (saved health and costs from the run before). */
async function coldStartsAgain(b: BenchBrowser, first: ServerProcess, dataDir: string, env: Record<string, string>) {
  for (let i = 0; i < 4; i++) {
    first.child.kill('SIGTERM');
    await first.exited;
    const t0 = performance.now();
    first = await startServer(dataDir, env, [], CORE_BIN);
    const coreUp = performance.now() - t0;
    const cpuUp = cpuSeconds(first.child.pid!);
    const opened = await openUntilInteractive(b, first);
    await opened.p.close();
    line(
      `  again (load ${load()})`,
      `${ms(coreUp + opened.ms).padStart(9)}  core up ${ms(coreUp)} + page ${ms(opened.ms)}; ${coreCpu(cpuUp, first)}`,
    );
  }
  first.child.kill('SIGTERM');
  await first.exited;
}

async function main(): Promise<void> {
  const skip = skipUnlessChromium();
  if (skip) return console.log(`idle bench ${skip}`);
  const root = tempDir('baton-idle-bench-');
  const work = join(root, 'work');
  const dataDir = join(root, 'data');
  // BATON_PROFILE_DIR: the core writes a CPU profile there at exit (cpu-profile-preload.cjs).
  const profileCore = cpuProfileEnv(process.env.BATON_PROFILE_DIR);
  // The core's A/B switches (BATON_MIRROR_THREADS=1 against 2, docs/performance.md) reach it too.
  const env = testEnv(join(root, 'home'), { ...coreTuning(), ...profileCore });
  mkdirSync(work, { recursive: true });
  writeStoredRuns(dataDir, STORED_RUNS, work);
  const b = await launchBenchBrowser(false);
  let server: ServerProcess | null = null;
  let client: RpcClient | null = null;
  let p: BenchPage | null = null;
  const profiling = process.env.BENCH_PROFILE === '1';
  console.log(`Baton idle and start bench (Chromium ${b.version}, node ${process.version}, load ${load()})`);
  if (process.env.BENCH_ONLY === 'typing') {
    try {
      server = await startServer(dataDir, env, [], CORE_BIN);
      p = (await openUntilInteractive(b, server)).p;
      await sleep(2000);
      printTyping(await typing(p, profiling), (text) => text.padEnd(LABEL));
    } finally {
      await p?.close();
      server?.child.kill('SIGTERM');
      await server?.exited;
      await b.close();
      rmSync(root, { recursive: true, force: true });
      console.log(`(load at the end: ${load()})`);
    }
    return;
  }
  try {
    // 1. From launching the core on a store of 10,000 runs.
    const t0 = performance.now();
    server = await startServer(dataDir, env, [], CORE_BIN);
    const coreUp = performance.now() - t0;
    const coreCpuUp = cpuSeconds(server.child.pid!);
    const fromLaunch = await openUntilInteractive(b, server);
    const launchTotal = coreUp + fromLaunch.ms;
    line(
      'cold start from `baton serve` → a click answered (web)',
      `${ms(launchTotal).padStart(9)}  (goal ≤ ${GOAL.coldStartMs} ms) ${mark(launchTotal <= GOAL.coldStartMs)}  core up ${ms(coreUp)} + page ${ms(fromLaunch.ms)}; ${coreCpu(coreCpuUp, server)}`,
    );
    await fromLaunch.p.close();
    // BENCH_ONLY=cold: the start alone, a few times (the core's launch is most of it; docs/performance.md "Cold start").
    if (process.env.BENCH_ONLY === 'cold') return await coldStartsAgain(b, server, dataDir, env);

    client = await server.connect();
    const runIds: string[] = [];
    for (let r = 0; r < RUNS; r++) {
      const run = await client.call('run.start', {
        name: `idle-${String(r + 1).padStart(2, '0')}`,
        agents: Array.from({ length: AGENTS_PER_RUN }, (_, k) => ({
          vendor: 'shell' as const,
          label: `a${k + 1}`,
          cwd: work,
          command: ['sh', '-c', IDLE_AGENT],
        })),
      });
      runIds.push(run.id);
    }
    await sleep(3000);

    // 2. The page opened while the core runs (100 agents live).
    const opened = await openUntilInteractive(b, server);
    p = opened.p;
    line(
      'cold start, core running → a click answered (web)',
      `${ms(opened.ms).padStart(9)}  (goal ≤ ${GOAL.coldStartMs} ms) ${mark(opened.ms <= GOAL.coldStartMs)}  100 agents live`,
    );

    // 3. Idle: no run shown, then a run of 10 panes in view (after they settled).
    await sleep(3000);
    const bare = await idleCpu(b, p, server, false, 'the page as opened');
    // Every run visited once (each pane has its xterm, parked when out of view), then the first one shown.
    for (let r = RUNS; r >= 1; r--) {
      await p.page.getByRole('button', { name: `idle-${String(r).padStart(2, '0')}`, exact: true }).click();
      await sleep(1000);
    }
    // To rest: the focused pane's cursor blinks its while (cursor-blink.ts), the process tracker backs off, and the
    // core snapshots each run after its output (once a minute while output changed; nothing is printed after it).
    // That settling is measured on its own (what crossed the socket: one run.changed per run, nothing repeated).
    const c = client;
    const settling = await idleCpu(b, p, server, false, 'settling, until the periodic snapshot of every run', () =>
      sleep(15_000).then(() => snapshotsTaken(c, runIds)),
    );
    line(
      '  settling: 15 s, and until each run was snapshotted once',
      `${fmt((settling.core + settling.page) * 100, 1).padStart(7)} %   over ${fmt(settling.seconds, 0)} s: core ${fmt(settling.core * 100, 1)}% + page ${fmt(settling.page * 100, 1)}%`,
    );
    await sleep(1000);
    const shown = await idleCpu(b, p, server, profiling, 'the page with 100 idle agents, 10 in view');
    const total = shown.core + shown.page;
    line(
      '100 idle agents, 10 panes in view: core + page CPU',
      `${fmt(total * 100, 1).padStart(7)} %   (goal ≤ ${GOAL.idleCpu * 100}% of a core) ${mark(total <= GOAL.idleCpu)}  core ${fmt(shown.core * 100, 1)}% + page ${fmt(shown.page * 100, 1)}% (its main thread busy ${fmt(shown.mainThread * 100, 1)}% of the time); as opened (newest run shown): core ${fmt(bare.core * 100, 1)}% + page ${fmt(bare.page * 100, 1)}%`,
    );
    // The same with nothing focused: no cursor blinks (the focused pane's does).
    await p.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const blurred = await idleCpu(b, p, server, false, 'nothing focused');
    line(
      '  the same, nothing focused (no cursor blinking)',
      `${fmt((blurred.core + blurred.page) * 100, 1).padStart(7)} %   core ${fmt(blurred.core * 100, 1)}% + page ${fmt(blurred.page * 100, 1)}% (main thread busy ${fmt(blurred.mainThread * 100, 1)}%)`,
    );
    printTyping(await typing(p, profiling), (text) => text.padEnd(LABEL));
    if (p.errors.length > 0) console.log(`  page errors: ${p.errors.join(' | ')}`);
  } finally {
    await p?.close();
    if (client)
      for (let r = 0; r < RUNS; r++)
        await client.call('run.stop', { run: `idle-${String(r + 1).padStart(2, '0')}` }).catch(() => undefined);
    client?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await b.close();
    rmSync(root, { recursive: true, force: true });
    console.log(`(load at the end: ${load()})`);
  }
}

await main();
