// `npx tsx test/bench/first-list.ts` (after `npm run build`): the first history list of a core just opened on 10,000
// stored runs with nothing saved yet (no health answers, no cost sums: a first start, docs/performance.md "First
// history list after open"). Each round opens a fresh core (the saved files removed), asks at once what a page asks
// (its first screen, then the whole list in pages: renderer/state/run-list-sync.ts) and, on the next fresh core, the
// whole list in one answer (the scale bench's row), each with the core's CPU spent on it, then a steady whole list.
// BENCH_BEFORE=<a tree with an older build> alternates that tree's core with this one in every round (paired runs on
// one store, in one process): ratios per round, then their median. Each side is read by its own client (its build's
// dist/: the contract's check of the answers is part of the figure) and asks what its own page asks (the history's
// rows without the agents' states where its contract has `states`). BENCH_ROUNDS rounds (3 unless given). Nothing
// here asserts a time.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import type { RunSummary } from '../../shared/contract.js';
import { connect } from '../../electron/cli/connect.js';
import { FIRST_SCREEN, HISTORY_ROWS, PAGE } from '../../renderer/state/run-list-sync.js';
import { readServerJson } from '../helpers/core.js';
import { ROOT, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { writeManyRuns } from './many-runs.js';
import { cpuMs, medianOf, timed } from './scale-measure.js';
import { fmt, median } from './stats.js';

const RUNS = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_MS = 300;
/**
 * BENCH_GAP_MS: how long after the core serves the first request comes (0 unless given: the worst case). A page
 * asks once it has loaded: the cold-start bench's page part is 0.3–1.4 s on this machine (test/bench/idle.ts).
 */
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 0);
/** What the core leaves for the next one: removed before every open, so each one starts with nothing saved. */
const SAVED = ['run-health.json', 'run-costs.json'];

interface Figures {
  /** The page's way: first screen, then pages of 1,000 until every run is in. */
  screenMs: number;
  pagedMs: number;
  pagedCpuMs: number;
  /** One whole answer, on a core of its own. */
  wholeMs: number;
  wholeCpuMs: number;
  steadyMs: number;
}

const load = () => loadavg()[0]!.toFixed(1);

/** One tree's way to read a core: its core, its client (with its contract) and what its page adds to each list. */
interface Side {
  name: string;
  bin: string;
  connect: typeof connect;
  rows: Partial<typeof HISTORY_ROWS>;
}

/** The tree at `root` (a build's bin/ and dist/): its own client, and the history's rows if its contract has them. */
async function sideOf(name: string, root: string): Promise<Side> {
  const cli = (await import(join(root, 'dist', 'electron', 'cli', 'connect.js'))) as { connect: typeof connect };
  const contract = (await import(join(root, 'dist', 'shared', 'contract.js'))) as {
    requests: { 'run.list': { params: { shape: Record<string, unknown> } } };
  };
  const rows = 'states' in contract.requests['run.list'].params.shape ? HISTORY_ROWS : {};
  return { name, bin: join(root, 'bin', 'baton.js'), connect: cli.connect, rows };
}

