// The page's share of a cold start, phase by phase, on the product's own path: `baton serve` on 10,000 stored runs
// answers the page's files itself (no Playwright routing), and the page is timed from navigation until its run list
// and New run button exist (the probe of idle.ts and the renderer bench's scale scene). Beside it, the same start
// with the bench's routing (serveBenchBuild: every file fetched by Playwright and handed to Chromium over DevTools),
// which a user never pays. A/B: COLD_PAGE_BASE=<a package root with bin/ and dist/ of another build> alternates that
// build with this one (ABBA), each start on a fresh `baton serve` as idle.ts's cold starts are.
// Run: `npx tsx test/bench/cold-page.ts` (after `npm run build` and `npm run build:renderer-bench`).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { skipUnlessChromium } from '../e2e/browser.js';
import { BATON_BIN, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import { coreTuning } from './renderer-kit.js';
import { printTrace, startTrace } from './page-trace.js';
import { launchBenchBrowser, openBenchPage, VIEWPORT, type BenchBrowser, type BenchPage } from './renderer-page.js';
import { median } from './stats.js';
import { PROBE, type ColdGlobal } from './cold-page-probe.js';

const STORED_RUNS = Number(process.env.COLD_PAGE_RUNS ?? 10_000);
const PAIRS = Number(process.env.COLD_PAGE_PAIRS ?? 3);
const GOAL_MS = 1000;
/** The timeline's categories plus V8's compile and module events (where a script's load goes). */
const TRACE_CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.execute,blink,loading';

interface Phases {
  shown: number;
  doc: number;
  script: number;
  dcl: number;
  wsOpen: number;
  firstList: number;
  firstListBytes: number;
  longTasks: string;
  requests: string;
}

async function measure(page: Page, url: string | null): Promise<Phases> {
  if (url) await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as ColdGlobal).__cold.shown !== undefined, undefined, {
    timeout: 60_000,
  });
  return page.evaluate(() => {
    const c = (globalThis as unknown as ColdGlobal).__cold;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) =>
      r.name.endsWith('.js'),
    );
    const firstList = Object.entries(c.requests).find(([, [method]]) => method === 'run.list');
    const reply = firstList ? c.replies[firstList[0]] : undefined;
    return {
      shown: c.shown!,
      doc: nav.responseEnd,
      script: Math.max(0, ...js.map((r) => r.responseEnd)),
      dcl: nav.domContentLoadedEventStart,
      wsOpen: c.wsOpen ?? NaN,
      firstList: reply ? reply[0] : NaN,
      firstListBytes: reply ? reply[1] : NaN,
      requests: Object.entries(c.requests)
        .map(([id, [method, at]]) => `${method} ${Math.round(at)}→${Math.round(c.replies[id]?.[0] ?? NaN)}`)
        .join(', '),
      longTasks: c.longTasks
        .filter(([at]) => at < c.shown!)
        .map(([at, d]) => `${d}@${at}`)
        .join(' '),
    };
  });
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0).padStart(5) : '    –');
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** One cold start: a fresh core from `bin`, then a fresh page on it, routed through Playwright or straight. */
async function coldStart(
  b: BenchBrowser,
  bin: string,
  dataDir: string,
  env: Record<string, string>,
  routed: boolean,
): Promise<Phases> {
  const server: ServerProcess = await startServer(dataDir, env, [], bin);
  try {
    if (routed) {
      const p = await openBenchPage(b, server, PROBE);
      // openBenchPage navigated already; read what that navigation took.
      try {
        return await measure(p.page, null);
      } finally {
        await p.close();
      }
    }
    const context = await b.browser.newContext({ viewport: VIEWPORT });
    // The probe tells the bench at once when the list is shown, so that a profile ends there (not a poll later).
    let shown = () => {};
    const shownNow = new Promise<void>((resolve) => (shown = resolve));
    await context.exposeFunction('__coldShownHook', () => shown());
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    // COLD_PAGE_TRACE=1: Chromium's timeline of the load (page-trace.ts), printed after each straight start.
    const traced = process.env.COLD_PAGE_TRACE === '1' ? { page, cdp: await context.newCDPSession(page) } : null;
    if (traced) await startTrace(traced as unknown as BenchPage, TRACE_CATEGORIES);
    // COLD_PAGE_PROFILE=<file>: the page's CPU profile of the load (DevTools format), for a source map to name.
    const profileFile = process.env.COLD_PAGE_PROFILE;
    const profiler = profileFile ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.send('Profiler.start');
    }
    try {
      const phases = measure(page, `${server.url}/#token=${server.token}`);
      await shownNow;
      if (profiler && profileFile)
        writeFileSync(profileFile, JSON.stringify((await profiler.send('Profiler.stop')).profile));
      if (traced) await printTrace(traced as unknown as BenchPage, 'a cold load, navigation → list shown');
      return await phases;
    } finally {
      await context.close();
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

async function main(): Promise<void> {
  const skip = skipUnlessChromium();
  if (skip) return console.log(`cold page bench ${skip}`);
  const root = tempDir('baton-cold-page-');
  const work = join(root, 'work');
  const dataDir = join(root, 'data');
  mkdirSync(work, { recursive: true });
  writeStoredRuns(dataDir, STORED_RUNS, work);
  const env = testEnv(join(root, 'home'), coreTuning());
  const base = process.env.COLD_PAGE_BASE;
  const builds: [string, string][] = base
    ? [
        ['base', join(base, 'bin', 'baton.js')],
        ['this', BATON_BIN],
      ]
    : [['this', BATON_BIN]];
  const modes = (process.env.COLD_PAGE_MODES ?? 'direct,routed').split(',');
  const b = await launchBenchBrowser(false);
  console.log(`cold page bench: ${STORED_RUNS} stored runs, load ${load()}`);
  console.log(
    'build mode     shown   doc script   dcl wsOpen list(bytes)        long tasks before shown (ms@at)'.padEnd(60),
  );
  const results = new Map<string, number[]>();
  try {
    // A warm-up start (the store's first open saves health and costs; the disk cache fills).
    await coldStart(b, BATON_BIN, dataDir, env, false);
    for (let pair = 0; pair < PAIRS; pair++) {
      const order = pair % 2 === 0 ? builds : [...builds].reverse();
      for (const mode of modes)
        for (const [name, bin] of mode === 'routed'
          ? ([['this', BATON_BIN]] as const)
          : [...order, ...[...order].reverse()]) {
          const r = await coldStart(b, bin, dataDir, env, mode === 'routed');
          const key = `${name} ${mode}`;
          results.set(key, [...(results.get(key) ?? []), r.shown]);
          console.log(
            `${key.padEnd(12)} ${f(r.shown)} ${f(r.doc)} ${f(r.script)} ${f(r.dcl)} ${f(r.wsOpen)} ${f(r.firstList)} (${r.firstListBytes})  ${r.longTasks}  [load ${load()}]`,
          );
          if (process.env.COLD_PAGE_REQUESTS === '1') console.log(`    ${r.requests}`);
        }
    }
    for (const [key, values] of results)
      console.log(
        `${key.padEnd(12)} median ${median(values).toFixed(0)} ms of ${values.length} (goal ≤ ${GOAL_MS} ms for the whole start)`,
      );
  } finally {
    await b.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
