// A process is who its pid AND start time say: Baton never signals a pid that now belongs to someone else, nor
// itself, its ancestors, pid 1 or a thread, and a process ledger on disk, however torn or hostile, changes nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseStat, readProcess, type ProcInfo } from '../../electron/core/pty/proc-stat.js';
import { ProcessLedger } from '../../electron/core/pty/process-ledger.js';
import { signalProcess } from '../../electron/core/pty/process-signal.js';
import { ProcessRecord } from '../../electron/core/pty/process-tree.js';
import {
  earlierHolder,
  isAlive,
  killMarks,
  markOf,
  readProc,
  startSleeper,
  waitAllGone,
  type ProcMark,
} from '../helpers/processes.js';

const leftovers: ProcMark[] = [];
let dir: string;
let stderr: ReturnType<typeof vi.spyOn>;
/** SIGTERMs this test process receives: with a listener, Node reports them instead of exiting. */
let termsReceived = 0;
const onTerm = () => void termsReceived++;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-identity-'));
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  termsReceived = 0;
  process.on('SIGTERM', onTerm);
});
afterEach(() => {
  process.off('SIGTERM', onTerm);
  stderr.mockRestore();
  killMarks(leftovers.splice(0));
  rmSync(dir, { recursive: true, force: true });
});

/** A `sleep` child, as a ledger names a process: pid and start time, nothing else. */
function sleeper(options: { detached?: boolean } = {}): ProcMark {
  const mark = startSleeper(options);
  leftovers.push(mark);
  return { pid: mark.pid, startTime: mark.startTime };
}

/** A stat line whose fields 3… are `rest`, with `comm` in the parentheses. */
function statLine(pid: number, comm: string, fields: Record<number, string>): string {
  const rest = Array.from({ length: 50 }, (_, i) => fields[i + 3] ?? '0');
  return `${pid} (${comm}) ${rest.join(' ')}\n`;
}

describe('reading who a process is', () => {
  it('takes the fields after the last parenthesis, whatever the command name holds', () => {
    for (const comm of ['a b', 'x) S 1 1 (y', '))((', ') Z 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 (', 'line\nbreak']) {
      const info = parseStat(statLine(4242, comm, { 3: 'S', 4: '17', 6: '4200', 22: '987654' }));
      expect(info).toEqual({ pid: 4242, ppid: 17, sid: 4200, startTime: '987654', zombie: false });
    }
    expect(parseStat(statLine(7, 'z', { 3: 'Z', 22: '5' }))?.zombie).toBe(true);
    expect(parseStat('garbage')).toBeNull();
    expect(parseStat('12 (cut) S 1 2')).toBeNull();
  });

  it('reads a live process whose name is made to look like other fields', async () => {
    const child = spawn(
      '/bin/bash',
      ['--noprofile', '--norc', '-c', `printf 'x) Z 1 1 (y' > /proc/$$/comm; echo renamed; while :; do sleep 1; done`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const pid = child.pid!;
    leftovers.push(markOf(readProc(pid)!));
    expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('x) Z 1 1 (y');
    const info = readProcess(pid);
    expect(info).toMatchObject({ pid, ppid: process.pid, sid: readProcess(process.pid)!.sid, zombie: false });
    expect(info?.startTime).toBe(readProc(pid)!.startTime);
  });
});

describe('signalling by identity', () => {
  it('a mark whose start time differs from the live process with that pid is not signalled; the right one is', async () => {
    const live = sleeper();
    expect(signalProcess(earlierHolder(live), 'SIGTERM')).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(isAlive(live)).toBe(true);

    expect(signalProcess(live, 'SIGTERM')).toBe(true);
    expect(await waitAllGone([live], 5000)).toEqual([]);
  });

  it('never signals pid 0 or 1, a negative or impossible pid, this process, or its ancestors', async () => {
    const own = markOf(readProc(process.pid)!);
    const parent = markOf(readProc(process.ppid)!);
    const grandparent = readProc(parent.pid)!;
    const marks: ProcMark[] = [
      own,
      parent,
      { pid: 1, startTime: readProc(1)?.startTime ?? '0' },
      { pid: 0, startTime: '0' },
      { pid: -1, startTime: '0' },
      { pid: Number.NaN, startTime: '0' },
      { pid: 2.5, startTime: '0' },
    ];
    if (grandparent.pid > 1) marks.push(markOf(grandparent));
    // SIGWINCH is harmless to every one of them should the guard fail; the SIGTERM to this process is caught.
    for (const m of marks) expect(signalProcess(m, 'SIGWINCH'), `pid ${m.pid}`).toBe(false);
    expect(signalProcess(own, 'SIGTERM')).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(termsReceived).toBe(0);
  });

  it('never takes a thread id for a process (a signal to it would hit the whole process)', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        'new (require("node:worker_threads").Worker)("setInterval(()=>{},1e6)", { eval: true }); setInterval(() => {}, 1e6)',
      ],
      { stdio: 'ignore' },
    );
    const pid = child.pid!;
    leftovers.push(markOf(readProc(pid)!));
    const tid = await waitFor(() =>
      readdirSync(`/proc/${pid}/task`)
        .map(Number)
        .find((t) => t !== pid),
    );
    const thread = { pid: tid, startTime: readProcess(tid)!.startTime };
    expect(signalProcess(thread, 'SIGTERM')).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(isAlive(markOf(readProc(pid)!))).toBe(true);
  });
});

