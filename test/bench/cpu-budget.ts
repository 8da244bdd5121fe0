// The CPU a round of the renderer bench's throughput scene costs, every process and thread on its path (BENCH_THREADS=1):
// the bench itself, the core and its threads, the agent's processes (the PTY's writer), each Chromium process (browser,
// network service, GPU, renderer) by thread, the kernel's workers (the PTY's line discipline runs there, outside every
// process's utime), and the machine's total from /proc/stat. From the sum, the ceiling the pane/baseline ratio can reach
// on this machine's cores: a round's wall time is at least its CPU over the cores, and at least its busiest thread's.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { BenchBrowser } from './renderer-page.js';

/** CPU seconds so far, per thread ("<group>/<thread name>#<tid>"). */
export type CpuSnapshot = Map<string, number>;

/** Per MiB, in seconds: each thread (summed over rounds by `add`), and what is not a thread. */
export interface Budget {
  /** Thread key "<group>/<name>#<tid>" → seconds per MiB (mean of the rounds added). */
  threads: Map<string, number>;
  /** The machine's busy CPU (every core, from /proc/stat), seconds per MiB: includes other work on a shared machine. */
  system: number;
  /** CPU after the round's clock stopped, until the core's mirror had parsed it all (its deferred parse), per MiB. */
  afterClock: number;
  rounds: number;
}

const CLOCK = 100; // USER_HZ
const group = (key: string) => key.slice(0, key.indexOf('/'));
const withoutTid = (key: string) => key.slice(0, key.lastIndexOf('#'));

const statFields = (text: string) => text.slice(text.lastIndexOf(')') + 2).split(' ');
const commOf = (text: string) => text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // gone meanwhile
  }
};

/** Every thread of `pid`, into `out` as "<group>/<name>#<tid>". */
function addThreads(out: CpuSnapshot, group: string, pid: number): void {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (stat === null) continue;
    const f = statFields(stat);
    const name = tid === String(pid) ? 'main' : commOf(stat);
    out.set(`${group}/${name}#${tid}`, (Number(f[11]) + Number(f[12])) / CLOCK);
  }
}

/** The machine's busy CPU seconds so far, all cores (user, nice, system, irq, softirq, steal). */
function systemBusy(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / CLOCK;
}

/** pid → ppid and comm of every process now. */
function processTable(): Map<number, { ppid: number; comm: string }> {
  const out = new Map<number, { ppid: number; comm: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (stat !== null) out.set(Number(name), { ppid: Number(statFields(stat)[1]), comm: commOf(stat) });
  }
  return out;
}

