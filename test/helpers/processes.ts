// Processes as /proc shows them, read independently of the product's own process-tree code.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  /** One-letter state from /proc/<pid>/stat: R, S, D, Z (zombie), X (dead), … */
  state: string;
  /** Field 22 of /proc/<pid>/stat: clock ticks since boot at start; tells a process from a reused pid. */
  startTime: string;
  comm: string;
}

/** A process named by pid and start time, so a reused pid is never taken for it. */
export interface ProcMark {
  pid: number;
  startTime: string;
  comm?: string;
}

export function readProc(pid: number): Proc | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm is in parentheses and may itself hold spaces and parentheses: split after the last ')'.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < 0) return null;
  const rest = stat.slice(close + 2).split(' ');
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const state = rest[0];
  const ppid = rest[1];
  const startTime = rest[19];
  if (state === undefined || ppid === undefined || startTime === undefined) return null;
  return {
    pid: Number(stat.slice(0, open).trim()),
    ppid: Number(ppid),
    state,
    startTime,
    comm: stat.slice(open + 1, close),
  };
}

export function listProcs(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) out.push(p);
  }
  return out;
}

export const isZombie = (p: Proc) => p.state === 'Z' || p.state === 'X';

/** Every process below `rootPid` (children, grandchildren, …), found by walking ppid links; not the root itself. */
export function descendants(rootPid: number, opts: { includeZombies?: boolean } = {}): Proc[] {
  const all = listProcs();
  const children = new Map<number, Proc[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const out: Proc[] = [];
  const seen = new Set<number>([rootPid]);
  const queue = [...(children.get(rootPid) ?? [])];
  while (queue.length > 0) {
    const p = queue.shift()!;
    if (seen.has(p.pid)) continue;
    seen.add(p.pid);
    out.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return opts.includeZombies ? out : out.filter((p) => !isZombie(p));
}

export const markOf = (p: Proc): ProcMark => ({ pid: p.pid, startTime: p.startTime, comm: p.comm });
export const markKey = (m: ProcMark) => `${m.pid}@${m.startTime}`;

/** The same process (pid and start time) still exists and is not a zombie. */
export function isAlive(mark: ProcMark): boolean {
  const p = readProc(mark.pid);
  return p !== null && p.startTime === mark.startTime && !isZombie(p);
}

export const aliveOf = (marks: readonly ProcMark[]) => marks.filter(isAlive);

/** Waits until none of `marks` is alive; returns those still alive at the deadline (empty on success). */
export async function waitAllGone(marks: readonly ProcMark[], ms: number): Promise<ProcMark[]> {
  const deadline = Date.now() + ms;
  let alive = aliveOf(marks);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = aliveOf(alive);
  }
  return alive;
}

/** Test clean-up: SIGKILL whatever of `marks` is still the same live process. */
export function killMarks(marks: readonly ProcMark[]): void {
  for (const m of marks) {
    if (!isAlive(m)) continue;
    try {
      process.kill(m.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Live descendants of `rootPid` as a sorted list of `pid@startTime` keys, for before/after comparisons. */
export const descendantKeys = (rootPid: number) =>
  descendants(rootPid)
    .map((p) => markKey(p))
    .sort();

/** A `sleep 60` child of the test process and its mark, for tests about who gets signalled. Kill it with `killMarks`. */
export function startSleeper(options: { detached?: boolean } = {}): ProcMark {
  const child = spawn('sleep', ['60'], { stdio: 'ignore', detached: options.detached ?? false });
  child.unref();
  const info = child.pid === undefined ? null : readProc(child.pid);
  if (!info) throw new Error('sleep did not start');
  return markOf(info);
}

/** The same pid with another start time: what a record of an earlier process that had this pid looks like. */
export const earlierHolder = (m: ProcMark): ProcMark => ({ pid: m.pid, startTime: String(BigInt(m.startTime) - 1n) });

/**
 * Live processes whose environment holds exactly `name=value`, read from /proc/<pid>/environ: every process that
 * inherited a variable is found, also one that left its session (setsid) and was re-parented to init, which
 * walking parent links or sessions misses. A process that cleared its environment is not found.
 */
export function procsWithEnv(name: string, value: string, except: readonly number[] = []): Proc[] {
  // Framed by NULs (a leading one is added to the block): exactly this variable with exactly this value.
  const needle = Buffer.from(`\0${name}=${value}\0`);
  const nul = Buffer.from([0]);
  const out: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid || except.includes(pid)) continue;
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    if (Buffer.concat([nul, env]).indexOf(needle) < 0) continue;
    const p = readProc(pid);
    if (p && !isZombie(p)) out.push(p);
  }
  return out;
}

/** Test clean-up: SIGKILL every live process carrying `name=value` (see `procsWithEnv`). */
export function killWithEnv(name: string, value: string, except: readonly number[] = []): void {
  killMarks(procsWithEnv(name, value, except).map(markOf));
}

/** Waits until no process carries `name=value`; returns those still alive at the deadline (empty on success). */
export async function waitEnvGone(
  name: string,
  value: string,
  ms: number,
  except: readonly number[] = [],
): Promise<Proc[]> {
  const deadline = Date.now() + ms;
  let alive = procsWithEnv(name, value, except);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = procsWithEnv(name, value, except);
  }
  return alive;
}
