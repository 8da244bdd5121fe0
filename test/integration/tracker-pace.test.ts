// The process tracker at a hundred agents' pace (pty/pty-host.ts, tracking-schedule.ts): it backs off while nothing
// happens, yet a child that leaves the terminal's session is still recorded, and a burst of spawns shares its passes
// while every terminal still reaches the ledger.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import type { Terminal } from '../../electron/core/pty/terminal.js';
import { killWithEnv, listProcs, waitEnvGone } from '../helpers/processes.js';
import { waitFor } from '../helpers/server.js';

const TAG = 'BATON_TEST_TRACKER_TAG';
const tag = randomUUID();
const hosts: PtyHost[] = [];
const dirs: string[] = [];

function newHost(): { host: PtyHost; ledger: string } {
  const dir = mkdtempSync(join(tmpdir(), 'baton-tracker-'));
  dirs.push(dir);
  const ledger = join(dir, 'processes.json');
  const host = new PtyHost(ledger);
  hosts.push(host);
  return { host, ledger };
}

afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.stopAll();
    h.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  killWithEnv(TAG, tag);
});

function spawnShell(host: PtyHost, script: string): Terminal {
  return host.spawn({
    argv: ['/bin/bash', '--noprofile', '--norc', '-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', [TAG]: tag },
    cols: 80,
    rows: 24,
  });
}

function sessionOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return null;
  }
}

describe('the process tracker at scale', () => {
  it('after backing off, still records a child that left the session, woken by the output that came with it', async () => {
    const { host } = newHost();
    const t = spawnShell(host, 'echo ready; read _; setsid sleep 60 & echo spawned; wait');
    await waitFor(() => host.trackingWaitMs >= 4000, 'the tracker to back off while nothing happens', 20_000);
    t.write('\n');
    const child = await waitFor(
      () => listProcs().find((p) => p.ppid === t.pid && p.comm === 'sleep'),
      'the child that calls setsid',
    );
    expect(sessionOf(child.pid)).toBe(child.pid);
    expect(sessionOf(child.pid)).not.toBe(t.pid);
    // Well within the quiet wait: the output woke the tracker, it did not wait out its back-off.
    const within = host.trackingWaitMs - 500;
    await waitFor(
      () => t.recordedProcesses().some((m) => m.pid === child.pid && m.startTime === child.startTime),
      'the tracker to record the child',
      within,
    );
    await t.stop(1000);
    expect(await waitEnvGone(TAG, tag, 1000)).toEqual([]);
  }, 40_000);

  it('a terminal that floods from its start still has what it started recorded, its first pass only held back', async () => {
    // The first pass waits while its terminal starts or floods (a /proc read beside a burst slowed it), not forever.
    const { host } = newHost();
    const t = spawnShell(host, 'setsid sleep 60 & while :; do printf "%0512d\\n" 0; done');
    const child = await waitFor(
      () => listProcs().find((p) => p.ppid === t.pid && p.comm === 'sleep'),
      'the child that calls setsid',
    );
    await waitFor(
      () => t.recordedProcesses().some((m) => m.pid === child.pid && m.startTime === child.startTime),
      'the first pass to record the child while its terminal floods',
    );
    expect(t.endOffset).toBeGreaterThan(0);
    await t.stop(1000);
    expect(await waitEnvGone(TAG, tag, 1000)).toEqual([]);
  }, 40_000);

  it('25 terminals spawned at once share their passes, and the ledger names every one with its job', async () => {
    const { host, ledger } = newHost();
    const terminals = Array.from({ length: 25 }, () =>
      spawnShell(host, '(trap "" HUP TERM; while :; do sleep 0.3; done) & echo started; wait'),
    );
    const jobs = await waitFor(() => {
      const procs = listProcs();
      const found = terminals.map((t) => procs.find((p) => p.ppid === t.pid && p.comm === 'bash'));
      return found.every((p) => p !== undefined) ? found : undefined;
    }, 'every background job');
    const named = (text: string) => {
      const file = JSON.parse(text) as {
        terminals: {
          leader: { pid: number; startTime: string } | null;
          processes: { pid: number; startTime: string }[];
        }[];
      };
      const leaders = new Set(file.terminals.map((e) => e.leader && `${e.leader.pid}@${e.leader.startTime}`));
      const recorded = new Set(file.terminals.flatMap((e) => e.processes.map((p) => `${p.pid}@${p.startTime}`)));
      return (
        terminals.every((t) => t.leader && leaders.has(`${t.leader.pid}@${t.leader.startTime}`)) &&
        jobs.every((j) => recorded.has(`${j.pid}@${j.startTime}`))
      );
    };
    await waitFor(() => named(readFileSync(ledger, 'utf8')), 'the ledger to name every terminal and job');
    await host.stopAll();
    expect(await waitEnvGone(TAG, tag, 2000)).toEqual([]);
  }, 60_000);
});
