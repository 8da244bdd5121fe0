// Where a remote key's echo spends its time, hop by hop, from a scheduler trace laid over ssh.ts's key log
// (docs/performance.md, "Remote echo tail (echo15)"). Each key crosses the local core, the ssh master, sshd, the
// host's core, the agent and back; each hop starts when its process is woken (sched_wakeup) and ends when it wakes
// the next one. A hop's time splits into "queued" (woken, waiting for a CPU), "on CPU" and "off CPU" (asleep: a
// timer, or another thread). The slowest keys' hops against the median keys' say which process owns the tail.
//   perf record -a -k CLOCK_MONOTONIC -e sched:sched_switch -e sched:sched_wakeup -o perf.data -- \
//     env BATON_BENCH_KEY_LOG=/tmp/keys.jsonl BATON_BENCH_ECHO_ONLY=1 npx tsx test/bench/ssh.ts
//   perf script -i perf.data -F tid,cpu,time,event,trace --ns > /tmp/sched.txt
//   npx tsx test/bench/ssh-hops.ts /tmp/keys.jsonl /tmp/sched.txt
import { readFileSync } from 'node:fs';
import { fmt, ms, quantile } from './stats.js';
import { chainOf, kernelThread, roleOf, rolesFrom } from './ssh-hop-roles.js';
import type { PidsFile } from './ssh-pids.js';

interface Wakeup {
  at: number;
  waker: number;
  pid: number;
}
/** An on-CPU span of one thread. */
interface Span {
  tid: number;
  from: number;
  to: number;
}

const [keysFile, schedFile] = process.argv.slice(2);
if (!keysFile || !schedFile) throw new Error('usage: ssh-hops.ts <key log> <perf script output>');
const pids = JSON.parse(readFileSync(`${keysFile}.pids.json`, 'utf8')) as PidsFile;
const roles = rolesFrom(pids);
const keyLines = readFileSync(keysFile, 'utf8').split('\n').filter(Boolean);
// The rotation comes first in the log (its targets in pids.targets); the diagnostics' keys follow, on target 0 too.
const rotation = keyLines
  .slice(0, Number(process.env.BATON_HOPS_KEYS ?? 600) * pids.targets.length)
  .map((l) => JSON.parse(l) as { target: number; t0: string; t1: string })
  .map((k) => ({ target: pids.targets[k.target]!, t0: Number(BigInt(k.t0)) / 1e6, t1: Number(BigInt(k.t1)) / 1e6 }));

// The trace, in ms of CLOCK_MONOTONIC: wakeups, and on-CPU spans from the switches.
const wakeups: Wakeup[] = [];
const spans: Span[] = [];
const onCpu = new Map<number, { tid: number; since: number }>();
const switchRe = /prev_comm=(.*) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)/;
const names = new Map<number, string>();
for (const line of readFileSync(schedFile, 'utf8').split('\n')) {
  const m = /^\s*(\d+)\s+\[(\d+)\]\s+([\d.]+): sched:(sched_\w+): (.*)$/.exec(line);
  if (!m) continue;
  const at = Number(m[3]) * 1000;
  if (m[4] === 'sched_wakeup') {
    const pid = /\bpid=(\d+)/.exec(m[5]!);
    if (pid) wakeups.push({ at, waker: Number(m[1]), pid: Number(pid[1]) });
  } else if (m[4] === 'sched_switch') {
    const s = switchRe.exec(m[5]!);
    if (!s) continue;
    const cpu = Number(m[2]);
    const was = onCpu.get(cpu);
    if (was) spans.push({ tid: was.tid, from: was.since, to: at });
    names.set(Number(s[2]), s[1]!);
    names.set(Number(s[5]), s[4]!);
    onCpu.set(cpu, { tid: Number(s[5]), since: at });
  }
}
spans.sort((a, b) => a.from - b.from);
for (const p of pids.procs) for (const t of p.threads) names.set(t.tid, t.comm);

