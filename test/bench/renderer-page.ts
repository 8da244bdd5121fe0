// The browser side of the renderer bench: Debian's Chromium (as test/e2e/browser.ts launches it, plus precise
// memory figures and an exposed gc), a page on a `baton serve` showing the bench build of the dashboard, and the
// page's memory as DevTools reports it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM } from '../e2e/browser.js';
import type { OutputTuning } from '../../shared/output-tuning.js';
import { ROOT, type ServerProcess } from '../helpers/server.js';

/**
 * The bench build (`npm run build:renderer-bench`): the dashboard plus renderer/bench-hooks.ts, which the product
 * bundle in dist/renderer never carries (docs/architecture.md §11).
 */
/** BENCH_RENDERER_DIR=<dir>: another bench build (a copy of an earlier one), for runs side by side. */
export const BENCH_RENDERER = process.env.BENCH_RENDERER_DIR ?? join(ROOT, 'dist', 'renderer-bench');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const MEMORY_ARGS = ['--enable-precise-memory-info', '--js-flags=--expose-gc'];
/**
 * The bench page's files are answered by the bench (serveBenchBuild), so Chromium cannot tell they came from
 * loopback, and its Local Network Access checks would then refuse the page's WebSocket to the server on 127.0.0.1.
 */
const SERVED_BY_BENCH = '--disable-features=LocalNetworkAccessChecks';
/** As in test/e2e/browser.ts: without 3D APIs the panes take xterm's DOM renderer. */
const NO_WEBGL = '--disable-3d-apis';
export const VIEWPORT = { width: 1400, height: 860 } as const;

/** Mirror of renderer/bench-hooks.ts `BatonBench` (that file is typed against the DOM, which the tests are not). */
export interface PaneInfo {
  renderer: 'webgl' | 'dom';
  cols: number;
  rows: number;
  bufferLines: number;
  scrollback: number;
  ready: boolean;
  visible: boolean;
  draws: number | null;
}
export interface EchoSample {
  painted: number;
  parsed: number;
  queued: number;
}
export interface BatonBench {
  xtermWriteRate(bytes: number, like?: string): Promise<number>;
  paneBytes(agentId: string): number;
  paneText(agentId: string): string;
  pane(agentId: string): PaneInfo | null;
  timePaneOutput(
    agentId: string,
    trigger: string,
    bytes: number,
    timeoutMs?: number,
  ): Promise<{ ms: number; bytes: number }>;
  openLocalEcho(like: string): void;
  closeLocalEcho(): void;
  armEcho(agentId: string | null, letter: string, timeoutMs?: number): void;
  echoResult(): Promise<EchoSample>;
  /** Switches parts of the page's output path (renderer/panes/pane-output.ts); returns the tuning now in force. */
  setOutputTuning(next: Partial<OutputTuning>): OutputTuning;
}

/** What page functions see as their global object. */
export type BenchGlobal = typeof globalThis & {
  __batonBench: BatonBench;
  gc?: () => void;
  performance: { memory?: { usedJSHeapSize: number } };
};

export interface BenchBrowser {
  browser: Browser;
  webgl: boolean;
  version: string;
  close(): Promise<void>;
}

export async function launchBenchBrowser(webgl: boolean): Promise<BenchBrowser> {
  const args = [...ARGS, ...MEMORY_ARGS, SERVED_BY_BENCH, ...(webgl ? [] : [NO_WEBGL])];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args, timeout: 30_000 });
  return { browser, webgl, version: browser.version(), close: () => browser.close().catch(() => undefined) };
}

