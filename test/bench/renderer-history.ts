// The history's typing scene (part of the renderer bench's scale scenes; alone with BENCH_ONLY=history): a run's name
// typed into the history's search box with 10,000 stored runs, then cleared, four times. Per key, in the page
// (renderer/bench-scale-hooks.ts): keydown → the filtered list committed, and keydown → the next frame painted after
// it (what the user sees), each next to the goal (docs/performance.md "Typing in the history").
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startServer, testEnv, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import { openBenchPage, type BenchBrowser, type BenchPage } from './renderer-page.js';
import { max, ms, quantile } from './stats.js';

const STORED_RUNS = 10_000;
const GOAL_MS = 16;

interface TypingHooks {
  __batonScale: { armTyping(): void; typingSamples(): number[]; typingPainted(): number[] };
}

export interface Typing {
  /** keydown → the filtered list committed (ms). */
  committed: number[];
  /** keydown → the frame after that commit painted (ms). */
  painted: number[];
}

const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));
const mark = (good: boolean) => (good ? '✓' : '✗');

/** Types `history-0999` (10 of 10,000 runs match) and clears it, four times; the samples of every key. */
export async function typeIntoHistory(page: Page): Promise<Typing> {
  await page.getByRole('searchbox', { name: 'Search runs' }).click();
  await page.evaluate(() => (globalThis as unknown as TypingHooks).__batonScale.armTyping());
  for (let i = 0; i < 4; i++) {
    await page.keyboard.type('history-0999', { delay: 40 });
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await sleep(100);
  }
  return page.evaluate(() => {
    const hooks = (globalThis as unknown as TypingHooks).__batonScale;
    return { committed: hooks.typingSamples(), painted: hooks.typingPainted() };
  });
}

export function printTyping({ committed, painted }: Typing, label: (text: string) => string): void {
  for (const [what, samples] of [
    ['keystroke → list filtered', committed],
    ['keystroke → filtered list painted', painted],
  ] as const) {
    const p99 = quantile(samples, 0.99);
    console.log(
      `${label(`history of ${STORED_RUNS.toLocaleString('en')} runs: ${what}`)}${ms(p99).padStart(9)}  (goal p99 ≤ ${GOAL_MS} ms) ${mark(p99 <= GOAL_MS)}  p50 ${ms(quantile(samples, 0.5))} max ${ms(max(samples))} n=${samples.length}, ${samples.filter((x) => x > GOAL_MS).length} over ${GOAL_MS} ms`,
    );
    // BENCH_DIAG=1: every key's sample, in the order typed (12 keys and the clearing, four times).
    if (process.env.BENCH_DIAG === '1') console.log(`  ${samples.map((x) => x.toFixed(1)).join(' ')}`);
  }
}

/** The scene alone in `root` (a temporary directory the caller removes): no agents, the stored runs only. */
export async function historyBench(b: BenchBrowser, root: string): Promise<boolean> {
  const work = join(root, 'history-work');
  const dataDir = join(root, 'history-data');
  mkdirSync(work, { recursive: true });
  writeStoredRuns(dataDir, STORED_RUNS, work);
  let server: ServerProcess | null = null;
  let p: BenchPage | null = null;
  try {
    server = await startServer(dataDir, testEnv(join(root, 'history-home')));
    p = await openBenchPage(b, server);
    await p.page.waitForFunction(
      (n) => document.querySelector('[aria-label="Runs"]')?.getAttribute('aria-rowcount') === String(n),
      STORED_RUNS,
    );
    await sleep(2000);
    printTyping(await typeIntoHistory(p.page), (text) => text.padEnd(52));
    if (p.errors.length > 0) console.log(`  page errors: ${p.errors.join(' | ')}`);
    return true;
  } catch (err) {
    console.error(`history bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return false;
  } finally {
    await p?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
}
