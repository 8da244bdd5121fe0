// The scale bench's measurements: a real background core (`baton serve --socket`) driven over its socket as the CLI
// and the app drive it, and the baselines each figure is read against, measured in the same run.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import pty from 'node-pty';
import type { RpcClient } from '../../shared/client.js';
import type { AgentSpec, RunView } from '../../shared/contract.js';
import { BATON_BIN } from '../helpers/server.js';
import type { CoreProcess } from '../helpers/core.js';
import { median } from './stats.js';

const CLK_TCK = 100;
const POLL_MS = 20;
const STUCK_MS = 120_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `fn` and returns how long it took (ms) with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Median of `n` timings of `fn`, after one untimed call (JIT, caches). */
export async function medianOf(n: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await timed(fn)).ms);
  return median(times);
}

/** Baseline: node-pty alone spawns `count` shells and waits until each has printed (its prompt). */
export async function rawShells(count: number, cwd: string, env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const shells: pty.IPty[] = [];
  const printed: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const p = pty.spawn(env.SHELL ?? '/bin/sh', [], { name: 'xterm-256color', cols: 120, rows: 40, cwd, env });
    shells.push(p);
    printed.push(new Promise<void>((r) => p.onData(() => r())));
  }
  await withDeadline(Promise.all(printed), 'raw shells to print');
  const ms = performance.now() - t0;
  for (const p of shells) p.kill('SIGKILL');
  await sleep(200);
  return ms;
}

export function shellSpecs(count: number, cwd: string): AgentSpec[] {
  return Array.from({ length: count }, (_, i) => ({ vendor: 'shell', label: `sh${i}`, cwd }));
}

/** A shell's prompt at the end of a line (`bash-5.2$ `, or `#` for root). */
const PROMPT = /[$#] ?$/m;

/** Waits until every agent's pane shows its shell's prompt from its current terminal: the pane is live. */
export async function everyPaneLive(client: RpcClient, agentIds: readonly string[]): Promise<void> {
  const waiting = new Set(agentIds);
  await withDeadline(
    (async () => {
      while (waiting.size > 0) {
        await Promise.all(
          [...waiting].map(async (agentId) => {
            const screen = await client.call('agent.screen', { agentId });
            if (PROMPT.test(screen.text)) waiting.delete(agentId);
          }),
        );
        if (waiting.size > 0) await sleep(POLL_MS);
      }
    })(),
    'every pane to show its prompt',
  );
}

/** Starts `runs` runs of `perRun` shell agents one after the other, as `baton start` would; returns them. */
export async function startRuns(client: RpcClient, runs: number, perRun: number, cwd: string): Promise<RunView[]> {
  const out: RunView[] = [];
  for (let r = 0; r < runs; r++)
    out.push(await client.call('run.start', { name: `scale ${r}`, agents: shellSpecs(perRun, cwd) }));
  return out;
}

/** The core's CPU time so far (user + system), in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** Share of one core the process used over `ms` (0.05 = 5 %). */
export async function cpuShare(pid: number, ms: number): Promise<number> {
  const before = cpuMs(pid);
  await sleep(ms);
  return (cpuMs(pid) - before) / ms;
}

export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Wall time of one `baton` command (a new Node process each time, as a user runs it); `core`: the one it talks to. */
export function cliMs(core: CoreProcess | null, args: readonly string[], env: Record<string, string>): number {
  const t0 = performance.now();
  const where = core ? ['--data-dir', core.dataDir] : [];
  const r = spawnSync(process.execPath, [BATON_BIN, ...args, ...where], { env, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`baton ${args.join(' ')} exited ${String(r.status)}`);
  return performance.now() - t0;
}

async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), STUCK_MS);
  });
  try {
    return await Promise.race([work, stuck]);
  } finally {
    clearTimeout(timer);
  }
}
