// Each terminal's mark in its agent's environment, and the scan of /proc that finds every process carrying it.
// A job that called setsid and whose parent exited sits, re-parented to init, in a session of its own: neither
// parent links nor the session id lead back to the agent, and the 1 s tracker (§8) rarely sees it in between.
// Such a process still holds the environment it inherited, so the mark finds it at stop and at the start-up sweep.
//
// Limits: a process that cleared or rewrote its environment (`env -i`, an exec with an empty env, or one that
// overwrote the memory /proc/<pid>/environ shows) escapes this. A cgroup per agent would be the complete answer,
// but creating one needs privileges (or a systemd user manager) that Baton cannot count on.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { readProcess, SHARE_WINDOW_MS, type ProcInfo } from './proc-stat.js';

/** The variable every agent's environment carries; its value is the terminal's mark. */
export const MARK_VAR = 'BATON_AGENT_MARK';
/** `<terminal id>.<128 random bits>`: no unrelated process of the user can carry it by accident. */
export const MARK_PATTERN = /^trm_[0-9a-f]{16}\.[0-9a-f]{32}$/;

export interface AgentMark {
  value: string;
  /**
   * Start time (clock ticks since boot, as in /proc/<pid>/stat) of the terminal's first process: a process
   * carrying the mark that started earlier is not one the agent started.
   */
  since: string;
}

export const newMarkValue = (terminalId: string): string => `${terminalId}.${randomBytes(16).toString('hex')}`;

/** What one pass over /proc found: every process (as `scanProcesses` reads them) and those carrying a mark. */
export interface MarkedScan {
  all: ProcInfo[];
  marked: ProcInfo[];
}

const DIGITS = /^\d+$/;
const KEY = Buffer.from(`${MARK_VAR}=`);
/** Reads between two turns of the event loop, as `scanProcesses` does; environ reads cost more than stat reads. */
const SCAN_SLICE = 32;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every process, and those of this user carrying one of `marks` that started no earlier than that mark's
 * `since`. One pass, once per stop or sweep (never on the tracking tick: reading every environment costs far
 * more than reading every stat line). Each process's stat line is read BEFORE its environment: should the pid be
 * reused in between, the start time is the old process's, and `signalProcess` then refuses the new one.
 *
 * Stops that ask within `SHARE_WINDOW_MS` of each other (a run of 25 agents stopped at once) share one pass for
 * all their marks, which starts after the last of them asked; each gets only the processes carrying its own marks.
 */
export async function scanMarked(marks: readonly AgentMark[]): Promise<MarkedScan> {
  const batch = (pendingBatch ??= newBatch());
  for (const m of marks) {
    const since = BigInt(m.since);
    const known = batch.wanted.get(m.value);
    if (known === undefined || since < known) batch.wanted.set(m.value, since);
  }
  const { all, marked } = await batch.result;
  const mine = new Map(marks.map((m) => [m.value, BigInt(m.since)]));
  const carries = (found: FoundMarked) =>
    found.values.some((v) => {
      const since = mine.get(v);
      return since !== undefined && BigInt(found.info.startTime) >= since;
    });
  return { all, marked: marked.filter(carries).map((f) => f.info) };
}

interface FoundMarked {
  info: ProcInfo;
  /** The marks it carries that some caller of the batch wanted. */
  values: string[];
}

interface Batch {
  wanted: Map<string, bigint>;
  result: Promise<{ all: ProcInfo[]; marked: FoundMarked[] }>;
}

let pendingBatch: Batch | null = null;

function newBatch(): Batch {
  const wanted = new Map<string, bigint>();
  const result = new Promise<void>((resolve) => setTimeout(resolve, SHARE_WINDOW_MS)).then(() => {
    pendingBatch = null;
    return scanFor(wanted);
  });
  return { wanted, result };
}

async function scanFor(wanted: ReadonlyMap<string, bigint>): Promise<{ all: ProcInfo[]; marked: FoundMarked[] }> {
  const uid = process.getuid?.() ?? -1;
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return { all: [], marked: [] };
  }
  const all: ProcInfo[] = [];
  const marked: FoundMarked[] = [];
  let sinceYield = 0;
  for (const name of names) {
    if (!DIGITS.test(name)) continue;
    const info = readProcess(Number(name));
    if (!info) continue;
    all.push(info);
    if (wanted.size > 0 && !info.zombie && ownedBy(info.pid, uid)) {
      const values = marksCarried(info, wanted);
      if (values.length > 0) marked.push({ info, values });
    }
    if (++sinceYield === SCAN_SLICE) {
      sinceYield = 0;
      await nextTurn();
    }
  }
  return { all, marked };
}

/** Only the user's own processes are Baton's business (root's view of /proc would show everyone's). */
function ownedBy(pid: number, uid: number): boolean {
  try {
    return statSync(`/proc/${pid}`).uid === uid;
  } catch {
    return false;
  }
}

/** The wanted marks the process carries, each only if it started no earlier than that mark's `since`. */
function marksCarried(info: ProcInfo, wanted: ReadonlyMap<string, bigint>): string[] {
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${info.pid}/environ`);
  } catch {
    return []; // gone meanwhile, or not ours to read
  }
  return marksIn(env).filter((value) => {
    const since = wanted.get(value);
    return since !== undefined && BigInt(info.startTime) >= since;
  });
}

/** The values of every `BATON_AGENT_MARK=` entry of an environment block (NUL-separated `NAME=value` strings). */
export function marksIn(env: Buffer): string[] {
  const out: string[] = [];
  for (let at = env.indexOf(KEY); at >= 0; at = env.indexOf(KEY, at + 1)) {
    // Only at the start of an entry: `XBATON_AGENT_MARK=…` is another variable.
    if (at > 0 && env[at - 1] !== 0) continue;
    const start = at + KEY.length;
    const end = env.indexOf(0, start);
    out.push(env.toString('latin1', start, end < 0 ? env.length : end));
  }
  return out;
}
