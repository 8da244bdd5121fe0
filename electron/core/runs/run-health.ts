// The health of stopped runs for `run.list` (docs/architecture.md §1 health; docs/performance.md "Core"). Checking it
// reads the outside world (each agent's directory, each confirmed session in its vendor's store): for a history of
// 10,000 runs that is tens of thousands of file-system calls, seconds of work that must not sit in front of every
// list. So each stopped run's answer is kept with the `updatedAt` it was checked at:
// - a run that changed since (or was never checked) is checked before the list answers;
// - an answer older than `RECHECK_MS` is still given, and checked again in the background for the next list (a
//   directory deleted outside Baton shows within a list or two; a resume always checks everything again itself);
// - at open, every run is checked in the background (`warm`), so the first list finds the answers ready.
// A run with a live agent is `live` without any check.
import type { RunSummary } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';

export type Health = RunSummary['health'];
/** Answers the same path once within one batch of checks: most runs of a history share a few directories. */
export type DirectoryMemo = Map<string, Promise<boolean>>;
export type HealthCheck = (run: RunManifest, dirs: DirectoryMemo) => Promise<Health>;

/** How old an answer may be before a list has it checked again in the background. */
export const RECHECK_MS = 60_000;
/** Checks running at once: enough to overlap the file system's latency, few enough to leave the core responsive. */
const CONCURRENCY = 16;

interface Known {
  updatedAt: string;
  checkedAt: number;
  answer: Promise<Health>;
}

export class RunHealth {
  private readonly known = new Map<string, Known>();
  private background: Promise<void> | null = null;
  /** The check of every run at open: a list that comes meanwhile waits for it rather than checking them twice. */
  private warming: Promise<void> | null = null;

  constructor(private readonly check: HealthCheck) {}

  /** Each run's health, in the order given. */
  async of(runs: readonly RunManifest[], isLive: (agentId: string) => boolean): Promise<Health[]> {
    if (this.warming) await this.warming;
    const now = Date.now();
    const due: RunManifest[] = [];
    const old: RunManifest[] = [];
    for (const run of runs) {
      if (run.agents.some((a) => isLive(a.id))) continue;
      const known = this.known.get(run.id);
      if (!known || known.updatedAt !== run.updatedAt) due.push(run);
      else if (now - known.checkedAt > RECHECK_MS) old.push(run);
    }
    if (due.length > 0) await this.checkAll(due);
    if (old.length > 0) this.inBackground(old).catch(() => undefined);
    return Promise.all(
      runs.map((run) =>
        run.agents.some((a) => isLive(a.id)) ? Promise.resolve<Health>('live') : this.known.get(run.id)!.answer,
      ),
    );
  }

  /** Checks every run in the background (at open): the first list then finds them answered. */
  warm(runs: readonly RunManifest[]): void {
    const warming = this.inBackground(runs.filter((r) => !this.known.has(r.id)));
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
  }

  /** Finished when every background check started so far has (for tests and the bench). */
  async settled(): Promise<void> {
    while (this.background) await this.background;
  }

  /** Queues a check of `runs` behind the background checks before it; the promise never rejects. */
  private inBackground(runs: readonly RunManifest[]): Promise<void> {
    const previous = this.background ?? Promise.resolve();
    // Each check catches its own failure (checkAll); this catch only keeps a rejection from going unhandled.
    const next = previous.then(() => this.checkAll(runs)).catch(() => undefined);
    this.background = next;
    next.then(
      () => {
        if (this.background === next) this.background = null;
      },
      () => undefined,
    );
    return next;
  }

  /** Checks `runs`, at most CONCURRENCY at once (each check's file-system calls let other work run in between). */
  private async checkAll(runs: readonly RunManifest[]): Promise<void> {
    const dirs: DirectoryMemo = new Map();
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
        const answer = this.check(run, dirs).catch((): Health => 'resumable');
        const entry: Known = { updatedAt: run.updatedAt, checkedAt: Date.now(), answer };
        // Nothing valid to give meanwhile: lists wait for this check. Otherwise the old answer serves until it is done.
        if (!sameVersion) this.known.set(run.id, entry);
        await answer;
        if (sameVersion) this.known.set(run.id, entry);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, runs.length) }, worker));
  }
}