describe("a terminal's record of its processes", () => {
  // Start times no real process has, should the record ask /proc about a pid this made-up list leaves out.
  const T = (ticks: number) => String(9_000_000_000 + ticks);
  const proc = (pid: number, ppid: number, sid: number, ticks: number): ProcInfo => ({
    pid,
    ppid,
    sid,
    startTime: T(ticks),
    zombie: false,
  });

  it('adopts nothing once the leader pid belongs to a new session: a login shell that was given the same pid', () => {
    const record = new ProcessRecord({ pid: 500, startTime: T(100) });
    expect(record.observe([proc(500, 1, 500, 100), proc(501, 500, 500, 110)])).toBe(true);
    expect(
      record
        .list()
        .map((m) => m.pid)
        .sort(),
    ).toEqual([500, 501]);
    // The agent exits; its pid goes to a login shell (a session leader, so sid 500 again) with children of its own.
    const reused = [proc(500, 1, 500, 900), proc(502, 500, 500, 901), proc(503, 502, 500, 902)];
    expect(record.observe(reused)).toBe(false);
    expect(record.list()).toEqual([]);
    expect(record.observe(reused)).toBe(false);
    expect(record.list()).toEqual([]);
  });

  it('keeps a job that outlived the leader, and what that job starts, but drops a recorded pid that was reused', () => {
    const record = new ProcessRecord({ pid: 500, startTime: T(100) });
    record.observe([proc(500, 1, 500, 100), proc(600, 500, 500, 150), proc(700, 500, 500, 160)]);
    // The leader is gone; 600 (now reparented) still runs and started 601; 700 exited and its pid went to a stranger.
    const later = [proc(600, 1, 500, 150), proc(601, 600, 500, 170), proc(700, 1, 700, 990), proc(701, 700, 700, 991)];
    expect(record.observe(later)).toBe(false);
    expect(
      record
        .list()
        .map((m) => `${m.pid}@${m.startTime}`)
        .sort(),
    ).toEqual([`600@${T(150)}`, `601@${T(170)}`]);
  });

  it('a scan that began before a process was recorded does not make the record forget it; its exit does', async () => {
    const job = sleeper();
    const jobInfo: ProcInfo = { pid: job.pid, ppid: 500, sid: 500, startTime: job.startTime, zombie: false };
    const record = new ProcessRecord({ pid: 500, startTime: T(100) });
    record.observe([proc(500, 1, 500, 100), jobInfo]);
    const olderScan = [proc(500, 1, 500, 100)];
    record.observe(olderScan);
    expect(record.list()).toContainEqual(job);
    killMarks([job]);
    await waitAllGone([job], 5000);
    record.observe(olderScan);
    expect(record.list()).not.toContainEqual(job);
  });
});

