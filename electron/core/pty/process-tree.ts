// Which processes belong to an agent, read from /proc, and the stop sequence of design.md §6.
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  sid: number;
  /** Clock ticks since boot at process start: tells a live process from a reused pid. */
  startTime: string;
  zombie: boolean;
}

/** A process Baton recorded, identified by pid and start time so a reused pid is never signalled. */
export interface ProcessMark {
  pid: number;
  startTime: string;
}

export function readProcess(pid: number): ProcInfo | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export function readProcesses(): ProcInfo[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) out.push(info);
  }
  return out;
}

function parseStat(stat: string): ProcInfo | null {
  // The command name sits in parentheses and may itself hold spaces and parentheses.
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(stat.slice(0, stat.indexOf(' ')));
  const fields = stat.slice(close + 2).split(' ');
  const [state, ppid, , sid] = fields;
  const startTime = fields[19];
  if (state === undefined || ppid === undefined || sid === undefined || startTime === undefined) return null;
  return { pid, ppid: Number(ppid), sid: Number(sid), startTime, zombie: state === 'Z' || state === 'X' };
}

export function isAlive(mark: ProcessMark): boolean {
  const info = readProcess(mark.pid);
  return info !== null && !info.zombie && info.startTime === mark.startTime;
}

/**
 * Every live process of a terminal: the members of the leader's session (background jobs in other
 * process groups included) and the leader's descendants (a helper that called setsid is still a child).
 */
export function sessionTree(leaderPid: number, all: readonly ProcInfo[] = readProcesses()): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const found = new Map<number, ProcInfo>();
  const queue: ProcInfo[] = all.filter((p) => p.sid === leaderPid || p.pid === leaderPid);
  while (queue.length > 0) {
    const p = queue.pop()!;
    if (found.has(p.pid)) continue;
    found.set(p.pid, p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return [...found.values()].filter((p) => !p.zombie && p.pid !== process.pid);
}

function signal(marks: readonly ProcessMark[], sig: NodeJS.Signals): void {
  for (const mark of marks) {
    if (!isAlive(mark)) continue;
    try {
      process.kill(mark.pid, sig);
    } catch {
      // Gone between the check and the signal.
    }
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitGone(marks: readonly ProcessMark[], timeoutMs: number): Promise<ProcessMark[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = marks.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(50);
    alive = alive.filter(isAlive);
  }
  return alive;
}

/**
 * SIGTERM every process of the leader's session and every recorded descendant, then SIGKILL what is
 * left after the grace period. A job that ignores SIGHUP and SIGTERM is still gone at the end.
 */
export async function terminateTree(
  leaderPid: number,
  recorded: readonly ProcessMark[],
  graceMs = 5000,
): Promise<void> {
  const marks = new Map<number, ProcessMark>();
  for (const m of recorded) marks.set(m.pid, m);
  for (const p of sessionTree(leaderPid)) marks.set(p.pid, { pid: p.pid, startTime: p.startTime });
  const targets = [...marks.values()];
  signal(targets, 'SIGTERM');
  const left = await waitGone(targets, graceMs);
  if (left.length === 0) return;
  signal(left, 'SIGKILL');
  await waitGone(left, 2000);
}
