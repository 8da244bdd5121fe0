// An agent exits and the system hands its pid to someone else, a new login shell say: Baton must not stop that
// stranger, neither at quit nor in the next start's sweep of its process ledger. Processes it did start still go.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import { terminateTree } from '../../electron/core/pty/process-tree.js';
import type { Terminal } from '../../electron/core/pty/terminal.js';
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

const hosts: PtyHost[] = [];
const dirs: string[] = [];
const leftovers: ProcMark[] = [];

afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.stopAll();
    h.close();
  }
  killMarks(leftovers.splice(0));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledgerPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'baton-reuse-'));
  dirs.push(dir);
  return join(dir, 'processes.json');
}

function newHost(path = ledgerPath()): PtyHost {
  const host = new PtyHost(path);
  hosts.push(host);
  return host;
}

function spawnShell(host: PtyHost, script: string): Terminal {
  return host.spawn({
    argv: ['/bin/bash', '--noprofile', '--norc', '-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    cols: 80,
    rows: 24,
  });
}

function sleeper(options: { detached?: boolean } = {}): ProcMark {
  const mark = startSleeper(options);
  leftovers.push(mark);
  return { pid: mark.pid, startTime: mark.startTime };
}

async function until<T>(probe: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const exited = (t: Terminal) => new Promise<void>((r) => t.onExit(() => r()));
const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

/** A ledger as a core that has since died would have left it (host start time 0: every process is younger). */
function writeLedger(path: string, terminals: { leader: ProcMark | null; processes: ProcMark[] }[]): void {
  writeFileSync(
    path,
    JSON.stringify({ version: 1, bootId: bootId(), host: { pid: 999_999, startTime: '0' }, terminals }),
  );
}

/** Root can choose the next pid (ns_last_pid): the only way to make a pid reuse happen on cue. */
const canChoosePids = (() => {
  try {
    accessSync('/proc/sys/kernel/ns_last_pid', constants.W_OK);
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
})();

/** A `sleep` in a session of its own (as a new login shell is) that gets `pid`; null if other forks kept taking it. */
function strangerWithPid(pid: number): ProcMark | null {
  for (let attempt = 0; attempt < 50; attempt++) {
    writeFileSync('/proc/sys/kernel/ns_last_pid', String(pid - 1));
    const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    child.unref();
    const info = child.pid === undefined ? null : readProc(child.pid);
    if (info) leftovers.push(markOf(info));
    if (info && info.pid === pid) return { pid: info.pid, startTime: info.startTime };
    child.kill('SIGKILL');
  }
  return null;
}

describe('a pid that outlives its process', () => {
  it('the stop sequence leaves alone a live process that only has a recorded pid; the process itself is stopped', async () => {
    const live = sleeper();
    const newSession = sleeper({ detached: true });
    // As a recorded process, and as the leader of a terminal (whose session, by pid, is now newSession's).
    await terminateTree(null, [earlierHolder(live)], 500);
    await terminateTree(earlierHolder(newSession), [], 500);
    expect(isAlive(live)).toBe(true);
    expect(isAlive(newSession)).toBe(true);

    await terminateTree(null, [live], 500);
    await terminateTree(newSession, [], 500);
    expect(await waitAllGone([live, newSession], 3000)).toEqual([]);
  });

  it('the start-up sweep leaves alone a live process that only has a recorded pid; the process itself is stopped', async () => {
    const path = ledgerPath();
    const live = sleeper();
    const newSession = sleeper({ detached: true });
    writeLedger(path, [{ leader: earlierHolder(newSession), processes: [earlierHolder(live)] }]);
    expect(await newHost(path).sweep()).toBe(0);
    expect(isAlive(live)).toBe(true);
    expect(isAlive(newSession)).toBe(true);

    writeLedger(path, [{ leader: newSession, processes: [live] }]);
    expect(await newHost(path).sweep()).toBe(1);
    expect(await waitAllGone([live, newSession], 3000)).toEqual([]);
  });

  it('a terminal whose leader exited is no longer tracked; the job it left running is still stopped at quit', async () => {
    const host = newHost();
    const t = spawnShell(host, `(trap '' HUP; exec sleep 60) & echo started; read line; exit 0`);
    const leader = t.leader!;
    expect(host.isTracked(t.id)).toBe(true);
    // The tracker records the job on one of its passes.
    const job = await until(() => t.recordedProcesses().find((m) => m.pid !== leader.pid), 'the job to be recorded');
    leftovers.push(job);
    t.write('\r');
    await exited(t);
    await until(() => !host.isTracked(t.id), 'the terminal to leave the tracker');
    expect(isAlive(job)).toBe(true);
    expect(t.recordedProcesses()).toEqual([job]);

    await host.stopAll();
    expect(await waitAllGone([job], 3000)).toEqual([]);
  });

  it.runIf(canChoosePids)(
    'a new session given an exited agent’s pid is neither recorded nor stopped, at quit or by the next sweep',
    async () => {
      const path = ledgerPath();
      const host = newHost(path);
      // Alive long enough for its start time to be read at spawn, even on a loaded machine: this test needs a leader.
      const t = spawnShell(host, 'sleep 0.5; exit 0');
      const leader = t.leader!;
      expect(leader, 'the leader was read at spawn').not.toBeNull();
      await exited(t);
      const stranger = strangerWithPid(leader.pid);
      expect(stranger, 'could not hand the exited leader’s pid to a new process').not.toBeNull();
      // Two tracker ticks: a tracker that matched by pid would adopt the stranger's whole session here.
      await new Promise((r) => setTimeout(r, 2500));
      expect(host.isTracked(t.id)).toBe(false);
      expect(t.recordedProcesses()).toEqual([]);
      const ledger = JSON.parse(readFileSync(path, 'utf8')) as { terminals: { processes: ProcMark[] }[] };
      expect(ledger.terminals.flatMap((e) => e.processes).filter((m) => m.pid === stranger!.pid)).toEqual([]);

      await host.stopAll();
      expect(isAlive(stranger!)).toBe(true);

      // A ledger written while the agent still ran, left by a core that then died: the next core sweeps it.
      writeLedger(path, [{ leader, processes: [leader] }]);
      expect(await newHost(path).sweep()).toBe(0);
      expect(isAlive(stranger!)).toBe(true);
    },
  );
});
