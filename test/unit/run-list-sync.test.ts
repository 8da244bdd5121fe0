// The history list follows the core's events by listing only the runs they name (renderer/state/run-list-sync.ts;
// docs/performance.md "Idle and start"): with thousands of stored runs, a run that changed must not cost a list of all
// of them, and the list the page shows must still equal the core's own.
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN, MAX_NAMED, PAGE, mergeRuns, newestFirst } from '../../renderer/state/run-list-sync.js';
import { runsAfter } from '../../electron/core/runs/list-page.js';
import { useBaton } from '../../renderer/state/store.js';
import type { Method, Params, RunSummary } from '../../shared/contract.js';
import { fakeClient } from '../helpers/fake-client.js';

const id = (n: number) => `run_${String(n).padStart(16, '0')}`;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

function summary(n: number, minute: number, over: Partial<RunSummary> = {}): RunSummary {
  return {
    id: id(n),
    name: `run-${n}`,
    createdAt: at(0),
    updatedAt: at(minute),
    agentCount: 1,
    liveAgents: 0,
    vendors: ['shell'],
    lastSnapshotAt: null,
    health: 'resumable',
    needYou: 0,
    states: [],
    ...over,
  };
}

/** A core holding `runs`: answers run.list as the real one does (newest first, `runs` and `limit` narrowing it), and counts. */
function fakeCore(runs: Map<string, RunSummary>) {
  const lists: Params<'run.list'>[] = [];
  const list = (p: Params<'run.list'>) =>
    runsAfter([...runs.values()].sort(newestFirst), p.after)
      .filter((r) => !p.runs || p.runs.includes(r.id))
      .slice(0, p.limit ?? Infinity);
  const { client, fire } = fakeClient(async <M extends Method>(method: M, params: Params<M>) => {
    await Promise.resolve();
    if (method === 'host.info') return { version: 't', dataDir: '/d', vendors: [] } as never;
    if (method === 'run.get') throw new Error('not kept here');
    if (method !== 'run.list') throw new Error(`unexpected ${method}`);
    lists.push(params as Params<'run.list'>);
    return list(params as Params<'run.list'>) as never;
  });
  return { client, fire, lists, list: () => list({}) };
}

describe('mergeRuns', () => {
  const runs = [summary(3, 30), summary(2, 20), summary(1, 10)];

  it('puts a changed run where its new time places it, and keeps the rows that did not change', () => {
    const merged = mergeRuns(runs, new Set([id(1)]), [summary(1, 40, { lastSnapshotAt: at(40) })]);
    expect(merged.map((r) => r.id)).toEqual([id(1), id(3), id(2)]);
    expect(merged[1]).toBe(runs[0]);
    expect(merged[2]).toBe(runs[1]);
  });

  it('drops a run the core no longer has, and adds a new one in order', () => {
    const merged = mergeRuns(runs, new Set([id(2), id(4)]), [summary(4, 25)]);
    expect(merged.map((r) => r.id)).toEqual([id(3), id(4), id(1)]);
  });

  it('orders runs of the same time by id, as the core does', () => {
    const merged = mergeRuns([summary(5, 10), summary(7, 10)], new Set([id(6)]), [summary(6, 10)]);
    expect(merged.map((r) => r.id)).toEqual([id(5), id(6), id(7)]);
  });
});

describe('the first list of a large history', () => {
  it('shows the newest screenful first, then every run; a short history is one list', async () => {
    const held = new Map<string, RunSummary>();
    for (let n = 1; n <= 2000; n++) held.set(id(n), summary(n, n % 500));
    const core = fakeCore(held);
    useBaton.setState({ runs: [], runsLoaded: false });
    const seen: { count: number; loaded: boolean }[] = [];
    const stop = useBaton.subscribe((s) => seen.push({ count: s.runs.length, loaded: s.runsLoaded }));
    useBaton.getState().setConnection('connected', core.client);
    await useBaton.getState().refreshRuns();
    stop();
    // Then the rest in pages, each after the last run read.
    const last = core.list()[FIRST_SCREEN - 1]!;
    // Every ask leaves out the agents' states: the history shows none of them (shared/contract/requests.ts).
    expect(core.lists.slice(0, 3)).toEqual([
      { limit: FIRST_SCREEN, states: false },
      { limit: PAGE, after: { updatedAt: last.updatedAt, id: last.id }, states: false },
      { limit: PAGE, after: expect.anything(), states: false },
    ]);
    // The newest screenful was on screen, not yet marked whole, before every run was.
    expect(seen).toContainEqual({ count: FIRST_SCREEN, loaded: false });
    expect(useBaton.getState().runs).toEqual(core.list());
    expect(useBaton.getState().runsLoaded).toBe(true);

    const few = fakeCore(new Map([[id(1), summary(1, 1)]]));
    useBaton.setState({ runs: [], runsLoaded: false });
    useBaton.getState().setConnection('connected', few.client);
    await useBaton.getState().refreshRuns();
    expect(few.lists).toEqual([{ limit: FIRST_SCREEN, states: false }]);
    expect(useBaton.getState().runs).toEqual(few.list());
    expect(useBaton.getState().runsLoaded).toBe(true);
  });
});

