// Where the page's main thread spends its time: a CPU profile (CDP Profiler) of a stretch of the bench, summed by
// function (self time), the top few printed. BENCH_PROFILE=1 turns it on for the renderer bench's scale scenes;
// BENCH_PROFILE_DEPTH=n names n callers of each (2 unless told); BENCH_PROFILE_FILE=<file> keeps the profile there
// (a .cpuprofile: DevTools opens it, and `npx tsx test/bench/profile-under.ts <file> <function>` splits a function's
// time among what it called).
import { writeFileSync } from 'node:fs';
import type { BenchPage } from './renderer-page.js';

/** What the profile says (DevTools Profiler.Profile), as far as read here. */
interface Profile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** A page's DevTools session: Playwright's (BenchPage) or the bare driver's (bare-chromium.ts). */
export type ProfiledPage = BenchPage | { send(method: string, params?: Record<string, unknown>): Promise<unknown> };

const send = (p: ProfiledPage, method: string, params?: Record<string, unknown>): Promise<unknown> =>
  'cdp' in p ? p.cdp.send(method as 'Profiler.start', params) : p.send(method, params);

export async function startProfile(p: ProfiledPage): Promise<void> {
  await send(p, 'Profiler.enable');
  await send(p, 'Profiler.setSamplingInterval', { interval: 200 });
  await send(p, 'Profiler.start');
}

/** Stops the profile and prints the `top` functions by self time, as a share of the profiled time. */
export async function printProfile(p: ProfiledPage, title: string, top = 15): Promise<void> {
  const { profile } = (await send(p, 'Profiler.stop')) as { profile: Profile };
  if (process.env.BENCH_PROFILE_FILE) writeFileSync(process.env.BENCH_PROFILE_FILE, JSON.stringify(profile));
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number | undefined) => {
    const f = id === undefined ? undefined : nodes.get(id)?.callFrame;
    if (!f) return '';
    const where = f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}` : '';
    return `${f.functionName || '(anonymous)'} ${where}`.trim();
  };
  // A function and its callers a few levels up: a native getter (offsetWidth) says little without who forced it.
  const depth = Number(process.env.BENCH_PROFILE_DEPTH ?? 2);
  for (const [id, us] of self) {
    const chain = [name(id)];
    for (let at = parent.get(id), i = 0; i < depth; at = at === undefined ? undefined : parent.get(at), i++)
      chain.push(name(at));
    const key = chain.join('  ← ');
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
  console.log(`  profile of ${title}: ${(total / 1000).toFixed(0)} ms sampled`);
  // BENCH_PROFILE_INCLUSIVE=1: time under each function (itself and what it called), each function once per sample:
  // names the handler a long task ran in, which self time spreads over the natives and helpers it calls.
  if (process.env.BENCH_PROFILE_INCLUSIVE === '1') {
    const under = new Map<string, number>();
    for (const [id, us] of self) {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const n = name(at);
        if (n === '' || n.startsWith('(root)') || seen.has(n)) continue;
        seen.add(n);
        under.set(n, (under.get(n) ?? 0) + us);
      }
    }
    for (const [key, us] of [...under].sort((a, b) => b[1] - a[1]).slice(0, 40))
      console.log(
        `    incl ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
      );
  }
  for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `    ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
}
