// The health of stopped runs for `run.list` (docs/architecture.md §1 health; docs/performance.md "Core"). Checking it
// reads the outside world (each agent's directory, each confirmed session in its vendor's store): for a history of
// 10,000 runs that is tens of thousands of file-system calls, seconds of work that must not sit in front of every
// list. So each stopped run's answer is kept with the `updatedAt` it was checked at:
// - a run that changed since (or was never checked) is checked before the list answers;
// - an answer older than `RECHECK_MS` is still given, and checked again in the background for the next list (a
//   directory deleted outside Baton shows within a list or two; a resume always checks everything again itself);
// - at open (`warm`), the answers the last core saved (health-file.ts) are taken for the run versions they were
//   checked at, and the runs without one are checked in the background: the first list answers from the saved
//   answers, waits only for runs that have none, and a list a few seconds later has the saved ones checked again.
// A run with a live agent is `live` without any check.
// A list waits for checks at most `waitMs` (its caller's budget): a run whose answer is still to come then is given
// as `checking`, and `changed` is told its id once the answer is in (the core announces `run.changed`, and the page
// lists that run again). With nothing saved, the first whole list of 10,000 runs waited for all of them (0.3–1.5 s).
// A list without a budget (a page's first screen, the runs an event named) does not wait for the warm-up's other
// runs: it checks its own at once, sharing the answers the warm-up has in flight (docs/performance.md "First history
// list after open"). Every list waits for the saved answers to be read (one file).
import type { RunSummary } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import { HealthBatch } from './health-batch.js';
import { DelayedSave } from '../store/delayed-save.js';
import { healthFile, type SavedHealth } from './health-file.js';
import { settleWithin } from '../settle-within.js';

export type Health = RunSummary['health'];
/** `batch`: what the runs checked together share (directory answers, vendor store indexes; health-batch.ts). */
export type HealthCheck = (run: RunManifest, batch: HealthBatch) => Promise<Health>;

/** How old an answer may be before a list has it checked again in the background. */
export const RECHECK_MS = 60_000;
/** Checks running at once for a list that waits on them: enough to overlap the file system's latency. */
const CONCURRENCY = 16;
/** In the background fewer, so requests that come meanwhile (the first list) are not queued behind them. */
const BACKGROUND_CONCURRENCY = 4;
/** Saved answers count as fresh this long after open: the first lists are answered from them undisturbed. */
const RECHECK_SAVED_AFTER_MS = 5000;
/** The saved answers are written this long after the last new one (a cache: one write per burst of checks). */
const SAVE_AFTER_MS = 2000;

interface Known {
  updatedAt: string;
  checkedAt: number;
  answer: Promise<Health>;
  /** The answer once it is in. */
  health?: Health;
}

export class RunHealth {
  private readonly known = new Map<string, Known>();
  private background: Promise<void> | null = null;
  /** The check of every run at open: a list that comes meanwhile waits for it rather than checking them twice. */
  private warming: Promise<void> | null = null;
  /** The saved answers taken (or none found): every list waits for this, whatever its budget. */
  private loaded: Promise<void> | null = null;

  private file: string | null = null;
  private readonly saves = new DelayedSave(() => this.save(), SAVE_AFTER_MS, "the runs' health");

  /** Runs the warm-up will check, at the version it will check (it has not reached them yet). */
  private readonly warmQueue = new Map<string, string>();
  /** Runs a list gave as `checking`: `changed` is told each once its answer is in. */
  private readonly owed = new Set<string>();

  constructor(
    private readonly check: HealthCheck,
    /** Told a run whose answer came after a list gave it as `checking`. */
    private readonly changed: (runId: string) => void = () => undefined,
  ) {}

  /**
   * Each run's health, in the order given: within `waitMs`, or `checking` for a run whose first answer at its
   * version is not in by then (`changed` is told when it is).
   */
  async of(runs: readonly RunManifest[], isLive: (agentId: string) => boolean, waitMs = Infinity): Promise<Health[]> {
    const deadline = Date.now() + waitMs;
    const budgeted = waitMs !== Infinity;
    if (this.loaded) await this.loaded;
    if (this.warming && budgeted) await within(this.warming, deadline);
    const now = Date.now();
    const due: RunManifest[] = [];
    const old: RunManifest[] = [];
    /** Answers of this list's runs being checked now (by the warm-up, say): waited for as its own checks are. */
    const inFlight: Promise<Health>[] = [];
    // Asked once per run, not again for the answer below: a whole list asks it of 40,000 agents.
    const live = runs.map((run) => run.agents.some((a) => isLive(a.id)));
    for (const [i, run] of runs.entries()) {
      if (live[i]) continue;
      const known = this.known.get(run.id);
      // A long list leaves it to the warm-up still running, which will reach it: not checked twice. A list without
      // a budget checks it now (the warm-up then shares that answer).
      if (!known && budgeted && this.warmQueue.get(run.id) === run.updatedAt) continue;
      if (!known || known.updatedAt !== run.updatedAt) due.push(run);
      else if (known.health === undefined) inFlight.push(known.answer);
      else if (now - known.checkedAt > RECHECK_MS) old.push(run);
    }
    if (due.length > 0 || inFlight.length > 0) await within(Promise.all([this.checkAll(due), ...inFlight]), deadline);
    // While background checks run (the warm-up's, say), they will reach these too.
    if (old.length > 0 && !this.background) this.inBackground(old).catch(() => undefined);
    // The answers in, read as they are: 10,000 awaited promises were a whole list's slowest part once checked.
    return runs.map((run, i) => {
      if (live[i]) return 'live';
      const health = this.known.get(run.id)?.health;
      if (health !== undefined) return health;
      this.owed.add(run.id);
      return 'checking';
    });
  }