/** Chromium's processes by type (browser, renderer, GPU, utility), as DevTools lists them. */
async function chromiumProcesses(b: BenchBrowser): Promise<{ id: number; type: string }[]> {
  const session = await b.browser.newBrowserCDPSession();
  try {
    return (await session.send('SystemInfo.getProcessInfo')).processInfo.map((p) => ({ id: p.id, type: p.type }));
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** `b`: the Playwright-launched bench browser (its processes as DevTools lists them), or a bare one's processes. */
export async function cpuSnapshot(
  b: BenchBrowser | (() => { id: number; type: string }[]),
  corePid: number,
): Promise<{ threads: CpuSnapshot; system: number }> {
  const threads: CpuSnapshot = new Map();
  const chromium = typeof b === 'function' ? b() : await chromiumProcesses(b);
  const table = processTable();
  addThreads(threads, 'bench', process.pid);
  addThreads(threads, 'core', corePid);
  // The agent: every process below the core (the shell, the bench's writer).
  const below = new Set([corePid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of table)
      if (!below.has(pid) && below.has(p.ppid)) {
        below.add(pid);
        grew = true;
      }
  }
  for (const pid of below) if (pid !== corePid) addThreads(threads, `agent ${table.get(pid)?.comm ?? '?'}`, pid);
  const seen = new Set<number>();
  for (const p of chromium) {
    if (seen.has(p.id)) continue;
    seen.add(p.id);
    addThreads(threads, `chromium ${p.type}`, p.id);
  }
  // Chromium's other processes (zygotes, a network service DevTools does not list) below its browser process.
  const browserPid = chromium.find((p) => p.type === 'browser')?.id;
  if (browserPid !== undefined)
    for (const [pid, p] of table)
      if (!seen.has(pid) && p.ppid === browserPid) addThreads(threads, `chromium ${p.comm}`, pid);
  // The kernel's workers: the PTY's flush to the line discipline runs in a kworker (shared with all other work).
  for (const [pid, p] of table)
    if (p.ppid === 2 && /^(kworker|ksoftirqd)/.test(p.comm)) addThreads(threads, 'kernel', pid);
  return { threads, system: systemBusy() };
}

export const emptyBudget = (): Budget => ({ threads: new Map(), system: 0, afterClock: 0, rounds: 0 });

type Snapshot = { threads: CpuSnapshot; system: number };
const processSum = (s: Snapshot) => {
  let sum = 0;
  for (const [k, v] of s.threads) if (group(k) !== 'kernel') sum += v;
  return sum;
};

/**
 * Adds a round of `mib` MiB to `into` (a mean over the rounds added): the CPU between `before` and `after` (the round's
 * clock), and what the processes spent from then until `settled`.
 */
export function addRound(into: Budget, before: Snapshot, after: Snapshot, settled: Snapshot, mib: number): void {
  const n = into.rounds + 1;
  const mean = (old: number, now: number) => old + (now - old) / n;
  const keys = new Set([...into.threads.keys(), ...after.threads.keys()]);
  for (const k of keys) {
    const spent = after.threads.has(k) ? (after.threads.get(k)! - (before.threads.get(k) ?? 0)) / mib : 0;
    into.threads.set(k, mean(into.threads.get(k) ?? 0, spent));
  }
  into.system = mean(into.system, (after.system - before.system) / mib);
  into.afterClock = mean(into.afterClock, (processSum(settled) - processSum(after)) / mib);
  into.rounds = n;
}

/** Seconds per MiB: all threads but the kernel's workers (those are the whole machine's); the busiest thread. */
export function budgetTotals(b: Budget): { total: number; kernel: number; busiest: [string, number] } {
  let total = 0;
  let kernel = 0;
  let busiest: [string, number] = ['none', 0];
  for (const [k, v] of b.threads) {
    if (group(k) === 'kernel') kernel += v;
    else total += v;
    if (group(k) !== 'kernel' && v > busiest[1]) busiest = [withoutTid(k), v];
  }
  return { total, kernel, busiest };
}

/** The least wall time per MiB this CPU allows on this machine's cores: its sum over the cores, or its busiest thread. */
export function leastWall(b: Budget, cores = cpus().length): number {
  const { total, busiest } = budgetTotals(b);
  return Math.max(total / cores, busiest[1]);
}

/** Lines of the budget: each process group's ms per MiB, its largest threads, the sums and the bound. */
export function budgetText(name: string, b: Budget, ms: (v: number) => string): string[] {
  const byGroup = new Map<string, number>();
  const byThread = new Map<string, number>();
  for (const [k, v] of b.threads) {
    byGroup.set(group(k), (byGroup.get(group(k)) ?? 0) + v);
    // Node names all its threads "node" (the mirror's, V8's, libuv's): those stay apart, by thread id.
    const thread = k.includes('/node#') ? k : withoutTid(k);
    byThread.set(thread, (byThread.get(thread) ?? 0) + v);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([, v]) => v >= 0.0002)
      .sort((x, y) => y[1] - x[1])
      .slice(0, n)
      .map(([k, v]) => `${k} ${ms(v * 1000)}`)
      .join(', ');
  const { total, kernel, busiest } = budgetTotals(b);
  return [
    `  budget, ${name} (ms/MiB): ${top(byGroup, 12)}`,
    `    threads: ${top(byThread, 14)}`,
    `    sum ${ms(total * 1000)} (+ kernel workers ${ms(kernel * 1000)}, machine-wide); busiest thread ${busiest[0]} ` +
      `${ms(busiest[1] * 1000)}; the machine's busy CPU ${ms(b.system * 1000)} (other work included); least wall ` +
      `${ms(leastWall(b) * 1000)} on ${cpus().length} cores; after the clock (the mirror's deferred parse) ` +
      `${ms(b.afterClock * 1000)}`,
  ];
}
