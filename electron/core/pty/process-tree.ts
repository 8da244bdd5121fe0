// Which processes belong to an agent's terminal, and the stop sequence that ends them all.
import { scanMarked, type AgentMark } from './agent-mark.js';
import { isAlive, markOf, readProcesses, type ProcInfo, type ProcessMark } from './proc-stat.js';
import { protectedPids, signalProcess, waitGone } from './process-signal.js';

export { isAlive, markOf, readProcess, readProcesses, type ProcInfo, type ProcessMark } from './proc-stat.js';

/**
 * One scan of /proc arranged for lookups: by pid, by parent and by session. Built once per scan and shared by every
 * terminal that reads the scan (`indexOf`), so a tracking pass costs one walk over /proc plus each terminal's own tree,
 * not one walk over /proc per terminal (with 100 terminals that product was the tracker's main cost).
 */
export interface ProcessIndex {
  byPid: ReadonlyMap<number, ProcInfo>;
  children: ReadonlyMap<number, readonly ProcInfo[]>;
  bySession: ReadonlyMap<number, readonly ProcInfo[]>;
}

const indexes = new WeakMap<readonly ProcInfo[], ProcessIndex>();

/** The index of a scan, built on first use and kept as long as the scan itself. */
export function indexOf(all: readonly ProcInfo[]): ProcessIndex {
  const known = indexes.get(all);
  if (known) return known;
  const byPid = new Map<number, ProcInfo>();
  const children = new Map<number, ProcInfo[]>();
  const bySession = new Map<number, ProcInfo[]>();
  const add = (map: Map<number, ProcInfo[]>, key: number, p: ProcInfo) => {
    const list = map.get(key);
    if (list) list.push(p);
    else map.set(key, [p]);
  };
  for (const p of all) {
    byPid.set(p.pid, p);
    add(children, p.ppid, p);
    add(bySession, p.sid, p);
  }
  const index = { byPid, children, bySession };
  indexes.set(all, index);
  return index;
}

/**
 * The live processes of a terminal's tree as `all` shows them: the leader's session (background jobs in other
 * process groups included) and the descendants of the leader and of every recorded process (a helper that
 * called setsid is still a child). A root counts only if the same process (pid and start time) is still there:
 * once the leader is gone its pid, and so its session id, may be a stranger's, such as a new login shell's.
 */
