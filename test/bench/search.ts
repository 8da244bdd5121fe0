// Search across every transcript on a large store: `npx tsx test/bench/search.ts` (BENCH_FULL=1: ~3 GB).
// The import bench's generator writes 10,000 Claude transcripts in a temp HOME, each assistant turn with a few words
// of its own (a vocabulary of VOCABULARY words) besides its filler. Measured through the real worker thread, as the
// core runs it: the first index (with the core's event loop delay meanwhile), a refresh after 10 transcripts grew (watched, and as a full pass),
// queries, and the saved index's size; each against the goals, and against a baseline of the same run on the same
// files: reading every file (first index), stat'ing every file (refresh), and a plain scan of every file for the
// word (a query without an index, as grep would do it).
// Nothing here asserts a time; the process fails only when a result is wrong. The files are deleted at the end.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Result, SearchStatus } from '../../shared/contract.js';
import { FULL_PASS_MS } from '../../electron/core/search/engine.js';
import { SearchWorkerClient } from '../../electron/core/search/search-worker-client.js';
import { generate } from './import.js';
import { fmt, median, quantile } from './stats.js';

const BUILT_WORKER = new URL('../../dist/electron/core/search/search-worker.js', import.meta.url);
const FILES = 10_000;
const FULL = process.env.BENCH_FULL === '1';
const FILE_BYTES = FULL ? 300 * 1024 : 30 * 1024;
const VOCABULARY = 30_000;
const WORDS_PER_TURN = 12;
const TOUCHED = 10;
const QUERIES = 100;
const GOAL_FIRST_MS = 60_000;
const GOAL_REFRESH_MS = 200;
const GOAL_QUERY_P95_MS = 50;
const GOAL_SIZE_SHARE = 0.1;
/** The core stays responsive while the worker indexes: its event loop's longest delay then. */
const GOAL_LOOP_DELAY_MS = 50;

const LABEL = 44;
const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
const msText = (n: number) => `${n < 100 ? n.toFixed(1) : n.toFixed(0)} ms`;
const mark = (ok: boolean) => (ok ? '✓' : '✗');

/** A word of the vocabulary: `w` + base 36, drawn with a skew (a few words common, most rare), deterministic. */
function wordsOf(seed: number): (i: number, turn: number) => string {
  let s = seed;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  return () =>
    Array.from({ length: WORDS_PER_TURN }, () => `w${Math.floor(next() ** 2 * VOCABULARY).toString(36)}`).join(' ');
}

/** The floor of a query without an index: every file read and scanned for the word. */
function scanAll(files: readonly string[], word: string): { ms: number; hits: number } {
  const needle = Buffer.from(word);
  const t = performance.now();
  let hits = 0;
  for (const f of files) if (readFileSync(f).includes(needle)) hits++;
  return { ms: performance.now() - t, hits };
}

/** The floor of a first index: every file read once, as the indexer reads it. */
function readAll(files: readonly string[]): number {
  const t = performance.now();
  for (const f of files) readFileSync(f);
  return performance.now() - t;
}

/** The floor of a refresh: one stat per file. */
function statAll(files: readonly string[]): number {
  const t = performance.now();
  for (const f of files) statSync(f);
  return performance.now() - t;
}

type Found = Result<'search.query'> extends infer R ? Omit<R, 'results'> & { results: { sessionId: string }[] } : never;