describe('the process ledger a previous core left', () => {
  const ledgerPath = () => join(dir, 'processes.json');
  const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  /** A core that is gone: same shape as a real ledger, host start time 0 so every process is younger. */
  const ledger = (processes: unknown[], extra: Record<string, unknown> = {}) => ({
    version: 1,
    bootId: bootId(),
    host: { pid: 999_999, startTime: '0' },
    terminals: [{ leader: null, processes }],
    ...extra,
  });
  const sweep = (content: unknown) => {
    writeFileSync(ledgerPath(), typeof content === 'string' ? content : JSON.stringify(content));
    return new ProcessLedger(ledgerPath()).sweep();
  };

  it('stops a recorded process that still runs: the positive control', async () => {
    const live = sleeper();
    expect(await sweep(ledger([live]))).toBe(1);
    expect(await waitAllGone([live], 5000)).toEqual([]);
  });

  it('leaves alone a process that only has a recorded pid, or that is older than the core that wrote the ledger', async () => {
    const live = sleeper({ detached: true });
    expect(await sweep(ledger([earlierHolder(live)]))).toBe(0);
    expect(
      await sweep(ledger([live], { host: { pid: 999_999, startTime: String(BigInt(live.startTime) + 1n) } })),
    ).toBe(0);
    expect(await sweep(ledger([live], { bootId: '00000000-0000-0000-0000-000000000000' }))).toBe(0);
    expect(isAlive(live)).toBe(true);
  });

  it('a torn, garbage or oversized file is ignored, without crashing or signalling anything', async () => {
    const live = sleeper();
    const good = JSON.stringify(ledger([live]));
    const contents = [
      good.slice(0, good.length / 2),
      '',
      '\u0000\u00ff garbage',
      'null',
      '[]',
      '"processes"',
      '['.repeat(1_000_000),
      `{"a":${'['.repeat(100_000)}`,
      good + ' '.repeat(5 * 1024 * 1024),
    ];
    for (const content of contents) expect(await sweep(content)).toBe(0);
    expect(isAlive(live)).toBe(true);
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('ignoring the process ledger'));
  });

  it('a ledger naming pid 1, negative or impossible pids, odd fields or huge lists is refused whole', async () => {
    const live = sleeper();
    const hostile: unknown[] = [
      ledger([live, { pid: 1, startTime: readProc(1)?.startTime ?? '1' }]),
      ledger([live, { pid: -live.pid, startTime: live.startTime }]),
      ledger([live, { pid: 0, startTime: '0' }]),
      ledger([live, { pid: 2 ** 40, startTime: '1' }]),
      ledger([live, { pid: 3.5, startTime: '1' }]),
      ledger([live, { pid: '12', startTime: '1' }]),
      ledger([{ pid: live.pid, startTime: live.startTime, signal: 'SIGKILL' }]),
      ledger([{ pid: live.pid, startTime: `${live.startTime} ` }]),
      ledger([{ pid: live.pid, startTime: -1 }]),
      ledger([live, ...Array.from({ length: 20_000 }, () => live)]),
      { ...ledger([live]), terminals: Array.from({ length: 2000 }, () => ({ leader: null, processes: [live] })) },
      JSON.stringify(ledger([live])).replace('{', '{"__proto__":{"polluted":true},'),
      { ...ledger([live]), host: { pid: 1, startTime: '0' } },
      { ...ledger([live]), version: 3 },
      { ...ledger([live]), version: 2 },
    ];
    for (const content of hostile) expect(await sweep(content)).toBe(0);
    expect(isAlive(live)).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('a well-formed ledger naming this process, its ancestors or a thread signals none of them', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        'new (require("node:worker_threads").Worker)("setInterval(()=>{},1e6)", { eval: true }); setInterval(() => {}, 1e6)',
      ],
      { stdio: 'ignore' },
    );
    const nodeChild = markOf(readProc(child.pid!)!);
    leftovers.push(nodeChild);
    const tid = await waitFor(() =>
      readdirSync(`/proc/${nodeChild.pid}/task`)
        .map(Number)
        .find((t) => t !== nodeChild.pid),
    );
    const ownThread = readdirSync('/proc/self/task')
      .map(Number)
      .find((t) => t !== process.pid)!;
    const named = [process.pid, process.ppid, readProc(process.ppid)!.ppid, tid, ownThread]
      .filter((pid) => pid > 1)
      .map((pid) => ({ pid, startTime: readProc(pid)!.startTime }));
    expect(await sweep(ledger(named, { terminals: [{ leader: named[0], processes: named }] }))).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(termsReceived).toBe(0);
    expect(isAlive(nodeChild)).toBe(true);
  });

  it('refuses to sweep while the core that wrote the ledger still runs', async () => {
    const otherCore = sleeper();
    const live = sleeper();
    await expect(sweep(ledger([live], { host: otherCore }))).rejects.toThrow(/another Baton core/);
    expect(isAlive(live)).toBe(true);
  });
});

async function waitFor<T>(probe: () => T | undefined, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
