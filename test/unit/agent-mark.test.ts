// The environment mark (docs/architecture.md §8): a process that left its agent's tree is still stopped by it, at stop and by the
// start-up sweep; a process is only taken for the agent's when it carries the exact mark, belongs to this user and
// started after the agent did.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MARK_VAR, marksIn, newMarkValue, scanMarked, type AgentMark } from '../../electron/core/pty/agent-mark.js';
import { ProcessLedger } from '../../electron/core/pty/process-ledger.js';
import { terminateTree } from '../../electron/core/pty/process-tree.js';
import { newTerminalId } from '../../electron/core/pty/terminal.js';
import {
  isAlive,
  killMarks,
  killWithEnv,
  markOf,
  procsWithEnv,
  readProc,
  waitAllGone,
  waitEnvGone,
  type ProcMark,
} from '../helpers/processes.js';

const leftovers: ProcMark[] = [];
const marksUsed: string[] = [];
let dir: string;
let stderr: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-mark-'));
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  stderr.mockRestore();
  killMarks(leftovers.splice(0));
  for (const value of marksUsed.splice(0)) killWithEnv(MARK_VAR, value);
  rmSync(dir, { recursive: true, force: true });
});

/** A `sleep` (or `argv`) in a session of its own, as a job that called setsid is, with `env`; optionally as another user. */
function markedSleeper(env: Record<string, string>, uid?: number, argv = ['sleep', '60']): ProcMark {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    uid,
  });
  child.unref();
  const info = child.pid === undefined ? null : readProc(child.pid);
  if (!info) throw new Error('sleep did not start');
  leftovers.push(markOf(info));
  return { pid: info.pid, startTime: info.startTime };
}

function newMark(since = '0'): AgentMark {
  const value = newMarkValue(newTerminalId());
  marksUsed.push(value);
  return { value, since };
}
const later = (m: ProcMark) => String(BigInt(m.startTime) + 1n);

describe('finding a mark in an environment block', () => {
  it('takes only whole entries named exactly BATON_AGENT_MARK', () => {
    const env = (...entries: string[]) => Buffer.from(entries.join('\0') + '\0');
    expect(marksIn(env(`${MARK_VAR}=a.b`, 'HOME=/x'))).toEqual(['a.b']);
    expect(marksIn(env('HOME=/x', `${MARK_VAR}=c`, `${MARK_VAR}=d`))).toEqual(['c', 'd']);
    expect(marksIn(env(`X${MARK_VAR}=e`, `FOO=${MARK_VAR}=f`))).toEqual([]);
    expect(marksIn(Buffer.from(`A=1\0${MARK_VAR}=unterminated`))).toEqual(['unterminated']);
    expect(marksIn(Buffer.alloc(0))).toEqual([]);
  });
});

describe('stopping by mark', () => {
  it('a process that left the tree is stopped by its mark; one with another mark or an older start is not', async () => {
    const value = newMark().value;
    // Started before the terminal (as far as the mark's `since` says): carrying the mark does not make it the agent's.
    const early = markedSleeper({ [MARK_VAR]: value });
    const mark: AgentMark = { value, since: later(early) };
    // Start times count clock ticks (10 ms): what starts 50 ms later has a later one.
    await new Promise((r) => setTimeout(r, 50));
    const marked = markedSleeper({ [MARK_VAR]: value });
    const other = markedSleeper({ [MARK_VAR]: newMark().value });
    const longer = markedSleeper({ [MARK_VAR]: `${value}0` });
    const unmarked = markedSleeper({});

    expect(await terminateTree(null, [], 500, [mark])).toBe(1);
    expect(await waitAllGone([marked], 3000)).toEqual([]);
    for (const p of [early, other, longer, unmarked]) expect(isAlive(p)).toBe(true);
  });

  it('a helper started while the agent is being stopped (a detached one, as some CLIs spawn on exit) is stopped too', async () => {
    const mark = newMark();
    // On SIGTERM it starts a helper in a session of its own, then exits: the helper only exists after the first scan.
    const cli = markedSleeper({ [MARK_VAR]: mark.value }, undefined, [
      'sh',
      '-c',
      `trap 'setsid -f sleep 60; exit 0' TERM; while :; do sleep 0.1; done`,
    ]);
    // The trap is set once the loop runs its first `sleep`.
    for (let i = 0; i < 100 && !procsWithEnv(MARK_VAR, mark.value).some((p) => p.ppid === cli.pid); i++)
      await new Promise((r) => setTimeout(r, 20));
    // The loop's shell (and its `sleep`, unless between two) in the first scan, the helper in the closing one.
    expect(await terminateTree(null, [], 1000, [mark])).toBeGreaterThanOrEqual(2);
    expect(await waitAllGone([cli], 1000)).toEqual([]);
    expect(await waitEnvGone(MARK_VAR, mark.value, 1000)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('a process of another user carrying the mark is not touched', async () => {
    const mark = newMark();
    const stranger = markedSleeper({ [MARK_VAR]: mark.value }, 65534);
    const scan = await scanMarked([mark]);
    expect(scan.all.some((p) => p.pid === stranger.pid)).toBe(true);
    expect(scan.marked.map((p) => p.pid)).not.toContain(stranger.pid);
    expect(await terminateTree(null, [], 300, [mark])).toBe(0);
    expect(isAlive(stranger)).toBe(true);
  });

  it('a ledger that records only the mark: the next core finds and stops the process by it', async () => {
    const mark = newMark();
    const escaped = markedSleeper({ [MARK_VAR]: mark.value });
    const bystander = markedSleeper({});
    const path = join(dir, 'processes.json');
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const ledger = (since: string) => ({
      version: 2,
      bootId,
      host: { pid: 999_999, startTime: '0' },
      terminals: [{ leader: null, processes: [], mark: { value: mark.value, since } }],
    });
    // A mark younger than the process: nothing to stop.
    writeFileSync(path, JSON.stringify(ledger(later(escaped))));
    expect(await new ProcessLedger(path).sweep()).toBe(0);
    expect(isAlive(escaped)).toBe(true);

    writeFileSync(path, JSON.stringify(ledger(escaped.startTime)));
    expect(await new ProcessLedger(path).sweep()).toBe(1);
    expect(await waitAllGone([escaped], 5000)).toEqual([]);
    expect(isAlive(bystander)).toBe(true);
  });

  it('a ledger mark that is not a Baton mark is refused whole', async () => {
    const live = markedSleeper({ [MARK_VAR]: 'anything' });
    const path = join(dir, 'processes.json');
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const terminals = [{ leader: null, processes: [live], mark: { value: 'anything', since: '0' } }];
    writeFileSync(path, JSON.stringify({ version: 2, bootId, host: { pid: 999_999, startTime: '0' }, terminals }));
    expect(await new ProcessLedger(path).sweep()).toBe(0);
    expect(isAlive(live)).toBe(true);
  });
});