  /**
   * At open: takes the answers saved in `file` for the run versions they were checked at, and checks the other runs
   * in the background. A list that comes meanwhile waits only for those.
   */
  warm(runs: readonly RunManifest[], file: string | null = null): void {
    this.file = file;
    let loaded = (): void => undefined;
    this.loaded = new Promise<void>((resolve) => (loaded = resolve));
    const warming = (async () => {
      const saved = file ? await healthFile.read(file) : new Map<string, SavedHealth>();
      const savedAsOf = Date.now() - RECHECK_MS + RECHECK_SAVED_AFTER_MS;
      const unknown: RunManifest[] = [];
      for (const run of runs) {
        const s = saved.get(run.id);
        if (this.known.has(run.id)) continue;
        // Taken as checked a little before now: lists answer from it at once, and the first list after
        // RECHECK_SAVED_AFTER_MS has it checked again in the background.
        if (s && s.updatedAt === run.updatedAt)
          this.known.set(run.id, { ...s, checkedAt: savedAsOf, answer: Promise.resolve(s.health) });
        else {
          unknown.push(run);
          this.warmQueue.set(run.id, run.updatedAt);
        }
      }
      loaded();
      await this.inBackground(unknown, CONCURRENCY);
    })()
      .catch(() => undefined)
      .finally(() => {
        loaded();
        this.warmQueue.clear();
      });
    this.warming = warming;
    warming.then(
      () => {
        if (this.warming === warming) this.warming = null;
      },
      () => undefined,
    );
  }

  /** A deleted run's answer is dropped. */
  forget(runId: string): void {
    this.known.delete(runId);
    this.owed.delete(runId);
  }

  /** Finished when every background check started so far has (for tests and the bench). */
  async settled(): Promise<void> {
    while (this.background) await this.background;
  }

  /** Queues a check of `runs` behind the background checks before it; the promise never rejects. */
  private inBackground(runs: readonly RunManifest[], concurrency = BACKGROUND_CONCURRENCY): Promise<void> {
    const previous = this.background ?? Promise.resolve();
    // Each check catches its own failure (checkAll); this catch only keeps a rejection from going unhandled.
    const next = previous.then(() => this.checkAll(runs, concurrency)).catch(() => undefined);
    this.background = next;
    next.then(
      () => {
        if (this.background === next) this.background = null;
      },
      () => undefined,
    );
    return next;
  }

  /** Checks `runs`, at most `concurrency` at once (each check's file-system calls let other work run in between). */
  private async checkAll(runs: readonly RunManifest[], concurrency = CONCURRENCY): Promise<void> {
    const batch = new HealthBatch();
    let next = 0;
    const worker = async () => {
      while (next < runs.length) {
        const run = runs[next++]!;
        const current = this.known.get(run.id);
        const sameVersion = current !== undefined && current.updatedAt === run.updatedAt;
        // Checked (or being checked) at this very version a moment ago, by the warm-up say: share that answer.
        if (sameVersion && Date.now() - current.checkedAt <= RECHECK_MS) {
          await current.answer;
          continue;
        }
        // A check that fails (a vendor store that cannot be read) says nothing against the run.
        const answer = this.check(run, batch).catch((): Health => 'resumable');
        const entry: Known = { updatedAt: run.updatedAt, checkedAt: Date.now(), answer };
        answer.then(
          (health) => this.answered(run.id, entry, health),
          () => undefined,
        );
        // Nothing valid to give meanwhile: lists wait for this check. Otherwise the old answer serves until it is done.
        if (!sameVersion) this.known.set(run.id, entry);
        await answer;
        if (sameVersion) this.known.set(run.id, entry);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, runs.length) }, worker));
  }

  /** Writes the answers now if a write is due: at shutdown, so the next core finds what this one learned. */
  flush(): Promise<void> {
    return this.saves.flush();
  }

  private answered(runId: string, entry: Known, health: Health): void {
    entry.health = health;
    if (this.warmQueue.get(runId) === entry.updatedAt) this.warmQueue.delete(runId);
    // Told once the answer a list gave as `checking` is the run's current one (a newer version's check follows).
    if (this.owed.has(runId) && this.known.get(runId)?.updatedAt === entry.updatedAt) {
      this.owed.delete(runId);
      this.changed(runId);
    }
    if (this.file) this.saves.soon();
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    const runs = new Map<string, SavedHealth>();
    for (const [id, k] of this.known)
      if (k.health && k.health !== 'live' && k.health !== 'checking')
        runs.set(id, { updatedAt: k.updatedAt, health: k.health, checkedAt: k.checkedAt });
    await healthFile.write(this.file, runs);
  }
}

/** Settles when `work` does or at `deadline` (ms since the epoch), whichever is first; `work` goes on either way. */
const within = (work: Promise<unknown>, deadline: number) => settleWithin(work, deadline - Date.now());
