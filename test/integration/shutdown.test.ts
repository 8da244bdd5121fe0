// Nothing Baton started outlives it (docs/architecture.md §8): SIGTERM to `baton serve`, run.stop, and the start-up sweep after
// a `baton serve` that was SIGKILLed, against a background job that ignores SIGHUP and SIGTERM, and one that also
// left the agent's session (setsid) and was re-parented to init: walking parent links from the server misses
// that one, so each server's processes carry a variable of the test's own, found in /proc/<pid>/environ.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentSpec } from '../../shared/contract.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import {
  aliveOf,
  descendants,
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

/**
 * A shell whose background job ignores HUP and TERM (only SIGKILL ends it), and a second such job that leaves the
 * session at once (`setsid -f` forks, and its parent exits): re-parented to init, no descendant of anything here.
 */
const STUBBORN = [
  '/bin/bash',
  '--noprofile',
  '--norc',
  '-c',
  `(trap '' HUP TERM; while :; do sleep 0.2; done) & setsid -f sh -c 'trap "" HUP TERM; while :; do sleep 0.2; done'; echo started; wait`,
];
/** Set in each server's environment, so in every process it starts: one value per server. */
const TAG = 'BATON_TEST_SHUTDOWN_TAG';
const tags: string[] = [];

let root: string;
let proj: string;
let home: string;
const servers: ServerProcess[] = [];
const leftovers: ProcMark[] = [];

beforeAll(() => {
  root = realpathSync(tempDir('baton-shutdown-'));
  proj = join(root, 'proj');
  mkdirSync(proj);
  home = join(root, 'home');
});

afterEach(async () => {
  // Whatever a failed test left: servers first (they stop their agents), then any process we marked.
  for (const s of servers.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
  }
  killMarks(leftovers.splice(0));
  for (const tag of tags.splice(0)) killWithEnv(TAG, tag);
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

async function newServer(dataDir: string): Promise<ServerProcess & { tag: string }> {
  const tag = randomUUID();
  tags.push(tag);
  const s = await startServer(dataDir, testEnv(home, { FAKE_CLAUDE_DELAY_MS: '10', [TAG]: tag }));
  servers.push(s);
  return { ...s, tag };
}

/** The job that left the session: found only by the server's tag, in a session it leads. */
async function escapedJob(tag: string): Promise<ProcMark> {
  const sh = await waitFor(
    () => procsWithEnv(TAG, tag).find((p) => p.comm === 'sh' && sessionOf(p.pid) === p.pid),
    'the job that left the session',
  );
  return markOf(sh);
}

function sessionOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return null;
  }
}

async function startStubbornRun(client: RpcClient, name: string, withClaude: boolean) {
  const agents: AgentSpec[] = [{ vendor: 'shell', label: 'stubborn', cwd: proj, command: STUBBORN }];
  if (withClaude) agents.push({ vendor: 'claude', label: 'planner', cwd: proj });
  const run = await client.call('run.start', { name, agents });
  const shell = run.agents.find((a) => a.label === 'stubborn')!;
  expect(shell.status).toBe('running');
  expect(shell.pid).not.toBeNull();
  await waitFor(
    async () => (await client.call('agent.screen', { agentId: shell.id })).text.includes('started'),
    "'started' on the shell agent's screen",
  );
  // The background job: the subshell, a bash child of the agent's bash.
  const job = await waitFor(
    () => descendants(shell.pid!).find((p) => p.ppid === shell.pid && p.comm === 'bash'),
    'the background job',
  );
  return { run, shell, job: markOf(job) };
}

/** Marks of every live descendant of `pid`, remembered for clean-up. */
function snapshotTree(pid: number): ProcMark[] {
  const marks = descendants(pid).map(markOf);
  leftovers.push(...marks);
  return marks;
}

/**
 * How long a test waits for processes that ignore HUP and TERM to be gone: they never end by themselves, so only a
 * SIGKILL ends them, and this bound is only how long the test waits for it (generous for a loaded machine).
 */
const STUBBORN_GONE_MS = 25_000;

