// Session import on a large store: `npx tsx test/bench/import.ts` (BENCH_FULL=1 for the ~3 GB store).
// 10,000 Claude transcripts in a temp HOME; the listing as `sessions.list` runs it (every adapter, filter, sort,
// limit), measured with an empty Baton cache (first listing), unchanged (refresh) and after 10 files grew, against the goals
// (first ≤ 2 s, refresh ≤ 200 ms) and against baselines taken in the same run on the same files: one synchronous
// stat per file (the floor of a refresh) and one 64 KiB read per file, 32 at a time through libuv (the floor of a
// first listing).
// Nothing here asserts a time; the process fails only when the listing is wrong. The files are deleted at the end.
import { randomUUID } from 'node:crypto';
import { appendFileSync, close, mkdirSync, mkdtempSync, open, read, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listFoundSessions } from '../../electron/core/runs/session-import.js';
import { CLAUDE_HEAD_BYTES } from '../../electron/core/vendors/claude/sessions.js';
import { CLAUDE_STORE } from '../../electron/core/vendors/claude/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { fmt, median } from './stats.js';

/** The vendors a core would have: the listing and its cache under measure are theirs. */
const vendors = createVendors();
const claudeSessions = vendors.context.state(CLAUDE_STORE).sessions;
const claudeSessionsCacheStats = () => claudeSessions.stats();
const resetClaudeSessionsCache = () => claudeSessions.reset();

const FILES = 10_000;
const PROJECTS = 100;
const FULL = process.env.BENCH_FULL === '1';
/** Approximate size of one transcript. */
const FILE_BYTES = FULL ? 300 * 1024 : 30 * 1024;
const FIRST_ROUNDS = 3;
const REFRESH_ROUNDS = 7;
const TOUCH_ROUNDS = 3;
const TOUCHED = 10;
const GOAL_FIRST_MS = 2000;
const GOAL_REFRESH_MS = 200;
const CONCURRENCY = 32;

const LABEL = 46;
const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
const msText = (n: number) => `${n < 100 ? n.toFixed(1) : n.toFixed(0)} ms`;

// ---------------------------------------------------------------- the store

/** What an assistant turn says beyond its filler (the search bench gives each turn words of its own). */
export type TurnWords = (i: number, turn: number) => string;

/** One transcript in the CLI's line format: a prompt, then assistant turns until `bytes`. */
function transcript(
  sessionId: string,
  cwd: string,
  i: number,
  filler: string,
  fileBytes: number,
  words?: TurnWords,
): Buffer {
  const envelope = { userType: 'external', entrypoint: 'cli', cwd, sessionId, version: '2.1.332', gitBranch: 'main' };
  const lines = [
    JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId }),
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type: 'user',
      message: {
        role: 'user',
        content: `task ${i}: refactor the module number ${i} and remember the number ${i % 997}`,
      },
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
      ...envelope,
    }),
  ];
  let size = lines[0]!.length + lines[1]!.length;
  for (let turn = 0; size < fileBytes; turn++) {
    const l = JSON.stringify({
      parentUuid: null,
      type: 'assistant',
      message: {
        role: 'assistant',
        model: 'claude-fake',
        content: [{ type: 'text', text: `turn ${turn}: ${words ? `${words(i, turn)} ` : ''}${filler}` }],
      },
      uuid: randomUUID(),
      ...envelope,
    });
    lines.push(l);
    size += l.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * Writes `files` Claude transcripts of about `fileBytes` each under `home` in PROJECTS projects (the import bench's
 * store; the search bench uses it too, with words of its own in each turn).
 */
export function generate(
  home: string,
  files = FILES,
  fileBytes = FILE_BYTES,
  words?: TurnWords,
): { files: string[]; bytes: number } {
  const projects = join(home, '.claude', 'projects');
  const filler = 'lorem ipsum dolor sit amet, '.repeat(100);
  const written: string[] = [];
  let bytes = 0;
  for (let p = 0; p < PROJECTS; p++) {
    const cwd = `/home/bench/project-${p}`;
    const dir = join(projects, cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    for (let k = 0; k < files / PROJECTS; k++) {
      const i = p * (files / PROJECTS) + k;
      const id = randomUUID();
      const file = join(dir, `${id}.jsonl`);
      const body = transcript(id, cwd, i, filler, fileBytes, words);
      writeFileSync(file, body);
      written.push(file);
      bytes += body.length;
    }
  }
  return { files: written, bytes };
}

// ---------------------------------------------------------------- baselines

async function eachLimited<T>(items: readonly T[], fn: (item: T, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      while (next < items.length) await fn(items[next++]!, w);
    }),
  );
}

/** The floor of a refresh: one synchronous stat per file, nothing else (the listing stats the same way, in slices). */
function statAll(files: readonly string[]): number {
  const t0 = performance.now();
  for (const f of files) statSync(f);
  return performance.now() - t0;
}

async function readHeads(files: readonly string[]): Promise<number> {
  const buffers = Array.from({ length: CONCURRENCY }, () => Buffer.allocUnsafe(CLAUDE_HEAD_BYTES));
  const t0 = performance.now();
  await eachLimited(
    files,
    (f, w) =>
      new Promise<void>((res, rej) =>
        open(f, 'r', (err, fd) => {
          if (err) return rej(err);
          read(fd, buffers[w]!, 0, CLAUDE_HEAD_BYTES, 0, (rerr) => close(fd, () => (rerr ? rej(rerr) : res())));
        }),
      ),
  );
  return performance.now() - t0;
}

