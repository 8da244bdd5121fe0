// The history's typing scene (part of the renderer bench's scale scenes; alone with BENCH_ONLY=history; idle.ts
// types the same): a run's name typed into the history's search box with 10,000 stored runs, then cleared, four
// times. Per key, in the page (renderer/bench-scale-hooks.ts): keydown → the filtered rows in the DOM (the page's
// work), and keydown → the next frame painted (what the user sees, with the wait for that frame), each next to the
// goal (docs/performance.md "Typing in the history: what a key costs").
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { TypingKey } from '../../renderer/bench-typing-hooks.js';
import { startServer, testEnv, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import { openBenchPage, type BenchBrowser, type BenchPage } from './renderer-page.js';
import { max, ms, quantile } from './stats.js';
import { tracingTyping, typingTrace } from './typing-trace.js';
import { printProfile, startProfile } from './page-profile.js';

const STORED_RUNS = 10_000;
const GOAL_MS = 16;
/** Chromium's frame interval here (60 Hz): the most a key can wait for the next frame. */
const FRAME_MS = 16.7;

interface TypingHooks {
  __batonScale: { armTyping(): void; typingKeys(): TypingKey[] };
}

const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));
const mark = (good: boolean) => (good ? '✓' : '✗');

/**
 * Types `history-0999` (10 of 10,000 runs match) and clears it, four times; every key's times. `during` runs once
 * the timing is armed, `after` once the keys are typed (a profile of the typing, say).
 */
export async function typeIntoHistory(
  page: Page,
  around: { during?(): Promise<void>; after?(): Promise<void> } = {},
): Promise<TypingKey[]> {
  await page.getByRole('searchbox', { name: 'Search runs' }).click();
  await page.evaluate(() => (globalThis as unknown as TypingHooks).__batonScale.armTyping());
  await around.during?.();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.type('history-0999', { delay: 40 });
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await sleep(100);
  }
  await around.after?.();
  return page.evaluate(() => (globalThis as unknown as TypingHooks).__batonScale.typingKeys());
}

const spread = (xs: number[]) => `p50 ${ms(quantile(xs, 0.5))} p99 ${ms(quantile(xs, 0.99))} max ${ms(max(xs))}`;

/** The two figures against the goal, and (BENCH_DIAG=1) every key's sample in the order typed. */
export function printTyping(keys: TypingKey[], label: (text: string) => string): void {
  const missed = keys.filter((k) => Number.isNaN(k.dom)).length;
  const done = keys.filter((k) => !Number.isNaN(k.dom) && !Number.isNaN(k.painted));
  const figures = [
    ['keydown → filtered rows in the DOM (no frame wait)', done.map((k) => k.dom)],
    [`keydown → next frame painted (incl. 0–${FRAME_MS} ms frame wait)`, done.map((k) => k.painted)],
  ] as const;
  for (const [what, samples] of figures) {
    const p99 = quantile(samples, 0.99);
    console.log(
      `${label(`history of ${STORED_RUNS.toLocaleString('en')} runs: ${what}`)}${ms(p99).padStart(9)}  (goal p99 ≤ ${GOAL_MS} ms) ${mark(p99 <= GOAL_MS)}  p50 ${ms(quantile(samples, 0.5))} max ${ms(max(samples))} n=${samples.length}, ${samples.filter((x) => x > GOAL_MS).length} over ${GOAL_MS} ms`,
    );
    // Every key's sample, in the order typed (12 keys and the clearing, four times).
    if (process.env.BENCH_DIAG === '1') console.log(`    ${samples.map((x) => x.toFixed(1)).join(' ')}`);
  }
  // Where the painted figure's time went: the key's wait for the page, the wait for the frame, the frame's own work.
  console.log(
    `${label('  of it: the key waiting for the page')}${spread(done.map((k) => k.wait))}; the frame's wait ${spread(done.map((k) => Math.max(0, k.frameAt - k.dom)))}; the frame's work ${spread(done.map((k) => k.painted - k.frameAt))}`,
  );
  if (missed > 0) console.log(`  ${missed} of ${keys.length} keys never showed their filtered rows within a second`);
}

/** Types into the history and prints the figures (BENCH_TRACE_TYPING=1: and what each slow key waited behind). */
export async function typeAndPrint(p: BenchPage, labelWidth: number): Promise<void> {
  const trace = tracingTyping() ? typingTrace(p) : null;
  // BENCH_PROFILE_TYPING=1: the page's CPU profile over the typing instead (where the keys' script time goes).
  const profile =
    process.env.BENCH_PROFILE_TYPING === '1'
      ? { during: () => startProfile(p), after: () => printProfile(p, 'typing into the history', 30) }
      : null;
  const keys = await typeIntoHistory(p.page, trace ?? profile ?? {});
  printTyping(keys, (text) => text.padEnd(labelWidth));
  trace?.report(keys);
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
    await typeAndPrint(p, 52);
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