export interface BenchPage {
  page: Page;
  cdp: CDPSession;
  /** Uncaught errors and console errors of the page. */
  errors: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The server's files replaced by the bench build's, everything else as the server answers: the page keeps the
 * server's origin (its WebSocket, its token) and its security headers (CSP included), with the hooks in its script.
 */
async function serveBenchBuild(context: BrowserContext, server: ServerProcess): Promise<void> {
  if (!existsSync(join(BENCH_RENDERER, 'index.html'))) {
    throw new Error(
      `no bench build in ${BENCH_RENDERER}: run \`npm run build:renderer-bench\` (npm run bench:renderer does)`,
    );
  }
  const origin = new URL(server.url).origin;
  // The server's headers, fetched once (the same for all its files): fetching every file from the server first made
  // each wait for a core that may be busy (100 agents printing), which a page served by the core itself does not.
  let serverHeaders: Promise<Record<string, string>> | null = null;
  await context.route(
    (url) => url.origin === origin && url.pathname !== '/ws',
    async (route) => {
      const path = new URL(route.request().url()).pathname;
      const file = normalize(join(BENCH_RENDERER, path === '/' ? 'index.html' : decodeURIComponent(path.slice(1))));
      if (!file.startsWith(BENCH_RENDERER + sep) || !existsSync(file))
        return route.fulfill({ response: await route.fetch() });
      serverHeaders ??= route
        .fetch()
        .then((served) =>
          Object.fromEntries(
            Object.entries(served.headers()).filter(([name]) => !['content-length', 'content-type'].includes(name)),
          ),
        );
      const headers = await serverHeaders;
      await route.fulfill({
        status: 200,
        headers: { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
        body: readFileSync(file),
      });
    },
  );
}

/** A fresh context and page on the server, showing the bench build (with its hooks). */
export async function openBenchPage(b: BenchBrowser, server: ServerProcess, initScript?: string): Promise<BenchPage> {
  const context = await b.browser.newContext({ viewport: VIEWPORT });
  // Runs before the page's own scripts (a probe of when the dashboard becomes usable, say).
  if (initScript) await context.addInitScript(initScript);
  await serveBenchBuild(context, server);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${server.url}/#token=${server.token}`);
  try {
    await page.waitForFunction(() => (globalThis as BenchGlobal).__batonBench !== undefined, undefined, {
      timeout: 30_000,
    });
  } catch (err) {
    await context.close().catch(() => undefined);
    throw new Error(
      `the dashboard has no window.__batonBench: the bench build (${BENCH_RENDERER}) was not served or is stale; run \`npm run build:renderer-bench\`` +
        `${errors.length > 0 ? `; the page reported: ${errors.join(' | ')}` : ''} (${(err as Error).message.split('\n')[0]})`,
    );
  }
  const cdp = await context.newCDPSession(page);
  return { page, cdp, errors, close: () => context.close().catch(() => undefined) };
}

/** Waits until the agent's pane exists, is attached and takes input, and its size has settled (fit → resize). */
export async function paneReady(page: Page, agentId: string, timeoutMs = 60_000): Promise<PaneInfo> {
  await page.waitForFunction((id) => (globalThis as BenchGlobal).__batonBench.pane(id)?.ready === true, agentId, {
    timeout: timeoutMs,
    polling: 50,
  });
  let last = '';
  for (let stable = 0; stable < 3;) {
    await page.waitForTimeout(150);
    const info = await page.evaluate((id) => (globalThis as BenchGlobal).__batonBench.pane(id), agentId);
    const key = `${info?.cols}x${info?.rows}`;
    stable = key === last ? stable + 1 : 0;
    last = key;
  }
  return (await page.evaluate((id) => (globalThis as BenchGlobal).__batonBench.pane(id), agentId))!;
}

export interface MainThread {
  /** Seconds the page's main thread spent in tasks, and in script, so far (Performance.getMetrics). */
  task: number;
  script: number;
  at: number;
}

export async function mainThread(p: BenchPage): Promise<MainThread> {
  await p.cdp.send('Performance.enable');
  const { metrics } = await p.cdp.send('Performance.getMetrics');
  const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  return { task: get('TaskDuration'), script: get('ScriptDuration'), at: performance.now() };
}

/** Share of the wall time between `a` and `b` the page's main thread was busy (all tasks / script alone). */
export const busy = (a: MainThread, b: MainThread) => {
  const wall = (b.at - a.at) / 1000;
  return { task: (b.task - a.task) / wall, script: (b.script - a.script) / wall };
};

export interface MemorySample {
  /** performance.memory.usedJSHeapSize (precise), after a full GC. */
  usedJSHeapSize: number;
  /** Runtime.getHeapUsage: the V8 heap, Blink's own GC heap (DOM), ArrayBuffer backing stores (xterm's buffers). */
  v8Used: number;
  embedder: number;
  backing: number;
  /** DOM nodes (Performance.getMetrics). */
  nodes: number;
  /** Resident set sizes of Chromium's renderer and GPU processes (sums), from /proc; null where unreadable. */
  rendererRss: number | null;
  gpuRss: number | null;
}

/** Sum of VmRSS over the processes of `type` ('renderer', 'GPU'), as Chromium lists them; null if unavailable. */
async function rss(browser: Browser, types: string[]): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = Object.fromEntries(types.map((t) => [t, null]));
  try {
    const session = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = await session.send('SystemInfo.getProcessInfo');
      for (const p of processInfo) {
        if (!types.includes(p.type)) continue;
        try {
          const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.id}/status`, 'utf8'));
          if (m) out[p.type] = (out[p.type] ?? 0) + Number(m[1]) * 1024;
        } catch {
          // Gone meanwhile.
        }
      }
    } finally {
      await session.detach().catch(() => undefined);
    }
  } catch {
    // No SystemInfo domain: leave the RSS out.
  }
  return out;
}

export async function memory(b: BenchBrowser, p: BenchPage): Promise<MemorySample> {
  // Twice, so objects freed by finalizers of the first collection go too.
  for (let i = 0; i < 2; i++) {
    await p.page.evaluate(() => (globalThis as BenchGlobal).gc?.());
    await p.cdp.send('HeapProfiler.collectGarbage');
  }
  await p.page.waitForTimeout(200);
  const usedJSHeapSize = await p.page.evaluate(
    () => (globalThis as BenchGlobal).performance.memory?.usedJSHeapSize ?? Number.NaN,
  );
  const heap = await p.cdp.send('Runtime.getHeapUsage');
  await p.cdp.send('Performance.enable');
  const { metrics } = await p.cdp.send('Performance.getMetrics');
  const r = await rss(b.browser, ['renderer', 'GPU']);
  return {
    usedJSHeapSize,
    v8Used: heap.usedSize,
    embedder: heap.embedderHeapUsedSize ?? 0,
    backing: heap.backingStorageSize ?? 0,
    nodes: metrics.find((m) => m.name === 'Nodes')?.value ?? Number.NaN,
    rendererRss: r.renderer ?? null,
    gpuRss: r.GPU ?? null,
  };
}

/** CPU seconds (user + system) of a process so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds so far of the browser's renderer and GPU processes (every thread: main, compositor, raster), from
 * /proc. The main thread's busy time (Performance.getMetrics) is wall time, which a loaded machine stretches.
 */
export async function browserCpuSeconds(b: BenchBrowser): Promise<number> {
  const session = await b.browser.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    let sum = 0;
    for (const proc of processInfo) {
      if (proc.type !== 'renderer' && proc.type !== 'GPU') continue;
      try {
        sum += cpuSeconds(proc.id);
      } catch {
        // Gone meanwhile (a closed page's renderer).
      }
    }
    return sum;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * CPU seconds so far of every thread of the browser's processes, by process type and thread name ("renderer/
 * Compositor", "GPU/VizCompositorThread"), from /proc: which thread spends a page's CPU (BENCH_THREADS=1).
 */
export async function browserThreadSeconds(b: BenchBrowser): Promise<Map<string, number>> {
  const session = await b.browser.newBrowserCDPSession();
  const out = new Map<string, number>();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    for (const proc of processInfo) {
      let tids: string[] = [];
      try {
        tids = readdirSync(`/proc/${proc.id}/task`);
      } catch {
        continue; // gone meanwhile
      }
      for (const tid of tids) {
        try {
          const name = readFileSync(`/proc/${proc.id}/task/${tid}/comm`, 'utf8').trim();
          const fields = readFileSync(`/proc/${proc.id}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
          const key = `${proc.type}/${name}`;
          out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
        } catch {
          // a thread that ended meanwhile
        }
      }
    }
    return out;
  } finally {
    await session.detach().catch(() => undefined);
  }
}