const firstIndex = <T>(xs: T[], at: (x: T) => number, t: number): number => {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(xs[mid]!) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** On-CPU time of `tid` within [from, to). Spans are at most a scheduler tick or so long; look back a little. */
function cpuOf(tid: number, from: number, to: number): number {
  let total = 0;
  for (
    let i = Math.max(
      0,
      firstIndex(spans, (s) => s.from, from - 50),
    );
    i < spans.length;
    i++
  ) {
    const s = spans[i]!;
    if (s.from >= to) break;
    if (s.tid === tid) total += Math.max(0, Math.min(s.to, to) - Math.max(s.from, from));
  }
  return total;
}

/** When `tid` next got a CPU at or after `t` (t itself when it was on one). */
function runAt(tid: number, t: number): number {
  for (
    let i = Math.max(
      0,
      firstIndex(spans, (s) => s.from, t - 50),
    );
    i < spans.length;
    i++
  ) {
    const s = spans[i]!;
    if (s.tid === tid && s.to > t) return Math.max(s.from, t);
  }
  return t;
}

interface Hop {
  role: string;
  queued: number;
  cpu: number;
  off: number;
}

/** The hops of one key: each role's process from its wakeup to the next one's, or to the echo for the last. */
function hopsOf(target: string, t0: number, t1: number): Hop[] | null {
  const chain = chainOf(target, roles);
  if (!chain) return null;
  let cursor = t0;
  const wakes: { role: string; pid: number; at: number }[] = [];
  let prev: readonly number[] = [roles.bench];
  for (const role of chain) {
    const want = roles.byRole.get(role)!;
    let found: Wakeup | undefined;
    for (let i = firstIndex(wakeups, (w) => w.at, cursor); i < wakeups.length && wakeups[i]!.at < t1; i++) {
      const w = wakeups[i]!;
      if (!want.includes(w.pid)) continue;
      if (prev.includes(w.waker) || kernelThread(names, w.waker)) {
        found = w;
        break;
      }
    }
    // Not woken: it was on a CPU (or runnable) already when its input came.
    const at = found?.at ?? cursor;
    wakes.push({ role, pid: found?.pid ?? want[0]!, at });
    cursor = at;
    prev = want;
  }
  const hops: Hop[] = [{ role: 'bench → local core', queued: 0, cpu: 0, off: wakes[0]!.at - t0 }];
  for (const [i, w] of wakes.entries()) {
    const end = wakes[i + 1]?.at ?? t1;
    const ran = Math.min(runAt(w.pid, w.at), end);
    const cpu = cpuOf(w.pid, ran, end);
    hops.push({ role: `${i}:${w.role}`, queued: ran - w.at, cpu, off: Math.max(0, end - ran - cpu) });
  }
  return hops;
}

/** Per target: the median keys' hops against the slowest 1 %'s, and who had the CPUs during the slow keys. */
for (const target of pids.targets) {
  const keys = rotation.filter((k) => k.target === target);
  const chainHops = keys.map((k) => ({ total: k.t1 - k.t0, k, hops: hopsOf(target, k.t0, k.t1) }));
  if (chainHops.some((c) => c.hops === null)) continue;
  const totals = chainHops.map((c) => c.total);
  const p99 = quantile(totals, 0.99);
  const slow = chainHops.filter((c) => c.total >= p99);
  const mid = chainHops.filter((c) => c.total >= quantile(totals, 0.4) && c.total <= quantile(totals, 0.6));
  console.log(`\n${target}: ${keys.length} keys, p50 ${ms(quantile(totals, 0.5))}, p99 ${ms(p99)}`);
  console.log(
    `${'hop'.padEnd(30)} ${'median keys: queued / cpu / off'.padEnd(34)} slowest ${slow.length}: queued / cpu / off`,
  );
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  for (const [i, hop] of chainHops[0]!.hops!.entries()) {
    const cell = (set: typeof chainHops) =>
      (['queued', 'cpu', 'off'] as const).map((f) => fmt(mean(set.map((c) => c.hops![i]![f])), 2)).join(' / ');
    console.log(`${hop.role.padEnd(30)} ${cell(mid).padEnd(34)} ${cell(slow)}`);
  }
  // Who held the CPUs during the slowest keys: each thread's on-CPU time in their windows, by role.
  const cpuBy = new Map<string, number>();
  for (const c of slow)
    for (
      let i = Math.max(
        0,
        firstIndex(spans, (s) => s.from, c.k.t0 - 50),
      );
      i < spans.length;
      i++
    ) {
      const s = spans[i]!;
      if (s.from >= c.k.t1) break;
      const t = Math.max(0, Math.min(s.to, c.k.t1) - Math.max(s.from, c.k.t0));
      if (t > 0) cpuBy.set(roleOf(s.tid, roles, names), (cpuBy.get(roleOf(s.tid, roles, names)) ?? 0) + t);
    }
  const window = slow.reduce((a, c) => a + c.total, 0);
  const top = [...cpuBy].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(
    `CPU time in the slowest keys' windows (${ms(window)} × 2 CPUs): ` +
      top.map(([r, t]) => `${r} ${fmt((100 * t) / window, 0)}%`).join(', '),
  );
}
