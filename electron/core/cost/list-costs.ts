// The cost `run.list` carries (docs/cost.md), within a time budget: a run whose transcripts are cached is summed at
// once, but the first read of a large store (every transcript parsed once per core start) must not hold the list
// back. A run not summed within the budget is given the sum the last list gave it (none the first time), and one
// `cost.changed` event names the runs whose sum, once made, differs from what the list gave.
// - Only a change is announced: the page lists again on that event, so announcing runs that were merely late (10,000
//   runs on a loaded machine miss 300 ms at every list) made the page and the core list each other in a loop, a
//   fifth of a core with nothing happening (docs/performance.md "Idle and start").
// - A stopped run's sum is kept for the manifest version it was made at and given as is; after `RESUM_MS` a list
//   still gives it and has the run summed again in the background (a change is announced). Summing reads each
//   session's transcript in its vendor's store: 10,000 stopped runs were 20,000 store lookups at every list. A run
//   with an agent starting or running is summed at every list.
// - Runs are summed in slices with a turn of the event loop between them. With the vendor stores' indexes in memory
//   a stopped run's sum needs no I/O, so 10,000 of them summed together ran as one long microtask chain that the
//   budget's timer could not interrupt: the list waited for all of them (0.5–1.4 s on the bench's history).
// - The stopped runs' sums are saved for the next core (cost-file.ts): its first list answers from them, and they are
//   summed again in the background by the first list `RESUM_SAVED_AFTER_MS` after open.
// - At open, the stopped runs without a saved sum (a first start, a lost or damaged file, runs changed while no core
//   ran) are summed in the background at once, newest first, as health is checked (runs/run-health.ts): with nothing
//   saved, the first whole list of 10,000 runs waited up to its budget for 10,000 sums it could have found made
//   (docs/performance.md "First history list after open"). A list that comes meanwhile waits for that pass within its
//   budget, and a run it gave without a sum is announced once summed, as a late run of its own pass is.
import type { CostTotal } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import { SessionIndexes } from '../vendors/session-indexes.js';
import type { CostService, RunTotals } from './cost-service.js';
import { DelayedSave } from '../store/delayed-save.js';
import { costFile, type SavedCost } from './cost-file.js';
import { settleWithin } from '../settle-within.js';

/** How long run.list waits for its runs' costs. */
export const RUN_LIST_COST_BUDGET_MS = 300;
/** How long a stopped run's sum is given without summing it again. */
export const RESUM_MS = 60_000;
/** Saved sums count as fresh this long after open: the first lists are answered from them undisturbed. */
export const RESUM_SAVED_AFTER_MS = 5000;
/** Runs summed between two turns of the event loop. */
const SLICE = 64;
/** The saved sums are written this long after the last new one (a cache: one write per burst of sums). */
const SAVE_AFTER_MS = 2000;

/** `stoppedTotals` is optional: a summer without it sums every run with `totalsOnce` (tests). */
type Summer = Pick<CostService, 'totalsOnce'> & Partial<Pick<CostService, 'stoppedTotals'>>;

interface Given {
  /** null: the run has no cost to show. */
  total: CostTotal | null;
  updatedAt: string;
  at: number;
  /** Summed while no agent of it was live: kept for its version, and saved. */
  stopped: boolean;
}

/**
 * A pass's slice of runs. `split` settles once the slice's runs that need no read are summed and the others started;
 * those others' sums are then in `reading`, so a list waits for its own runs of the slice, not for the slow ones beside
 * them (one promise per slice, not per run: 10,000 promises and a Promise.all over them were a tenth of a first list).
 */
interface Slice {
  runs: readonly RunManifest[];
  split: Promise<void>;
  reading: Map<string, Promise<void>>;
}

interface Queued {
  updatedAt: string;
  slice: Slice;
}

/** Field by field (two JSON.stringify per run were a tenth of a warm-up's sums once a list had answered). */
const same = (a: CostTotal | null | undefined, b: CostTotal | null | undefined) =>
  a && b
    ? a.tokens === b.tokens && a.usd === b.usd && a.partial === b.partial && a.usdPartial === b.usdPartial
    : (a ?? null) === (b ?? null);