export function treeOf(
  leader: ProcessMark | null,
  recorded: Iterable<ProcessMark>,
  all: readonly ProcInfo[],
): ProcInfo[] {
  const { byPid, children, bySession } = indexOf(all);
  const verified = (m: ProcessMark) => {
    const p = byPid.get(m.pid);
    return p !== undefined && p.startTime === m.startTime ? p : null;
  };
  const queue: ProcInfo[] = [];
  const head = leader ? verified(leader) : null;
  if (head) {
    queue.push(head);
    queue.push(...(bySession.get(head.pid) ?? []));
  }
  for (const m of recorded) {
    const p = verified(m);
    if (p) queue.push(p);
  }
  const found = new Map<number, ProcInfo>();
  while (queue.length > 0) {
    const p = queue.pop()!;
    if (found.has(p.pid)) continue;
    found.set(p.pid, p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  // In pid order: the same tree gives the same list, so an unchanged ledger is not rewritten.
  return [...found.values()].filter((p) => !p.zombie && p.pid !== process.pid).sort((a, b) => a.pid - b.pid);
}

/** The tree of the process now at `leaderPid`, whoever it is: for callers that know it is their live leader. */
export function sessionTree(leaderPid: number, all: readonly ProcInfo[] = readProcesses()): ProcInfo[] {
  const leader = all.find((p) => p.pid === leaderPid);
  return leader ? treeOf(markOf(leader), [], all) : [];
}

/** What Baton knows of one terminal's processes: each by pid and start time, kept as the tree changes. */
export class ProcessRecord {
  private marks = new Map<number, ProcessMark>();

  constructor(readonly leader: ProcessMark | null) {
    if (leader) this.marks.set(leader.pid, leader);
  }

  /**
   * Records the tree as `all` shows it, and forgets recorded processes it shows gone (so a reused pid can never
   * be taken for them later). Returns whether the leader still runs; once it does not, rescanning is pointless.
   */
  observe(all: readonly ProcInfo[]): boolean {
    return this.observeChange(all).leaderRuns;
  }

  /** `observe`, also telling whether the recorded set changed (the tracker backs off while nothing does). */
  observeChange(all: readonly ProcInfo[]): { leaderRuns: boolean; changed: boolean } {
    const next = new Map<number, ProcessMark>();
    for (const p of treeOf(this.leader, this.marks.values(), all)) next.set(p.pid, markOf(p));
    const listed = indexOf(all).byPid;
    // Not listed: it exited, or it was recorded by a later scan than this one (scans may overlap). Ask again.
    for (const m of this.marks.values()) if (!next.has(m.pid) && !listed.has(m.pid) && isAlive(m)) next.set(m.pid, m);
    const changed = next.size !== this.marks.size || [...next.values()].some((m) => !this.has(m));
    this.marks = next;
    const leaderRuns = this.leader !== null && this.marks.get(this.leader.pid)?.startTime === this.leader.startTime;
    return { leaderRuns, changed };
  }

  private has(m: ProcessMark): boolean {
    return this.marks.get(m.pid)?.startTime === m.startTime;
  }

  list(): ProcessMark[] {
    return [...this.marks.values()];
  }

  /** Keeps only the recorded processes that still run (after a stop, normally none). */
  keep(stillRunning: (mark: ProcessMark) => boolean): void {
    for (const [pid, mark] of this.marks) if (!stillRunning(mark)) this.marks.delete(pid);
  }
}

/** Where a stop starts from: a terminal's leader and the processes recorded for it (see `treeOf`). */
export interface TreeRoots {
  leader: ProcessMark | null;
  recorded: readonly ProcessMark[];
}

/**
 * SIGTERM every process of the trees, and every process of this user carrying one of `marks` (one that left the
 * session and was re-parented to init, see agent-mark.ts), then SIGKILL what is left after the grace period. A
 * job that ignores SIGHUP and SIGTERM is still gone at the end; a process that merely reuses a recorded pid is
 * untouched. Returns how many processes were found by their mark alone.
 *
 * The marked processes join the tree's sequence (one pass over /proc, one grace): a sequence of their own after
 * the tree's would double a stop's worst case, and a quit must end within the desktop's 10 s (§8). After the
 * sequence, one more scan for the marks catches what was started meanwhile (a CLI that spawns a detached helper
 * as it exits, say); what that finds gets the same sequence. A process started during that second sequence is
 * not looked for again.
 */
export async function terminateAll(
  roots: readonly TreeRoots[],
  marks: readonly AgentMark[],
  graceMs = 5000,
): Promise<number> {
  const { all, marked } = await scanMarked(marks);
  const targets = new Map<number, ProcessMark>();
  for (const r of roots) for (const p of treeOf(r.leader, r.recorded, all)) targets.set(p.pid, markOf(p));
  let byMark = 0;
  for (const p of marked) {
    if (targets.has(p.pid)) continue;
    targets.set(p.pid, markOf(p));
    byMark++;
  }
  await termThenKill([...targets.values()], graceMs);
  // Nothing signalled, nothing that could have started anything since: no second scan (a start-up sweep after a
  // clean quit, say).
  if (marks.length === 0 || targets.size === 0) return byMark;
  const signalled = new Set([...targets.values()].map((m) => `${m.pid}@${m.startTime}`));
  const late = (await scanMarked(marks)).marked.map(markOf).filter((m) => !signalled.has(`${m.pid}@${m.startTime}`));
  await termThenKill(late, graceMs);
  return byMark + late.length;
}

/** SIGTERM, up to `graceMs` for them to go, SIGKILL for the rest: each by identity, never Baton or its ancestors. */
async function termThenKill(marks: readonly ProcessMark[], graceMs: number): Promise<void> {
  if (marks.length === 0) return;
  const spare = protectedPids();
  const targets = marks.filter((m) => !spare.has(m.pid));
  for (const m of targets) signalProcess(m, 'SIGTERM', spare);
  const left = await waitGone(targets, graceMs);
  if (left.length === 0) return;
  for (const m of left) signalProcess(m, 'SIGKILL', spare);
  await waitGone(left, 2000);
}

/** `terminateAll` for one terminal. */
export async function terminateTree(
  leader: ProcessMark | null,
  recorded: readonly ProcessMark[],
  graceMs = 5000,
  marks: readonly AgentMark[] = [],
): Promise<number> {
  return terminateAll([{ leader, recorded }], marks, graceMs);
}