/** A core of the tree at `root` on `dataDir`, with nothing saved; `use` runs against it, then it is stopped. */
async function withCore<T>(
  { bin, connect }: Side,
  dataDir: string,
  env: Record<string, string>,
  use: (c: RpcClient, pid: number) => Promise<T>,
) {
  for (const f of SAVED) rmSync(join(dataDir, f), { force: true });
  rmSync(join(dataDir, 'server.json'), { force: true });
  const child = spawn(process.execPath, [bin, 'serve', '--socket', '--data-dir', dataDir], { env, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitFor(() => readServerJson(dataDir)?.pid === child.pid, 'the core to serve', 30_000);
    const info = readServerJson(dataDir)!;
    const client = await connect({ socket: info.socket, token: info.token });
    if (GAP_MS > 0) await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    try {
      return await use(client, child.pid!);
    } finally {
      client.close();
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The rest of the list after `from` (the first screen), in pages of 1,000 as the page reads it; how many runs in all. */
async function paged(client: RpcClient, from: readonly RunSummary[], rows: Side['rows']): Promise<number> {
  let all = from.length;
  let last = from.at(-1);
  while (last) {
    const after = { updatedAt: last.updatedAt, id: last.id };
    const page = await client.call('run.list', { ...rows, limit: PAGE, after });
    all += page.length;
    last = page.length < PAGE ? undefined : page.at(-1);
  }
  return all;
}

async function measure(side: Side, dataDir: string, env: Record<string, string>): Promise<Figures> {
  const { rows } = side;
  const page = await withCore(side, dataDir, env, async (client, pid) => {
    const cpu0 = cpuMs(pid);
    const t0 = performance.now();
    const screen = await timed(() => client.call('run.list', { ...rows, limit: FIRST_SCREEN }));
    const count = await paged(client, screen.value, rows);
    const pagedMs = performance.now() - t0;
    if (count !== RUNS) throw new Error(`the pages gave ${count} runs`);
    return { screenMs: screen.ms, pagedMs, pagedCpuMs: cpuMs(pid) - cpu0 };
  });
  const whole = await withCore(side, dataDir, env, async (client, pid) => {
    const cpu0 = cpuMs(pid);
    const first = await timed(() => client.call('run.list', rows));
    const wholeCpuMs = cpuMs(pid) - cpu0;
    if (first.value.length !== RUNS) throw new Error(`run.list gave ${first.value.length} runs`);
    const steadyMs = await medianOf(3, () => client.call('run.list', rows));
    return { wholeMs: first.ms, wholeCpuMs, steadyMs };
  });
  return { ...page, ...whole };
}

const LABEL = 50;
const row = (label: string, value: string, rest = '') =>
  console.log(`${label.padEnd(LABEL)}${value.padStart(10)}  ${rest}`);

async function main(): Promise<void> {
  const before = process.env.BENCH_BEFORE;
  console.log(
    `First history list after open, ${RUNS} runs, nothing saved (${ROUNDS} rounds, asked ${GAP_MS} ms after serving, load ${load()})`,
  );
  const root = tempDir('baton-first-list-');
  try {
    const dirs = [0, 1, 2].map((i) => join(root, `repo${i}`));
    for (const d of dirs) mkdirSync(d);
    const dataDir = join(root, 'data');
    await writeManyRuns(dataDir, RUNS, dirs);
    const env = testEnv(join(root, 'home'));
    const sides = [await sideOf('this build', ROOT)];
    if (before) sides.unshift(await sideOf('BENCH_BEFORE', before));
    for (const side of sides)
      console.log(`  ${side.name}: ${side.bin} asks ${JSON.stringify({ ...side.rows, limit: FIRST_SCREEN })} first`);
    const all = new Map<string, Figures[]>(sides.map(({ name }) => [name, []]));
    for (let r = 1; r <= ROUNDS; r++) {
      for (const side of sides) {
        const { name } = side;
        const f = await measure(side, dataDir, env);
        all.get(name)!.push(f);
        console.log(
          `  round ${r} ${name.padEnd(12)} load ${load()}: screen ${fmt(f.screenMs)} ms, paged whole ${fmt(f.pagedMs)} ms ` +
            `(core CPU ${fmt(f.pagedCpuMs)} ms); one answer ${fmt(f.wholeMs)} ms (core CPU ${fmt(f.wholeCpuMs)} ms), ` +
            `steady ${fmt(f.steadyMs)} ms`,
        );
      }
    }
    const med = (name: string, key: keyof Figures) => median(all.get(name)!.map((f) => f[key]));
    const keys: [keyof Figures, string, boolean][] = [
      ['screenMs', "a page's first screen (newest 150)", true],
      ['pagedMs', 'the whole history, as a page asks (pages of 1,000)', true],
      ['pagedCpuMs', '  core CPU for it', false],
      ['wholeMs', 'first whole run.list (one answer)', true],
      ['wholeCpuMs', '  core CPU for it', false],
      ['steadyMs', 'steady whole run.list (median of 3)', true],
    ];
    console.log(`\nmedians (load ${load()})`);
    for (const [key, label, goal] of keys) {
      const now = med('this build', key);
      const vsSteady =
        key === 'wholeMs' || key === 'pagedMs' ? `${fmt(now / med('this build', 'steadyMs'), 2)} × steady` : '';
      const vsBefore = before
        ? `${fmt(median(all.get('this build')!.map((f, i) => f[key] / all.get('BENCH_BEFORE')![i]![key])), 2)} × before (${fmt(med('BENCH_BEFORE', key))} ms)`
        : '';
      row(
        label,
        `${fmt(now)} ms`,
        [vsBefore, vsSteady, goal ? `goal ≤ ${GOAL_MS} ms ${now <= GOAL_MS ? '✓' : '✗'}` : '']
          .filter(Boolean)
          .join('  '),
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`first-list bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
