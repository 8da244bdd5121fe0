// The page's copy of the run list, kept in step with the core (docs/performance.md "Idle and start"). The whole list
// is asked for at connection, its newest screenful first, then in pages (and when the page asks for it); an event that names runs (`run.changed`,
// `agent.status`, `cost.changed`) asks `run.list` for those runs alone and puts them in place: with 10,000 stored
// runs, listing them all for each event was most of an idle page's and core's work. One ask at a time, in order, so
// an older answer never overwrites a newer one; asks made meanwhile are merged into the next.
import type { BatonClient } from '../../shared/client.js';
import type { RunSummary } from '../../shared/contract.js';
import { FIRST_SCREEN, HISTORY_ROWS } from './first-screen.js';

/**
 * Beyond this many runs named at once (the costs of a first list of 10,000 runs, read late), the whole list is asked
 * for: `run.list` takes at most 1,000 ids, and a list of most runs is no dearer whole.
 */
export const MAX_NAMED = 500;

/** The core's order (store/manifest.ts `newestFirst`): newest `updatedAt` first, then by id. */
export function newestFirst(a: RunSummary, b: RunSummary): number {
  const ta = Date.parse(a.updatedAt);
  const tb = Date.parse(b.updatedAt);
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return tb - ta;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * `runs` (in the core's order) with the runs `asked` for replaced by what the core answered (`got`): an asked run
 * missing from the answer was deleted. Rows not asked for keep their objects, so their memoized rows do not render.
 */
export function mergeRuns(runs: readonly RunSummary[], asked: ReadonlySet<string>, got: readonly RunSummary[]) {
  const out = runs.filter((r) => !asked.has(r.id));
  for (const run of got) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newestFirst(out[mid]!, run) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, run);
  }
  return out;
}

/**
 * The first list of a page asks for the newest this many runs first and shows them, then for the whole list: with
 * 10,000 stored runs the whole answer takes the core and the page hundreds of milliseconds more to make and read.
 */
export { FIRST_SCREEN, HISTORY_ROWS } from './first-screen.js';

/**
 * The whole list is read in pages of this many runs, each after the last run of the one before: 10,000 runs as one
 * answer were one task of hundreds of milliseconds in the page (reading and checking it), and a click waited behind it.
 */
export const PAGE = 1000;

/**
 * Every run, in pages, after the runs already read (`from`, the newest first). A run that changes while the pages come
 * may be read twice (kept once) or missed; its change is an event that names it, merged after this list.
 */
async function wholeList(c: BatonClient, from: readonly RunSummary[]): Promise<RunSummary[]> {
  const all = [...from];
  const seen = new Set(all.map((r) => r.id));
  let last = all.at(-1);
  for (;;) {
    const page = await c.call('run.list', {
      ...HISTORY_ROWS,
      limit: PAGE,
      ...(last ? { after: { updatedAt: last.updatedAt, id: last.id } } : {}),
    });
    for (const run of page) if (!seen.has(run.id)) (seen.add(run.id), all.push(run));
    if (page.length < PAGE) return all;
    last = page.at(-1);
  }
}

/** Resolves in a new task, after whatever the page queued meanwhile (input, a frame, other answers). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface RunListDeps {
  client(): BatonClient | null;
  runs(): { runs: readonly RunSummary[]; loaded: boolean };
  /** The new list, holding every run. */
  setRuns(runs: RunSummary[]): void;
  /** The newest runs, shown while the whole list is still to come (it is not `loaded` yet). */
  setFirstRuns(runs: RunSummary[]): void;
  /** The reply to a first list this client's page asked for before its script had loaded (api/early-socket.ts), once. */
  earlyFirstList?(client: BatonClient): Promise<RunSummary[]> | undefined;
}

export interface RunListSync {
  /** Lists every run; resolves once a list asked after this call is in. */
  all(): Promise<void>;
  /** Lists these runs again (they changed, or were deleted); resolves once they are in. */
  some(runIds: readonly string[]): Promise<void>;
}

export function runListSync(deps: RunListDeps): RunListSync {
  let wantAll = false;
  const wanted = new Set<string>();
  let running: Promise<void> | null = null;
  /** Callers waiting for the next round: settled by it, with its error if it failed. */
  let waiters: { resolve(): void; reject(err: unknown): void }[] = [];

  const once = async (): Promise<void> => {
    const c = deps.client();
    if (!c) {
      wantAll = false;
      wanted.clear();
      return;
    }
    // Before the first whole list there is nothing to merge into: these runs come with it.
    if (wantAll || wanted.size > MAX_NAMED || !deps.runs().loaded) {
      const first = !deps.runs().loaded && deps.runs().runs.length === 0;
      wantAll = false;
      wanted.clear();
      let newest: RunSummary[] = [];
      if (first) {
        newest = await (deps.earlyFirstList?.(c) ?? c.call('run.list', { limit: FIRST_SCREEN, ...HISTORY_ROWS }));
        if (newest.length < FIRST_SCREEN) return deps.setRuns(newest);
        deps.setFirstRuns(newest);
      }
      const all = await wholeList(c, newest);
      // A large list is shown in a task of its own: reading the answer (10,000 runs checked against their schema)
      // and rendering the history from it were one task of hundreds of milliseconds, and a switch of runs made
      // meanwhile waited behind both (docs/performance.md, "Switching runs").
      if (all.length > FIRST_SCREEN) await nextTask();
      deps.setRuns(all);
      return;
    }
    const asked = new Set(wanted);
    wanted.clear();
    const got = await c.call('run.list', { runs: [...asked], ...HISTORY_ROWS });
    deps.setRuns(mergeRuns(deps.runs().runs, asked, got));
  };

  const drain = async (): Promise<void> => {
    while (wantAll || wanted.size > 0) {
      const round = waiters;
      waiters = [];
      await once().then(
        () => round.forEach((w) => w.resolve()),
        (err: unknown) => round.forEach((w) => w.reject(err)),
      );
    }
    running = null;
  };

  const ask = (): Promise<void> => {
    const settled = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    running ??= drain();
    return settled;
  };

  return {
    all() {
      wantAll = true;
      return ask();
    },
    some(runIds) {
      if (runIds.length === 0) return Promise.resolve();
      for (const id of runIds) wanted.add(id);
      return ask();
    },
  };
}