const isLive = (run: RunManifest) => run.agents.some((a) => a.status === 'running' || a.status === 'starting');
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The sums run.list gives, per run: what the lists of one cost service gave, and what is being summed now. */
export class ListCosts {
  private readonly given = new Map<string, Given>();
  /**
   * Stopped runs queued or being summed by a pass, at the version queued, and when their sum is made: a list meanwhile
   * does not sum them twice, and waits (within its budget) for those it gives, not for the whole pass.
   */
  private readonly queued = new Map<string, Queued>();
  /**
   * Per run, the sum the last list gave it (null: none). A late sum is announced only when it differs from this: a
   * run no list gave yet is no client's to update. (Announcing every sum made after any list had answered named
   * 9,000 runs after a first history read in pages, whose later pages had given those very sums, and the page then
   * read its whole history a second time.)
   */
  private readonly shown = new Map<string, CostTotal | null>();
  private warming: Promise<void> | null = null;
  private readonly saves = new DelayedSave(() => this.save(), SAVE_AFTER_MS, "the runs' costs");
  private passes = new Set<Promise<void>>();
  /** The passes in flight, by whether a list answered while they ran (from then on, a changed sum is announced). */
  private readonly unanswered = new Set<{ yet: boolean }>();

  constructor(
    private readonly service: Summer,
    /** Where the stopped runs' sums are kept for the next core; null: nowhere. */
    private readonly file: string | null = null,
  ) {}

  /**
   * At open: takes the sums the last core saved for `runs`, at the run versions they were made at, and sums the other
   * stopped runs in the background; `late` is told the runs a list gave before their sum was made, once it is.
   */
  warm(runs: readonly RunManifest[], late: (runIds: string[]) => void = () => undefined): void {
    if (!this.file || this.warming) return;
    const file = this.file;
    this.warming = (async () => {
      const saved = await costFile.read(file);
      // Taken as summed a little before now: lists answer from them at once, and the first list after
      // RESUM_SAVED_AFTER_MS has them summed again in the background.
      const at = Date.now() - RESUM_MS + RESUM_SAVED_AFTER_MS;
      const unsaved: RunManifest[] = [];
      for (const run of runs) {
        const s = saved.get(run.id);
        if (this.given.has(run.id)) continue;
        if (s && s.updatedAt === run.updatedAt) this.given.set(run.id, { ...s, at, stopped: true });
        else if (!isLive(run)) unsaved.push(run);
      }
      // Not awaited: the first list waits for the file, then for this pass only within its budget.
      this.pass(unsaved, { yet: false }, late).catch(() => undefined);
    })().catch(() => undefined);
  }

  /** A deleted run's sum is dropped. */
  forget(runId: string): void {
    this.given.delete(runId);
    this.shown.delete(runId);
  }

  /**
   * Per run id, its sum: kept (a stopped run summed lately), made within `budgetMs`, or else the last one given;
   * `late` is told the runs whose sum, made after the list answered, changed.
   */
  async of(
    runs: readonly RunManifest[],
    late: (runIds: string[]) => void,
    budgetMs = RUN_LIST_COST_BUDGET_MS,
  ): Promise<Map<string, CostTotal>> {
    const started = Date.now();
    if (this.warming) {
      await this.warming;
      this.warming = null;
    }
    const now = Date.now();
    const due: RunManifest[] = [];
    const old: RunManifest[] = [];
    /** Per slice of a pass before this list (the warm-up's), this list's runs in it: it waits for them too. */
    const behind = new Map<Slice, string[]>();
    for (const run of runs) {
      const known = this.given.get(run.id);
      const live = isLive(run);
      const queued = this.queued.get(run.id);
      if (!live && queued?.updatedAt === run.updatedAt) {
        const ids = behind.get(queued.slice);
        if (ids) ids.push(run.id);
        else behind.set(queued.slice, [run.id]);
        continue;
      }
      if (!known || known.updatedAt !== run.updatedAt || live || !known.stopped) due.push(run);
      else if (now - known.at > RESUM_MS) old.push(run);
    }
    const answered = { yet: false };
    const pass = this.pass(due, answered, late);
    const waits = [...behind].map(([slice, ids]) =>
      slice.split.then(() => Promise.all(ids.map((id) => slice.reading.get(id)))),
    );
    const summed = waits.length > 0 ? Promise.all([pass, ...waits]) : pass;
    await settleWithin(summed, budgetMs - (Date.now() - started));
    answered.yet = true;
    // Sums made from now on by any pass are announced when they differ from what this list gives.
    for (const other of this.unanswered) other.yet = true;
    // A stopped run summed lately is summed again behind this list, which gives the sum it has.
    if (old.length > 0) this.pass(old, { yet: true }, late).catch(() => undefined);
    const out = new Map<string, CostTotal>();
    for (const run of runs) {
      const total = this.given.get(run.id)?.total;
      if (total) out.set(run.id, total);
      this.shown.set(run.id, total ?? null);
    }
    return out;
  }

