// BENCH_MIRROR_NICE=n: a paired A/B of the core's mirror threads' niceness inside one bench run. Each mirror thread
// writes its Linux thread id (BATON_MIRROR_TIDS, mirror-worker.mjs); the scene renices them between its blocks, so
// both sides meet the machine's load of the same minutes (runs minutes apart on a shared 2-core machine moved the
// echo's p99 by more than the niceness did). Linux only; lowering a niceness again needs root or CAP_SYS_NICE.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The niceness the "vs" blocks give the mirror threads; null: no A/B asked for. */
export const MIRROR_NICE_VS: number | null = /^\d+$/.test(process.env.BENCH_MIRROR_NICE ?? '')
  ? Number(process.env.BENCH_MIRROR_NICE)
  : null;

// The cores the bench starts pass BATON_MIRROR_* through (renderer-kit.ts, coreTuning), read when a scene starts one.
if (MIRROR_NICE_VS !== null) process.env.BATON_MIRROR_TIDS ??= join(tmpdir(), `baton-mirror-tids-${process.pid}`);

/** The mirror threads of the core `pid`, as their thread ids. */
function mirrorThreads(pid: number | undefined): number[] {
  const file = process.env.BATON_MIRROR_TIDS;
  if (!file || pid === undefined) return [];
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((l) => /^(\d+)\/task\/(\d+)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) === pid)
    .map((m) => Number(m[2]));
}

/** Gives the core `pid`'s mirror threads niceness `n`; how many it reniced. */
export function reniceMirrors(pid: number | undefined, n: number): number {
  let done = 0;
  for (const tid of mirrorThreads(pid))
    try {
      setPriority(tid, n);
      done++;
    } catch {
      // Gone (the core stopped), or not allowed: that side of the A/B is then the shipped one, and the count says so.
    }
  return done;
}

/** BENCH_MIRROR_NICE_POOL=<file>: each run appends its raw samples there (one JSON line a side), to be pooled. */
export function poolSamples(scene: string, side: 'shipped' | 'niced', samples: Record<string, number[]>): void {
  const file = process.env.BENCH_MIRROR_NICE_POOL;
  if (file) appendFileSync(file, JSON.stringify({ scene, side, nice: MIRROR_NICE_VS, ...samples }) + '\n');
}

/** CPU time (ms) the core `pid`'s mirror threads have used so far: utime + stime of each, in clock ticks of 10 ms. */
export function mirrorCpuMs(pid: number | undefined): number {
  let ticks = 0;
  for (const tid of mirrorThreads(pid))
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone.
    }
  return ticks * 10;
}

/**
 * BENCH_AGENT_GROUP_NICE=n: the same A/B for the agents' scheduling groups. On Linux with autogroups on, every agent is
 * a session of its own (node-pty starts it with setsid), so the scheduler weighs each agent like the whole session of
 * the core and the page; this gives the autogroups of the core `pid`'s children niceness n (all of an agent's
 * processes share its group). How many it set.
 */
export const AGENT_GROUP_NICE_VS: number | null = /^\d+$/.test(process.env.BENCH_AGENT_GROUP_NICE ?? '')
  ? Number(process.env.BENCH_AGENT_GROUP_NICE)
  : null;

export function niceAgentGroups(pid: number | undefined, n: number): number {
  if (pid === undefined) return 0;
  let done = 0;
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return 0;
  }
  for (const child of children)
    try {
      writeFileSync(`/proc/${child}/autogroup`, String(n));
      done++;
    } catch {
      // Exited, or not allowed.
    }
  return done;
}