// ---------------------------------------------------------------- the bench

const noRuns = { findAgentBySessionId: () => undefined };

interface Round {
  ms: number;
  /** The baseline taken just before. */
  base: number;
}

export async function importBench(): Promise<{ ok: boolean }> {
  console.log(
    `Session import bench  (node ${process.version}, ${availableParallelism()} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  const root = mkdtempSync(join(tmpdir(), 'baton-bench-import-'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  let ok = true;
  try {
    const home = join(root, 'home');
    const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const t0 = performance.now();
    const { files, bytes } = generate(home);
    console.log(
      `(store: ${files.length} Claude transcripts of ~${FILE_BYTES / 1024} KiB in ${PROJECTS} projects = ${fmt(bytes / 1e6)} MB, written in ${fmt((performance.now() - t0) / 1000, 1)} s; ` +
        (FULL
          ? 'BENCH_FULL=1: the full-size store'
          : 'the reduced store: BENCH_FULL=1 writes ~300 KiB files (~3 GB), the issue\'s "several GB"') +
        '; files are in the page cache, as after any recent use)',
    );

    // Each measurement is paired with its baseline, taken just before it: on a shared machine the load drifts
    // within seconds, and a ratio of neighbours means more than either figure alone.
    const first: Round[] = [];
    let page = 0;
    for (let r = 0; r < FIRST_ROUNDS; r++) {
      const base = await readHeads(files);
      resetClaudeSessionsCache();
      const t = performance.now();
      const listed = await listFoundSessions(env, noRuns, {}, vendors.adapters);
      first.push({ ms: performance.now() - t, base });
      page = listed.sessions.length;
      const { reads } = claudeSessionsCacheStats();
      if (listed.total !== FILES || reads !== FILES) {
        console.log(
          `  ! first listing found ${listed.total} sessions and read ${reads} files; expected ${FILES} and ${FILES}`,
        );
        ok = false;
      }
    }

    const refresh: Round[] = [];
    for (let r = 0; r < REFRESH_ROUNDS; r++) {
      const base = statAll(files);
      const before = claudeSessionsCacheStats().reads;
      const t = performance.now();
      const listed = await listFoundSessions(env, noRuns, {}, vendors.adapters);
      refresh.push({ ms: performance.now() - t, base });
      const read = claudeSessionsCacheStats().reads - before;
      if (listed.total !== FILES || read !== 0) {
        console.log(
          `  ! an unchanged refresh found ${listed.total} sessions and read ${read} files; expected ${FILES} and none`,
        );
        ok = false;
      }
    }

    const touched: Round[] = [];
    for (let r = 0; r < TOUCH_ROUNDS; r++) {
      const step = Math.floor(FILES / TOUCHED);
      for (let k = 0; k < TOUCHED; k++) {
        appendFileSync(
          files[k * step + r]!,
          `${JSON.stringify({ type: 'last-prompt', lastPrompt: 'more', sessionId: 'x' })}\n`,
        );
      }
      const base = statAll(files);
      const before = claudeSessionsCacheStats().reads;
      const t = performance.now();
      const listed = await listFoundSessions(env, noRuns, {}, vendors.adapters);
      touched.push({ ms: performance.now() - t, base });
      const read = claudeSessionsCacheStats().reads - before;
      if (listed.total !== FILES || read !== TOUCHED) {
        console.log(`  ! after ${TOUCHED} files grew the listing read ${read}; expected ${TOUCHED}`);
        ok = false;
      }
    }

    const mark = (v: number, goal: number) => (v <= goal ? '✓' : '✗');
    const report = (label: string, rounds: Round[], goal: number, baseName: string) => {
      const ms = median(rounds.map((r) => r.ms));
      const ratio = median(rounds.map((r) => r.ms / r.base));
      line(
        label,
        `${msText(ms).padStart(9)}   goal ≤ ${goal} ms ${mark(ms, goal)}   ${fmt(ratio, 2)} × ${baseName} (median ${msText(median(rounds.map((r) => r.base)))})` +
          `   (runs ${rounds.map((r) => msText(r.ms)).join(' / ')})`,
      );
    };
    report('first listing (10,000 read)', first, GOAL_FIRST_MS, 'read-64K-of-each baseline');
    report('refresh, nothing changed (0 read)', refresh, GOAL_REFRESH_MS, 'stat-each baseline');
    report(`refresh after ${TOUCHED} files grew (${TOUCHED} read)`, touched, GOAL_REFRESH_MS, 'stat-each baseline');
    console.log(
      `  (medians of ${FIRST_ROUNDS} / ${REFRESH_ROUNDS} / ${TOUCH_ROUNDS} rounds, each ratio against its own baseline taken just before; ` +
        `sessions.list returns the newest ${page} of ${FILES})`,
    );
  } finally {
    cleanup();
    console.log(`(removed ${root})`);
  }
  return { ok };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ok } = await importBench();
  if (!ok) process.exitCode = 1;
}