  /** Finished when every pass started so far has (for tests and the bench). */
  async settled(): Promise<void> {
    while (this.passes.size > 0) await Promise.all(this.passes);
  }

  /**
   * Sums `runs` in slices, newest first as the list has them; `answered.yet` once the list has answered: from then on
   * the runs whose sum differs from what a list gave them are collected and told to `late` when the pass ends.
   */
  private pass(runs: readonly RunManifest[], answered: { yet: boolean }, late: (runIds: string[]) => void) {
    if (runs.length === 0) return Promise.resolve();
    const slices: (Slice & { splitNow: () => void })[] = [];
    for (let i = 0; i < runs.length; i += SLICE) {
      let splitNow = (): void => undefined;
      const split = new Promise<void>((resolve) => (splitNow = resolve));
      slices.push({ runs: runs.slice(i, i + SLICE), split, reading: new Map(), splitNow });
    }
    for (const slice of slices)
      for (const run of slice.runs) if (!isLive(run)) this.queued.set(run.id, { updatedAt: run.updatedAt, slice });
    const unqueue = (run: RunManifest) => {
      if (this.queued.get(run.id)?.updatedAt === run.updatedAt) this.queued.delete(run.id);
    };
    this.unanswered.add(answered);
    const changed: string[] = [];
    // Every vendor store is read once for this pass's sums (vendors/session-indexes.ts), not once per session.
    const indexes = new SessionIndexes();
    const given = (run: RunManifest, total: CostTotal | null) => {
      this.given.set(run.id, { total, updatedAt: run.updatedAt, at: Date.now(), stopped: !isLive(run) });
      const shown = this.shown.get(run.id);
      if (answered.yet && shown !== undefined && !same(total, shown)) changed.push(run.id);
    };
    const sumOne = async (run: RunManifest) => {
      // A cost that cannot be read is left out: the list never fails for it.
      const total = await this.service.totalsOnce(run, indexes).then(
        (t) => t.total,
        () => null,
      );
      given(run, total);
    };
    const sumSlice = async (slice: (typeof slices)[number]) => {
      // The runs that need no read are summed together (most of a long history); the others one by one.
      const quick = this.service.stoppedTotals
        ? await this.service.stoppedTotals(slice.runs, indexes).catch(() => new Map<string, RunTotals>())
        : new Map<string, RunTotals>();
      for (const run of slice.runs) {
        const made = quick.get(run.id);
        if (made) {
          given(run, made.total);
          unqueue(run);
        } else
          slice.reading.set(
            run.id,
            sumOne(run).finally(() => unqueue(run)),
          );
      }
      slice.splitNow();
      await Promise.all(slice.reading.values());
    };
    const pass = (async () => {
      try {
        for (let i = 0; i < slices.length; i++) {
          if (i > 0) await nextTurn();
          await sumSlice(slices[i]!);
        }
      } finally {
        for (const slice of slices) {
          for (const run of slice.runs) unqueue(run);
          slice.splitNow();
        }
        this.unanswered.delete(answered);
      }
      if (changed.length > 0) late(changed);
      if (this.file) this.saves.soon();
    })();
    this.passes.add(pass);
    pass.then(
      () => this.passes.delete(pass),
      () => this.passes.delete(pass),
    );
    return pass;
  }

  /** Writes the sums now if a write is due (at shutdown; tests). */
  flush(): Promise<void> {
    return this.saves.flush();
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    const runs = new Map<string, SavedCost>();
    for (const [id, g] of this.given) if (g.stopped) runs.set(id, { updatedAt: g.updatedAt, total: g.total });
    await costFile.write(this.file, runs);
  }
}

/** The lists of each cost service without a file of its own (tests; a core uses one ListCosts). */
const byService = new WeakMap<Summer, ListCosts>();

/** `ListCosts.of` for `service`, sharing what its earlier lists gave. */
export function listCosts(
  service: Summer,
  runs: readonly RunManifest[],
  late: (runIds: string[]) => void,
  budgetMs = RUN_LIST_COST_BUDGET_MS,
): Promise<Map<string, CostTotal>> {
  let lists = byService.get(service);
  if (!lists) byService.set(service, (lists = new ListCosts(service)));
  return lists.of(runs, late, budgetMs);
}