export async function searchBench(): Promise<{ ok: boolean }> {
  console.log(
    `Search bench  (node ${process.version}, ${availableParallelism()} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  const root = mkdtempSync(join(tmpdir(), 'baton-bench-search-'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  let ok = true;
  const fail = (why: string) => {
    console.log(`  ! ${why}`);
    ok = false;
  };
  // The worker is the built one (npm run build), as the core runs it.
  const worker = new SearchWorkerClient(join(root, 'data', 'search', 'index.sqlite'), () => undefined, BUILT_WORKER);
  try {
    const home = join(root, 'home');
    const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const t0 = performance.now();
    const { files, bytes } = generate(home, FILES, FILE_BYTES, wordsOf(7));
    console.log(
      `(store: ${files.length} Claude transcripts of ~${FILE_BYTES / 1024} KiB = ${fmt(bytes / 1e6)} MB, written in ${fmt((performance.now() - t0) / 1000, 1)} s; ` +
        (FULL ? 'BENCH_FULL=1: the full-size store' : 'reduced: BENCH_FULL=1 writes ~300 KiB files (~3 GB)') +
        `; each turn: ${WORDS_PER_TURN} words of a ${VOCABULARY}-word vocabulary + the import bench's filler)`,
    );

    // The event loop's delays with nothing to do, for as long as the first index took last time (the baseline of
    // "the core stays responsive": on a loaded machine the loop waits for a core even when idle).
    const baseRead = readAll(files);
    const idle = monitorEventLoopDelay({ resolution: 10 });
    idle.enable();
    await new Promise((r) => setTimeout(r, 3000));
    idle.disable();
    // First index, through the worker, while the core's event loop is watched.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let t = performance.now();
    const first = await worker.ask<SearchStatus>({ op: 'refresh', env });
    const firstMs = performance.now() - t;
    delay.disable();
    const loopMax = delay.max / 1e6;
    if (first.files !== FILES) fail(`the first index holds ${first.files} transcripts; expected ${FILES}`);
    t = performance.now();
    await worker.ask<boolean>({ op: 'save' });
    const saveMs = performance.now() - t;
    const indexBytes = statSync(join(root, 'data', 'search', 'index.sqlite')).size;

    // Refresh after 10 transcripts grew by a line with a word nobody said before: watched (the folders' events name
    // the grown files; what `search.refresh` and the 10 s timer do), then as the full pass (every file stat'ed: the
    // safety net every few minutes, and what every refresh was before watching).
    const refresh: { ms: number; base: number }[] = [];
    const fullRefresh: { ms: number; base: number }[] = [];
    for (let r = 0; r < 6; r++) {
      const full = r >= 3;
      const word = `appended${r}zz`;
      const step = Math.floor(FILES / TOUCHED);
      for (let k = 0; k < TOUCHED; k++)
        appendFileSync(
          files[k * step + r]!,
          `${JSON.stringify({ type: 'user', cwd: '/home/bench', message: { role: 'user', content: `now ${word}` } })}\n`,
        );
      const base = statAll(files);
      t = performance.now();
      await worker.ask<SearchStatus>({ op: 'refresh', env, full });
      (full ? fullRefresh : refresh).push({ ms: performance.now() - t, base });
      const found = await worker.ask<Found>({ op: 'query', query: { text: word, limit: 50 } });
      if (found.total !== TOUCHED) fail(`after ${TOUCHED} files grew, '${word}' is in ${found.total} results`);
    }

    // Queries: a rare word, two words, a word and a prefix, a phrase, and the filler's word every message holds.
    const pick = wordsOf(99);
    const texts = Array.from({ length: QUERIES }, (_, i) => {
      const [a, b] = pick(0, 0).split(' ');
      return [a!, `${a} ${b}`, `task ${i * 97} ${a!.slice(0, 3)}*`, `"refactor the module number ${i * 89}"`, 'lorem'][
        i % 5
      ]!;
    });
    const queryMs: number[] = [];
    for (const text of texts) {
      t = performance.now();
      await worker.ask<Found>({ op: 'query', query: { text, limit: 50 } });
      queryMs.push(performance.now() - t);
    }
    const probe = `task ${1234}`;
    const exact = await worker.ask<Found>({ op: 'query', query: { text: `"${probe}"`, limit: 50 } });
    if (exact.total !== 1) fail(`'${probe}' is in ${exact.total} results; expected 1`);
    const scan = scanAll(files, 'w1a2b');

    const firstOk = firstMs <= GOAL_FIRST_MS;
    line(
      'first index (worker thread)',
      `${msText(firstMs).padStart(9)}   goal ≤ ${GOAL_FIRST_MS / 1000} s ${mark(firstOk)}   ${fmt(firstMs / baseRead, 1)} × read-every-file baseline (${msText(baseRead)})`,
    );
    line(
      "  core's event loop meanwhile",
      `${msText(loopMax).padStart(9)}   longest delay, goal ≤ ${GOAL_LOOP_DELAY_MS} ms ${mark(loopMax <= GOAL_LOOP_DELAY_MS)}   p99 ${msText(delay.percentile(99) / 1e6)}; idle baseline: longest ${msText(idle.max / 1e6)}, p99 ${msText(idle.percentile(99) / 1e6)}`,
    );
    const refreshMs = median(refresh.map((r) => r.ms));
    line(
      `refresh after ${TOUCHED} transcripts grew`,
      `${msText(refreshMs).padStart(9)}   goal ≤ ${GOAL_REFRESH_MS} ms ${mark(refreshMs <= GOAL_REFRESH_MS)}   ${fmt(median(refresh.map((r) => r.ms / r.base)), 2)} × stat-every-file baseline (${msText(median(refresh.map((r) => r.base)))})` +
        `   (runs ${refresh.map((r) => msText(r.ms)).join(' / ')})`,
    );
    const fullMs = median(fullRefresh.map((r) => r.ms));
    line(
      '  the same, as a full pass (safety net)',
      `${msText(fullMs).padStart(9)}   every ${FULL_PASS_MS / 60_000} min, no goal   ${fmt(median(fullRefresh.map((r) => r.ms / r.base)), 2)} × stat-every-file baseline; watched is ${fmt(fullMs / refreshMs, 0)}× faster` +
        `   (runs ${fullRefresh.map((r) => msText(r.ms)).join(' / ')})`,
    );
    const p95 = quantile(queryMs, 0.95);
    line(
      `query p95 (${QUERIES} queries, 5 kinds)`,
      `${msText(p95).padStart(9)}   goal ≤ ${GOAL_QUERY_P95_MS} ms ${mark(p95 <= GOAL_QUERY_P95_MS)}   ${fmt(scan.ms / p95, 0)}× faster than scanning every file (${msText(scan.ms)})` +
        `   (median ${msText(median(queryMs))})`,
    );
    const share = indexBytes / bytes;
    line(
      'index size on disk',
      `${fmt(indexBytes / 1e6, 1).padStart(6)} MB   goal ≤ ${GOAL_SIZE_SHARE * 100}% ${mark(share <= GOAL_SIZE_SHARE)}   ${fmt(share * 100, 2)}% of the transcripts' ${fmt(bytes / 1e6)} MB` +
        `   (${first.messages} messages; saved in ${msText(saveMs)})`,
    );
  } finally {
    await worker.close();
    cleanup();
    console.log(`(removed ${root})`);
  }
  return { ok };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ok } = await searchBench();
  if (!ok) process.exitCode = 1;
}
