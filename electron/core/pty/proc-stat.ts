// Processes as Linux's /proc shows them: who a pid is (its start time), its parent and its session.
import { closeSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { readStatLinesOnMirrorThread } from './mirror.js';

export interface ProcInfo {
  pid: number;
  ppid: number;
  sid: number;
  /** Clock ticks since boot at process start: tells a live process from a reused pid. */
  startTime: string;
  zombie: boolean;
}

/** A process Baton recorded, identified by pid and start time so a reused pid is never taken for it. */
export interface ProcessMark {
  pid: number;
  startTime: string;
}

export const markOf = (p: ProcInfo): ProcessMark => ({ pid: p.pid, startTime: p.startTime });
export const sameProcess = (a: ProcessMark, b: ProcessMark) => a.pid === b.pid && a.startTime === b.startTime;

const DIGITS = /^\d+$/;
/** Field 22 of a stat line, the start time, counted from the state (field 3) as 0. */
const STARTTIME_INDEX = 19;

/**
 * Parses one /proc/<pid>/stat line. The command name (field 2) sits in parentheses and may itself hold spaces
 * and parentheses, so the fields are counted from the LAST ')'; field 3 (state) is the first after it.
 */
export function parseStat(stat: string): ProcInfo | null {
  const close = stat.lastIndexOf(')');
  const open = stat.indexOf(' (');
  if (close < 0 || open < 0 || open > close) return null;
  const pidText = stat.slice(0, open);
  // Field 3 (the state) is the first after the command, so field N is index N - 3: ppid 4, session 6, starttime 22.
  // Found by walking the spaces: splitting the whole line made ~50 strings of each of a scan's hundreds of lines, and
  // the tracker scans every second while a terminal prints.
  let state: string | undefined;
  let ppid: string | undefined;
  let sid: string | undefined;
  let startTime: string | undefined;
  for (let at = close + 2, index = 0; index <= STARTTIME_INDEX; index++) {
    const space = stat.indexOf(' ', at);
    const end = space < 0 ? stat.length : space;
    if (index === 0) state = stat.slice(at, end);
    else if (index === 1) ppid = stat.slice(at, end);
    else if (index === 3) sid = stat.slice(at, end);
    else if (index === STARTTIME_INDEX) startTime = stat.slice(at, end);
    if (space < 0) break;
    at = space + 1;
  }
  if (state === undefined || ppid === undefined || sid === undefined || startTime === undefined) return null;
  if (!DIGITS.test(pidText) || !DIGITS.test(ppid) || !DIGITS.test(sid) || !DIGITS.test(startTime)) return null;
  return {
    pid: Number(pidText),
    ppid: Number(ppid),
    sid: Number(sid),
    startTime,
    zombie: state === 'Z' || state === 'X',
  };
}

// A stat line is a few hundred bytes; one buffer serves every read (reads are synchronous, so never shared).
const statBuffer = Buffer.alloc(4096);

/** Reads one process; null when it does not exist (or no longer does). Also answers for a thread id. */
export function readProcess(pid: number): ProcInfo | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  let fd: number | null = null;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
    const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
    // latin1: only ASCII digits and ')' matter, and a ')' byte never occurs inside a UTF-8 sequence.
    return parseStat(statBuffer.toString('latin1', 0, length));
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The same process (pid and start time) still runs: not gone, not reused, not a zombie. */
export function isAlive(mark: ProcessMark): boolean {
  const info = readProcess(mark.pid);
  return info !== null && !info.zombie && info.startTime === mark.startTime;
}

/**
 * The process a pid belongs to. /proc/<tid> answers for any thread, and kill(tid) signals the thread's whole
 * process, so a recorded number is only taken for a process when it is its own thread group id.
 */
export function threadGroupOf(pid: number): number | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    const match = /^Tgid:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match?.[1] === undefined ? null : Number(match[1]);
  } catch {
    return null;
  }
}

/** Every process, read in one go on the calling thread (for callers that need an answer at once). */
export function readProcesses(): ProcInfo[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (!DIGITS.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/**
 * Stat files read here between two turns of the event loop (without the scan thread). A read costs 10–15 µs on an
 * idle machine, so 16 hold a keystroke's echo up by ~0.2 ms at most; 64 (~0.8 ms, several ms when the machine is busy)
 * showed in the echo's p99 while output keeps the tracker scanning every second (docs/performance.md, "Echo of one
 * core"). A turn costs a few µs.
 */
export const SCAN_SLICE = 16;
/** Stat lines parsed between two turns: a parse costs a few µs, no system call. */
const PARSE_SLICE = 64;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every process, its stat lines read on the mirrors' thread and parsed here in slices with the event loop running in
 * between, so a busy machine's /proc never holds up terminal output. The tracker scans every second while a terminal
 * prints (an echoed key is output): on this thread the reads took ~3 ms a pass on an idle machine and ~25 ms on a
 * loaded one, each slice a wait for an echo arriving meanwhile (docs/performance.md, "Echo of one core"). The mirrors'
 * thread runs whenever a terminal exists; a thread of the scan's own cost 10.7 MB. Without it (no terminal yet, a
 * sweep at start) the reads are made here, in slices too, each one synchronous: measured, a thread-pool read per file
 * costs several times the CPU of the whole synchronous scan for no shorter stall.
 *
 * Callers that ask within `SHARE_WINDOW_MS` of each other share one scan, which starts after the last of them
 * asked (so it is never older than any caller's question): stopping 25 agents at once, with the tracker's pass
 * among them, reads /proc once instead of 26 times.
 */
export function scanProcesses(): Promise<ProcInfo[]> {
  sharedScan ??= new Promise<void>((resolve) => setTimeout(resolve, SHARE_WINDOW_MS)).then(() => {
    sharedScan = null;
    return scanProcessesNow();
  });
  return sharedScan;
}

/** How long a scan waits for other callers to share it. */
export const SHARE_WINDOW_MS = 10;
let sharedScan: Promise<ProcInfo[]> | null = null;

async function scanProcessesNow(): Promise<ProcInfo[]> {
  const lines = await readStatLinesOnMirrorThread();
  if (lines) return readInSlices(lines, parseStat, PARSE_SLICE);
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  return readInSlices(names.filter((name) => DIGITS.test(name)).map(Number), readProcess);
}

/** `read` of each item (a pid, a stat line), at most `slice` of them per turn of the event loop; nulls left out. */
export async function readInSlices<I, T>(
  items: readonly I[],
  read: (item: I) => T | null,
  slice: number = SCAN_SLICE,
): Promise<T[]> {
  const out: T[] = [];
  let sinceYield = 0;
  for (const item of items) {
    const info = read(item);
    if (info) out.push(info);
    if (++sinceYield === slice) {
      sinceYield = 0;
      await nextTurn();
    }
  }
  return out;
}

/** This boot's id: a start time only names a process within one boot. */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim();
  } catch {
    return '';
  }
}

/** When this boot began (ms since the epoch; `btime` in /proc/stat), or null if it cannot be read. */
export function bootTimeMs(): number | null {
  try {
    const match = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'));
    return match?.[1] === undefined ? null : Number(match[1]) * 1000;
  } catch {
    return null;
  }
}