describe('the whole list of a large history', () => {
  it('is shown in a task after the one its answer arrived in, so a click queued meanwhile is not held behind both', async () => {
    const held = new Map<string, RunSummary>();
    for (let n = 1; n <= 2000; n++) held.set(id(n), summary(n, n % 500));
    const core = fakeCore(held);
    // Stands for a task the page queued while the answer was read (a click, a frame, another answer).
    let queuedRan = false;
    const realCall = core.client.call.bind(core.client);
    core.client.call = (async (method: Method, params: never) => {
      const got = await realCall(method, params);
      const asked = params as Params<'run.list'>;
      if (method === 'run.list' && asked.after && (got as unknown[]).length < PAGE)
        setTimeout(() => (queuedRan = true), 0);
      return got;
    }) as typeof core.client.call;
    useBaton.setState({ runs: [], runsLoaded: false });
    let ranBeforeWhole: boolean | null = null;
    const stop = useBaton.subscribe((s) => {
      if (s.runs.length === 2000 && ranBeforeWhole === null) ranBeforeWhole = queuedRan;
    });
    useBaton.getState().setConnection('connected', core.client);
    await useBaton.getState().refreshRuns();
    stop();
    expect(ranBeforeWhole).toBe(true);
    expect(useBaton.getState().runs).toEqual(core.list());
  });
});

describe('the whole list read in pages', () => {
  it('gets every run once, in no answer larger than a page, though runs are deleted and updated between pages', async () => {
    const held = new Map<string, RunSummary>();
    for (let n = 1; n <= 3500; n++) held.set(id(n), summary(n, n));
    const core = fakeCore(held);
    const sizes: number[] = [];
    const realCall = core.client.call.bind(core.client);
    let pages = 0;
    core.client.call = (async (method: Method, params: never) => {
      const got = await realCall(method, params);
      if (method === 'run.list' && (params as Params<'run.list'>).after) {
        sizes.push((got as unknown[]).length);
        // Between two pages: a run already read is deleted (the rest shift up), one not yet read moves to the top.
        if (++pages === 1) {
          held.delete(id(3400));
          core.fire('run.changed', { runId: id(3400), deleted: true });
          held.set(id(10), summary(10, 5000));
          core.fire('run.changed', { runId: id(10) });
        }
      }
      return got;
    }) as typeof core.client.call;
    useBaton.setState({ runs: [], runsLoaded: false });
    useBaton.getState().setConnection('connected', core.client);
    await useBaton.getState().refreshRuns();
    await useBaton.getState().refreshRunsOf([id(1)]);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(PAGE);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(useBaton.getState().runs).toEqual(core.list());
  });
});

describe('the history list follows events', () => {
  it('lists every run once, then only the runs each event names, and shows what the core holds', async () => {
    const held = new Map<string, RunSummary>();
    for (let n = 1; n <= 2000; n++) held.set(id(n), summary(n, n % 500));
    const core = fakeCore(held);
    useBaton.getState().setConnection('connected', core.client);
    await useBaton.getState().refreshRuns();
    expect(useBaton.getState().runs).toEqual(core.list());
    const before = useBaton.getState().runs;
    core.lists.length = 0;

    // A periodic snapshot of ten runs, a run deleted, a new run, an agent that stopped, costs read late.
    for (let n = 1; n <= 10; n++) {
      held.set(id(n), summary(n, 600 + n, { lastSnapshotAt: at(600 + n) }));
      core.fire('run.changed', { runId: id(n) });
    }
    held.delete(id(20));
    core.fire('run.changed', { runId: id(20), deleted: true });
    held.set(id(3000), summary(3000, 700));
    core.fire('run.changed', { runId: id(3000) });
    held.set(id(30), summary(30, 30, { liveAgents: 0, health: 'stale' }));
    core.fire('agent.status', { runId: id(30), agentId: 'agt_1', status: 'exited', terminalId: null, exitCode: 0 });
    held.set(id(40), summary(40, 40, { cost: { tokens: null, usd: 1.5, partial: false } }));
    core.fire('cost.changed', { runIds: [id(40), id(41)] });
    await useBaton.getState().refreshRunsOf([id(41)]);

    expect(useBaton.getState().runs).toEqual(core.list());
    expect(core.lists.every((p) => p.runs !== undefined && p.states === false)).toBe(true);
    expect(core.lists.flatMap((p) => p.runs ?? []).length).toBeLessThanOrEqual(20);
    // A burst of events is one or two asks, not one per event.
    expect(core.lists.length).toBeLessThanOrEqual(3);
    // Rows no event named are the same objects: their memoized rows do not render again.
    const kept = useBaton.getState().runs.find((r) => r.id === id(1000));
    expect(kept).toBe(before.find((r) => r.id === id(1000)));
  });

  it('asks for the whole list when an event names more runs than one ask may carry', async () => {
    const held = new Map<string, RunSummary>();
    for (let n = 1; n <= 2000; n++) held.set(id(n), summary(n, n % 500));
    const core = fakeCore(held);
    useBaton.getState().setConnection('connected', core.client);
    await useBaton.getState().refreshRuns();
    core.lists.length = 0;
    const named: string[] = [];
    for (let n = 1; n <= MAX_NAMED + 1; n++) {
      held.set(id(n), summary(n, n % 500, { cost: { tokens: null, usd: n, partial: false } }));
      named.push(id(n));
    }
    core.fire('cost.changed', { runIds: named });
    await useBaton.getState().refreshRunsOf([id(1)]);
    expect(core.lists[0]?.runs).toBeUndefined();
    expect(core.lists.every((p) => (p.runs?.length ?? 0) <= MAX_NAMED)).toBe(true);
    expect(useBaton.getState().runs).toEqual(core.list());
  });
});
