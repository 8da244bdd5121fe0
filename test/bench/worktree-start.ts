// Time to a live pane for an agent in its own worktree: `npx tsx test/bench/worktree-start.ts` (after `npx tsc -p
// tsconfig.json`; BENCH_FILES=n for another size, BENCH_ROUNDS=n, BENCH_DIR=/dev/shm for another file system).
// A repository of 10,000 committed files (100 folders, ~1.5 KB each, plus a `.worktreeinclude` and an ignored `.env`)
// in a temp dir and a real `baton serve` (test/helpers/server.ts). In one run, agents are added one at a time
// (agent.add) alternately in the shared directory and in a worktree of their own (`worktree: 'new'`); for each, the
// time from the request to a live pane: its `agent.status` running and its first output bytes at a client attached
// as soon as it runs (as a pane would). The agents are shell agents printing a line at once, so the figures are
// Baton's cost, not a vendor CLI's start-up. Printed: medians, the worktree's extra ms and the ratio, against the
// goal "under 1 s extra", and `cp -r` of the repository once: what the disk alone costs for the same files.
// Nothing here asserts a time; everything is deleted at the end.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RpcClient } from '../../shared/client.js';
import { GIT_ENV } from '../helpers/git-repo.js';
import { startServer, testEnv } from '../helpers/server.js';
import { fmt, median } from './stats.js';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const DIRS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GOAL_EXTRA_MS = 1000;

const root = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'baton-bench-wt-start-'));
const env = testEnv(join(root, 'home'), { ...GIT_ENV });
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });

function makeRepo(): string {
  const repo = join(root, 'big-repo');
  mkdirSync(repo, { mode: 0o755 });
  git(repo, 'init', '-q', '-b', 'main');
  const line = 'const value = "some source text that looks like code";\n';
  for (let i = 0; i < FILES; i++) {
    const dir = join(repo, `pkg${String(i % DIRS).padStart(3, '0')}`);
    if (i < DIRS) mkdirSync(dir);
    writeFileSync(join(dir, `file${i}.ts`), `// file ${i}\n${line.repeat(25)}`);
  }
  writeFileSync(join(repo, '.gitignore'), '.env\nnode_modules/\n');
  writeFileSync(join(repo, '.worktreeinclude'), '.env\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', `${FILES} files`);
  writeFileSync(join(repo, '.env'), 'API_KEY=bench\n');
  // As a user's checkout would be: its index fresh.
  git(repo, 'status', '--porcelain');
  return repo;
}

interface Timing {
  runningMs: number;
  firstOutputMs: number;
}

/** agent.add of one shell agent; the time to its `running` status and to its first output at an attached client. */
async function addAgent(
  client: RpcClient,
  run: string,
  label: string,
  cwd: string,
  isolated: boolean,
): Promise<Timing> {
  // The agent's id is known only from the reply; the status event that comes first is matched by being new.
  const before = new Set((await client.call('run.get', { run })).agents.map((a) => a.id));
  const t0 = performance.now();
  let runningMs = Number.NaN;
  let resolveOutput: (ms: number) => void = () => {};
  let rejectOutput: (err: unknown) => void = () => {};
  const firstOutput = new Promise<number>((resolve, reject) => {
    resolveOutput = resolve;
    rejectOutput = reject;
  });
  let attached = false;
  const off = client.on('agent.status', (e) => {
    if (e.status !== 'running' || attached || before.has(e.agentId)) return;
    attached = true;
    runningMs = performance.now() - t0;
    client
      .attach(
        e.agentId,
        { fromOffset: 0, autoAck: true },
        {
          onData: (data) => {
            if (data.length > 0) resolveOutput(performance.now() - t0);
          },
          onReset: () => resolveOutput(performance.now() - t0),
        },
      )
      .catch(rejectOutput);
  });
  const view = await client.call('agent.add', {
    run,
    agent: {
      vendor: 'shell',
      label,
      cwd,
      command: ['/bin/sh', '-c', 'echo ready; exec sleep 600'],
      ...(isolated ? { worktree: 'new' as const } : {}),
    },
  });
  const agent = view.agents.find((a) => a.label === label)!;
  if (agent.status !== 'running') throw new Error(`${label} did not start: ${agent.warning ?? agent.status}`);
  if (isolated && !agent.worktree) throw new Error(`${label} has no worktree`);
  const output = await Promise.race([
    firstOutput,
    new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`no output from ${label}`)), 20_000)),
  ]);
  off();
  return { runningMs, firstOutputMs: output };
}

