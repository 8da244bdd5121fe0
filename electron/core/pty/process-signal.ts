// The one way Baton signals a process: by recorded identity, re-checked right before the signal.
import { isAlive, readProcess, threadGroupOf, type ProcessMark } from './proc-stat.js';

/**
 * This process and its ancestors: never signalled, whatever a record says. Read fresh for each batch of
 * signals; a parent that dies is replaced by an older ancestor, so a stale set only errs towards sparing.
 */
export function protectedPids(): ReadonlySet<number> {
  const out = new Set<number>([process.pid]);
  let pid = process.ppid;
  while (pid > 1 && !out.has(pid)) {
    out.add(pid);
    pid = readProcess(pid)?.ppid ?? 0;
  }
  return out;
}

/**
 * Sends `sig` to the process `mark` names, only if that very process still runs: same pid, same start time,
 * a process rather than a thread of one, never pid ≤ 1, never Baton itself nor an ancestor. Returns whether it
 * was sent. A pid can only be reused once its process is reaped, so the window left between the check and the
 * kill is the time for a process to exit, be reaped and have its pid handed out again: practically none.
 */
export function signalProcess(
  mark: ProcessMark,
  sig: NodeJS.Signals,
  spare: ReadonlySet<number> = protectedPids(),
): boolean {
  if (!Number.isSafeInteger(mark.pid) || mark.pid <= 1 || spare.has(mark.pid)) return false;
  if (threadGroupOf(mark.pid) !== mark.pid) return false;
  const now = readProcess(mark.pid);
  if (now === null || now.zombie || now.startTime !== mark.startTime) return false;
  try {
    process.kill(mark.pid, sig);
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until none of `marks` runs any more; returns those still running at the deadline. */
export async function waitGone(marks: readonly ProcessMark[], timeoutMs: number): Promise<ProcessMark[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = marks.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(50);
    alive = alive.filter(isAlive);
  }
  return alive;
}
