// The core at a hundred agents and a long history, through a real background core (`baton serve --socket`): every
// agent of four 25-agent runs starts and answers; 25 agents started at once are all recorded before a SIGKILL, so
// the next core stops what they left; `run.list` over hundreds of runs gives each run's summary, a damaged manifest
// does not hide the others, a run's health follows a change of the run, and the saved answers survive a damaged copy.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunSummary } from '../../shared/contract.js';
import { startCore, stopCore, type CoreProcess } from '../helpers/core.js';
import { killWithEnv, listProcs, markOf, waitAllGone, isAlive, type ProcMark } from '../helpers/processes.js';
import { screenText, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { writeManyRuns } from '../bench/many-runs.js';
import type { RunManifest } from '../../electron/core/store/types.js';
import { healthFile as healthFileOf } from '../../electron/core/runs/health-file.js';

const TAG = 'BATON_TEST_SCALE_TAG';
let root: string;
let work: string;
const cores: CoreProcess[] = [];
const tags: string[] = [];

beforeAll(() => {
  root = realpathSync(tempDir('baton-scale-'));
  work = join(root, 'work');
  mkdirSync(work);
});

afterEach(async () => {
  for (const core of cores.splice(0)) {
    if (core.child.exitCode === null && core.child.signalCode === null) await stopCore(core);
  }
  for (const tag of tags.splice(0)) killWithEnv(TAG, tag);
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

async function newCore(dataDir: string, tag = randomUUID()): Promise<CoreProcess> {
  tags.push(tag);
  const core = await startCore(dataDir, testEnv(join(root, 'home'), { [TAG]: tag }));
  cores.push(core);
  return core;
}

const shells = (n: number, command?: string[]) =>
  Array.from({ length: n }, (_, i) => ({
    vendor: 'shell' as const,
    label: `sh${i}`,
    cwd: work,
    ...(command ? { command } : {}),
  }));

describe('the core at scale', () => {
  it('100 shell agents in four runs all start, and each one answers what is typed into it', async () => {
    const core = await newCore(join(root, 'data-100'));
    const client = await core.connect();
    const agents: { id: string; answer: number }[] = [];
    for (let r = 0; r < 4; r++) {
      const run = await client.call('run.start', { name: `scale ${r}`, agents: shells(25) });
      expect(run.agents.map((a) => a.status)).toEqual(Array(25).fill('running'));
      agents.push(...run.agents.map((a, i) => ({ id: a.id, answer: 1000 + r * 100 + i })));
    }
    expect((await client.call('core.info', {})).liveAgents).toBe(100);
    // `echo $((N+1))` prints a number that the typed command does not contain.
    await Promise.all(
      agents.map((a) => client.call('agent.send', { agentId: a.id, text: `echo $((${a.answer - 1}+1))` })),
    );
    const unanswered = new Set(agents.map((a) => a.id));
    await waitFor(
      async () => {
        await Promise.all(
          agents
            .filter((a) => unanswered.has(a.id))
            .map(async (a) => {
              if ((await screenText(client, a.id)).split('\n').some((l) => l.trim() === String(a.answer)))
                unanswered.delete(a.id);
            }),
        );
        return unanswered.size === 0;
      },
      'every agent to answer',
      60_000,
    );
    const listed = await client.call('run.list', {});
    expect(listed.map((r) => [r.name, r.liveAgents, r.health])).toEqual(
      [3, 2, 1, 0].map((r) => [`scale ${r}`, 25, 'live']),
    );
    client.close();
  }, 120_000);

  it('25 agents started at once are in the ledger with their jobs; after a SIGKILL the next core stops them all', async () => {
    const dataDir = join(root, 'data-kill');
    const first = await newCore(dataDir);
    const client = await first.connect();
    const stubborn = [
      '/bin/bash',
      '--noprofile',
      '--norc',
      '-c',
      `(trap '' HUP TERM; while :; do sleep 0.3; done) & echo started; wait`,
    ];
    const run = await client.call('run.start', { name: 'burst', agents: shells(25, stubborn) });
    const pids = run.agents.map((a) => a.pid!);
    const jobs: ProcMark[] = await waitFor(() => {
      const procs = listProcs();
      const found = pids.map((pid) => procs.find((p) => p.ppid === pid && p.comm === 'bash'));
      return found.every((p) => p !== undefined) ? found.map(markOf) : undefined;
    }, 'every background job');
    await waitFor(() => {
      const ledger = JSON.parse(readFileSync(join(dataDir, 'processes.json'), 'utf8')) as {
        terminals: { processes: ProcMark[] }[];
      };
      const recorded = new Set(ledger.terminals.flatMap((t) => t.processes.map((p) => `${p.pid}@${p.startTime}`)));
      return jobs.every((j) => recorded.has(`${j.pid}@${j.startTime}`));
    }, 'the ledger to record every job');
    client.close();
    first.child.kill('SIGKILL');
    await first.exited;
    // The jobs ignore the hangup of their terminals: nothing but the next core can stop them.
    await new Promise((r) => setTimeout(r, 500));
    expect(jobs.filter(isAlive)).toHaveLength(25);
    const second = await newCore(dataDir);
    expect(await waitAllGone(jobs, 8000)).toEqual([]);
    expect(second.output()).toMatch(/stopped \d+ process(es)? left running by a previous Baton/);
  }, 120_000);

  it('run.list over 300 runs: every summary right and newest first, a damaged manifest skipped, health following a change', async () => {
    const dataDir = join(root, 'data-history');
    const dirs = [0, 1, 2].map((i) => join(root, `repo${i}`));
    for (const d of dirs) mkdirSync(d);
    const written = await writeManyRuns(dataDir, 300, dirs);
    const damaged = written[150]!;
    writeFileSync(join(dataDir, 'runs', damaged.id, 'run.json'), '{"v":1,"id":');
    // Some runs' sessions are in the vendors' stores (read in one pass per list): a Claude transcript in a project
    // folder not named after the cwd (a moved project), a Codex rollout in an old day folder. Both: resumable.
    const home = join(root, 'home');
    const sessionOf = (run: RunManifest, vendor: string) =>
      run.agents.find((a) => a.vendor === vendor)!.sessionIds[0]!.id;
    const claudeDir = join(home, '.claude', 'projects', '-somewhere-else');
    const codexDay = join(home, '.codex', 'sessions', '2025', '03', '04');
    mkdirSync(claudeDir, { recursive: true });
    mkdirSync(codexDay, { recursive: true });
    const whole = [written[10]!, written[13]!];
    const claudeOnly = written[16]!;
    for (const run of [...whole, claudeOnly])
      writeFileSync(join(claudeDir, `${sessionOf(run, 'claude')}.jsonl`), '{"type":"user"}\n');
    for (const run of whole)
      writeFileSync(join(codexDay, `rollout-2025-03-04T10-00-00-${sessionOf(run, 'codex')}.jsonl`), '{}\n');
    const resumable = new Set(whole.map((r) => r.id));
    const core = await newCore(dataDir);
    const client = await core.connect();
    const listed = await listSettled(client);
    const expected = written.filter((r) => r !== damaged).reverse();
    expect(listed.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(listed.map((r) => r.name)).toEqual(expected.map((r) => r.name));
    expect(new Set(listed.map((r) => `${r.agentCount} ${r.liveAgents} ${r.vendors.join(',')}`))).toEqual(
      new Set(['4 0 claude,codex,shell']),
    );
    // The Claude and Codex sessions were confirmed once and, but for those two runs', no vendor store here has them: a
    // resume would start fresh.
    expect(listed.map((r) => r.health)).toEqual(expected.map((r) => (resumable.has(r.id) ? 'resumable' : 'stale')));
    // The history's own list (the page asks it without the agents' states) holds the same runs with every other field.
    expect(listed.every((r) => r.states?.length === 4)).toBe(true);
    const rows = await client.call('run.list', { states: false });
    expect(rows).toEqual(listed.map((r) => withoutStates(r)));

    // A directory removed outside Baton: a run that changes since is checked again at its new version.
    rmSync(dirs[2]!, { recursive: true });
    const moved = expected.find((r) => r.agents[0]!.cwd === dirs[2])!;
    await client.call('run.rename', { run: moved.id, name: 'renamed after its directory went' });
    const after = await listSettled(client);
    expect(after[0]).toMatchObject({ id: moved.id, name: 'renamed after its directory went', health: 'missing' });
    const filtered = await client.call('run.list', { query: 'history 0042' });
    expect(filtered.map((r) => r.id)).toEqual([written[42]!.id]);
    client.close();

    // The answers are kept for the next core; a damaged copy is ignored, and written again from fresh checks.
    const healthFile = join(dataDir, 'run-health.json');
    await waitFor(() => readFileSync(healthFile, 'utf8').includes(moved.id), 'the health answers to be saved');
    await stopCore(core);
    writeFileSync(healthFile, '{"v":1,"runs":{"run_');
    const next = await newCore(dataDir);
    const again = await next.connect();
    const relisted = await listSettled(again);
    // Checked afresh: every run in the removed directory is now `missing`, the others as before.
    const truth = (id: string) =>
      expected.find((r) => r.id === id)!.agents[0]!.cwd === dirs[2]
        ? 'missing'
        : resumable.has(id)
          ? 'resumable'
          : 'stale';
    expect(relisted.map((r) => [r.id, r.name, r.health])).toEqual(after.map((r) => [r.id, r.name, truth(r.id)]));
    expect(next.output()).toMatch(/ignoring .*run-health\.json/);
    await waitFor(async () => {
      const saved = await healthFileOf.read(healthFile);
      return saved.size === 299 && [...saved].every(([id, s]) => s.health === truth(id));
    }, 'the health answers to be written again');
    again.close();
  }, 120_000);
});

/**
 * The whole list once every run's health is in. A list of more than 200 runs waits 100 ms for checks: a run not checked
 * by then is given as `checking` (never a guess), and `run.changed` names it once its answer is in (runs/list-wait.ts).
 */
async function listSettled(client: RpcClient) {
  const announced = new Set<string>();
  const off = client.on('run.changed', ({ runId }) => announced.add(runId));
  try {
    const first = await client.call('run.list', {});
    const checking = first.filter((r) => r.health === 'checking').map((r) => r.id);
    if (checking.length === 0) return first;
    await waitFor(
      () => checking.every((id) => announced.has(id)),
      'run.changed for every run listed as checking',
      30_000,
    );
    // (A run's own change may have been announced before its check was in: listed again until none is checking.)
    let again = first;
    await waitFor(
      async () => !(again = await client.call('run.list', {})).some((r) => r.health === 'checking'),
      'every run checked',
      30_000,
    );
    return again;
  } finally {
    off();
  }
}

/** A summary as a list asked with `states: false` gives it. */
function withoutStates(run: RunSummary): RunSummary {
  const rest: RunSummary = { ...run };
  delete rest.states;
  return rest;
}