async function main(): Promise<void> {
  const t = performance.now();
  const repo = makeRepo();
  const madeMs = performance.now() - t;
  // The disk's own part: a worktree is a full checkout, so writing the same files once is the floor.
  const copy = join(root, 'copy');
  mkdirSync(copy);
  const folders = Array.from({ length: Math.min(DIRS, FILES) }, (_, i) =>
    join(repo, `pkg${String(i).padStart(3, '0')}`),
  );
  const c0 = performance.now();
  let copyMs = Number.NaN;
  try {
    execFileSync('cp', ['-r', ...folders, copy], { stdio: ['ignore', 'ignore', 'pipe'] });
    copyMs = performance.now() - c0;
  } catch (err) {
    process.stderr.write(`(the cp -r baseline failed: ${(err as Error).message.split('\n')[0] ?? ''})\n`);
  }
  rmSync(copy, { recursive: true, force: true });
  const server = await startServer(join(root, 'data'), env);
  const client = await server.connect();
  try {
    await client.call('run.start', {
      name: 'bench',
      agents: [{ vendor: 'shell', label: 'warm', cwd: repo, command: ['/bin/sh', '-c', 'exec sleep 600'] }],
    });
    // One of each first, not counted: the server's first spawn and git's first reads of the repository.
    await addAgent(client, 'bench', 'warm-shared', repo, false);
    await addAgent(client, 'bench', 'warm-wt', repo, true);
    const shared: Timing[] = [];
    const isolated: Timing[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      shared.push(await addAgent(client, 'bench', `shared-${i}`, repo, false));
      isolated.push(await addAgent(client, 'bench', `wt-${i}`, repo, true));
    }
    const med = (xs: Timing[], k: keyof Timing) => median(xs.map((x) => x[k]));
    const sharedLive = med(shared, 'firstOutputMs');
    const isolatedLive = med(isolated, 'firstOutputMs');
    const extra = isolatedLive - sharedLive;
    const lines = [
      `worktree start bench: ${FILES} committed files (repository made in ${fmt(madeMs)} ms), ${ROUNDS} rounds, ${availableParallelism()} cpus, load ${loadavg()[0]!.toFixed(2)}, ${process.env.BENCH_DIR ?? tmpdir()}`,
      '',
      'agent (agent.add → live pane)      running (median)   first output (median)   per round (first output, ms)',
      `shared directory                   ${fmt(med(shared, 'runningMs')).padStart(8)} ms        ${fmt(sharedLive).padStart(8)} ms          ${shared.map((s) => fmt(s.firstOutputMs)).join(' ')}`,
      `own worktree (worktree: 'new')     ${fmt(med(isolated, 'runningMs')).padStart(8)} ms        ${fmt(isolatedLive).padStart(8)} ms          ${isolated.map((s) => fmt(s.firstOutputMs)).join(' ')}`,
      '',
      `worktree extra: ${fmt(extra)} ms (ratio ${fmt(isolatedLive / sharedLive, 1)}×); goal: under ${GOAL_EXTRA_MS} ms extra → ${extra < GOAL_EXTRA_MS ? 'met' : 'NOT met'}`,
      `the disk's floor: cp -r of the ${FILES} files ${fmt(copyMs)} ms, once (a worktree writes the same files)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    await client.call('run.delete', { run: 'bench', removeWorktrees: true });
  } finally {
    client.close();
    server.child.kill('SIGTERM');
    await server.exited;
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  rmSync(root, { recursive: true, force: true });
  process.exit(1);
});