describe('process lifecycle of baton serve', () => {
  it('SIGTERM to the server: it exits 0, and its descendants that ignore HUP and TERM are killed after the grace', async () => {
    const server = await newServer(join(root, 'data-term'));
    const client = await server.connect();
    const { job } = await startStubbornRun(client, 'term', true);
    const escaped = await escapedJob(server.tag);
    const pid = server.child.pid!;
    const tree = snapshotTree(pid);
    // The agents' CLIs (the shell, its job, the fake claude) are all there; the job that left the session is not.
    expect(tree.some((m) => m.pid === job.pid)).toBe(true);
    expect(tree.length).toBeGreaterThanOrEqual(3);
    expect(tree.some((m) => m.pid === escaped.pid)).toBe(false);
    client.close();

    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    // The job ignores HUP and TERM and never ends by itself: gone at all means the stop went on to SIGKILL (after a
    // 5 s grace). The bound is only there to end the test; how long the stop takes is not asserted (a loaded machine
    // took 9 s once).
    expect(await waitAllGone(tree, STUBBORN_GONE_MS)).toEqual([]);
    // Nothing that inherited the server's environment either, the job that left the session included.
    expect(await waitEnvGone(TAG, server.tag, STUBBORN_GONE_MS)).toEqual([]);
    expect(server.output()).toMatch(/SIGTERM: snapshotting and stopping every agent/);
  }, 60_000);

  it('run.stop leaves none of the agent’s processes alive, and the server keeps running', async () => {
    const server = await newServer(join(root, 'data-stop'));
    const client = await server.connect();
    const { run, shell, job } = await startStubbornRun(client, 'stop', false);
    const escaped = await escapedJob(server.tag);
    const agentTree = [{ pid: shell.pid!, startTime: readProc(shell.pid!)!.startTime }, ...snapshotTree(shell.pid!)];
    leftovers.push(...agentTree);
    expect(agentTree.some((m) => m.pid === job.pid)).toBe(true);

    const stopped = await client.call('run.stop', { run: run.id });
    expect(stopped.agents[0]!.status).toBe('stopped');
    // run.stop returns once the stop sequence (HUP, TERM, KILL after the grace) is through.
    expect(await waitAllGone(agentTree, 1000)).toEqual([]);
    expect(agentTree.some((m) => m.pid === escaped.pid)).toBe(false);
    // The server itself carries the tag; nothing else may (a `sleep 0.2` of a killed loop ends by itself).
    expect(await waitEnvGone(TAG, server.tag, 1000, [server.child.pid!])).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect((await client.call('run.get', { run: run.id })).agents[0]!.status).toBe('stopped');
    expect(descendants(server.child.pid!)).toEqual([]);
    client.close();
  }, 30_000);

  it('after a SIGKILLed server the stubborn job lives on; the next server on the same data dir sweeps it at start-up', async () => {
    const dataDir = join(root, 'data-kill');
    const first = await newServer(dataDir);
    const client = await first.connect();
    const { job } = await startStubbornRun(client, 'killed', true);
    const escaped = await escapedJob(first.tag);
    const tree = snapshotTree(first.child.pid!);
    // The ledger must have recorded the job before the host dies (it is written on a 1 s tick).
    await waitFor(() => {
      const ledger = JSON.parse(readFileSync(join(dataDir, 'processes.json'), 'utf8')) as {
        terminals: { processes: ProcMark[] }[];
      };
      return ledger.terminals.some((t) => t.processes.some((p) => p.pid === job.pid && p.startTime === job.startTime));
    }, 'the process ledger to record the job');
    client.close();

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // Nobody could stop it: the job ignores the hangup of its terminal.
    await new Promise((r) => setTimeout(r, 1000));
    expect(isAlive(job)).toBe(true);
    expect(isAlive(escaped)).toBe(true);

    const second = await newServer(dataDir);
    // Neither ends by itself (the 1 s above showed it): gone means the new server's start-up sweep killed them.
    expect(await waitAllGone([job, escaped], STUBBORN_GONE_MS)).toEqual([]);
    expect(second.output()).toMatch(/stopped \d+ process(es)? left running by a previous Baton/);
    // Everything the first server started is gone too (short-lived `sleep`s end by themselves).
    expect(await waitAllGone(tree, 2000)).toEqual([]);
    expect(aliveOf(tree)).toEqual([]);
    expect(await waitEnvGone(TAG, first.tag, 1000)).toEqual([]);
    // The interrupted run is remembered as no longer running.
    const c2 = await second.connect();
    const run = await c2.call('run.get', { run: 'killed' });
    expect(run.agents.map((a) => a.status)).toEqual(['exited', 'exited']);
    c2.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
