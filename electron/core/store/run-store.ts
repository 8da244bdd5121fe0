// The run store: plain files under <dataDir>/runs, with an in-memory index derived from them at open, so
// reopening after a crash (or deleting nothing but the process) gives the same runs. While running, the index is
// the truth: a write the disk refuses (full, say) leaves the change in memory, reported once, written later.
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BatonError, describeIssue, runEventSchema } from '../../../shared/contract.js';
import { RUN_ID, SNAPSHOT_ID } from '../../../shared/words.js';
import { fsyncDir, isErrno, tempPathFor, writeDirAtomic, writeFileAtomic } from './atomic-file.js';
import { checkDataDir } from './data-dir.js';
import { appendJsonLines, readJsonLines } from './jsonl.js';
import { MANIFEST, manifestText, runManifestSchema, sortedNewestFirst } from './manifest.js';
import { PendingWrites, type WriteProblem } from './pending-writes.js';
import { INDEX_FILE } from './manifest-index.js';
import { loadRuns, SCREENS, sweepLeftovers, writeNewRun } from './run-dirs.js';
import { directoryState, errnoCode } from './safe-read.js';
import { SerialQueues } from './serial-queues.js';
import { SummaryIndex } from './summary-index.js';
import { pruneSnapshots, readSnapshotDir, snapshotFiles } from './snapshot-files.js';
import type { RunEvent, RunManifest, SnapshotView, StoredScreen } from './types.js';
import { isFileSystemError, saveFailure } from './write-errors.js';

export { SCREEN_MAX_BYTES, SNAPSHOTS_KEPT, keepTail } from './snapshot-files.js';
export { runManifestSchema } from './manifest.js';
export type { WriteProblem } from './pending-writes.js';

const EVENTS = 'events.jsonl';
/** Far above a real history; a larger file is read from its newest lines. */
const EVENTS_MAX_BYTES = 16 * 1024 * 1024;
/** How soon writes the disk refused are tried again (any later write of the run also tries them). */
export const RETRY_WRITES_MS = 5000;
/** How long after open the store is swept of what interrupted writes left: after the first page's requests. */
const SWEEP_AFTER_MS = 3000;
/** How long after an open that found the summary index out of date it is written again: after the page's start. */
const INDEX_AFTER_MS = 5000;

export interface Unreadable {
  path: string;
  reason: string;
}

export class RunStore {
  /**
   * The runs by id. Each manifest object is replaced on a change, never changed in place, so `peek` can hand them out
   * without copying (cloning 10,000 manifests per list cost more than answering it).
   */
  private readonly index = new Map<string, RunManifest>();
  /** The index newest first, sorted once per change rather than once per read. */
  private sorted: RunManifest[] | null = null;
  /** Per-run chains: writes to one run happen in call order, so the files follow the index in order. */
  private readonly queues = new SerialQueues();
  private readonly pending = new PendingWrites(() => this.flush(), RETRY_WRITES_MS);
  private readonly skipped: Unreadable[] = [];
  /** Files already warned about, so a damaged file read on every request is logged once. */
  private readonly warned = new Set<string>();

  private constructor(
    private readonly runsDir: string,
    private readonly summary: SummaryIndex,
  ) {}

  /** What interrupted writes left, removed after open (run-dirs.ts `sweepLeftovers`). */
  private sweep: Promise<void> = Promise.resolve();
  private opened = { index: 0, manifests: 0 };

  /**
   * Opens the store of `dataDir`, which must be the user's own (see checkDataDir). What a crash left is swept
   * `sweepAfterMs` later, behind the first requests; the summary index is written `indexAfterMs` later when the open
   * found it out of date.
   */
  static async open(dataDir: string, sweepAfterMs = SWEEP_AFTER_MS, indexAfterMs = INDEX_AFTER_MS): Promise<RunStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    checkDataDir(dataDir);
    const runsDir = join(dataDir, 'runs');
    await mkdir(runsDir, { recursive: true, mode: 0o700 });
    const state = await directoryState(runsDir);
    if (state !== 'ok') throw new Error(`cannot open the run store: ${runsDir} ${state}`);
    const indexPath = join(dataDir, INDEX_FILE);
    const store = new RunStore(runsDir, new SummaryIndex(indexPath, runsDir));
    const saved = store.summary.read((reason) =>
      process.stderr.write(`baton: ignoring ${indexPath} (${reason}); it will be written again\n`),
    );
    const loaded = loadRuns(runsDir, (path, reason) => store.skip(path, reason), saved);
    for (const m of loaded.runs) store.index.set(m.id, m);
    store.sorted = null;
    store.opened = { index: loaded.fromIndex, manifests: loaded.runs.length - loaded.fromIndex };
    store.summary.took(loaded.indexable);
    if (loaded.stale) store.summary.saveLater(() => store.index, indexAfterMs);
    store.sweep = new Promise<void>((resolve) => setTimeout(resolve, sweepAfterMs).unref())
      // Only what was there before this process started: a temp file of a write it makes now is not a left-over.
      .then(() => sweepLeftovers(runsDir, performance.timeOrigin))
      .catch((err: unknown) => {
        process.stderr.write(`baton: could not sweep ${runsDir}: ${errnoCode(err)}\n`);
      });
    return store;
  }

  /** Resolves once the sweep after open is done (tests). */
  swept(): Promise<void> {
    return this.sweep;
  }

  /** How the open found its runs: taken from the summary index, or read from their manifests. */
  openedFrom(): { index: number; manifests: number } {
    return { ...this.opened };
  }

  /** Resolves once the summary index the open found out of date is written again (tests). */
  indexSaved(): Promise<void> {
    return this.summary.saved();
  }

  /** Called once per run and outage with a message for the user; the store has already logged it. */
  onWriteProblem(listener: (p: WriteProblem) => void): () => void {
    return this.pending.onProblem(listener);
  }

  /** What was found in the store but could not be read as a run, with why. Nothing of it is ever removed. */
  unreadable(): Unreadable[] {
    return this.skipped.map((s) => ({ ...s }));
  }

  /** Newest `updatedAt` first. The manifests are copies: change a run through `save`. */
  list(): RunManifest[] {
    return this.peek().map((m) => structuredClone(m));
  }

  /**
   * Every run, newest `updatedAt` first: the store's own objects, for readers that only look (a list, a lookup).
   * Never change one; change a run through `save`.
   */
  peek(): readonly Readonly<RunManifest>[] {
    this.sorted ??= sortedNewestFirst(this.index.values());
    return this.sorted;
  }

  get(runId: string): RunManifest | undefined {
    const m = this.index.get(runId);
    return m && structuredClone(m);
  }

  /** Names need not be unique; the most recently updated run with the name wins. */
  findByName(name: string): RunManifest | undefined {
    const m = this.peek().find((r) => r.name === name);
    return m && structuredClone(m);
  }

  /** Any session id an agent ever had, not only its current one: old handles still find their run. */
  findAgentBySessionId(sessionId: string): { run: RunManifest; agentId: string } | undefined {
    for (const run of this.peek()) {
      const agent = run.agents.find((a) => a.sessionIds.some((s) => s.id === sessionId));
      if (agent) return { run: structuredClone(run), agentId: agent.id };
    }
    return undefined;
  }

  /**
   * Records the run. A new run must reach the disk or it is refused (the error says why). A known run's change
   * is kept even when the disk refuses it: reported once, and written by the next write of the run or a retry.
   */
  async save(manifest: RunManifest): Promise<void> {
    const parsed = runManifestSchema.safeParse(manifest);
    if (!parsed.success) throw new BatonError(describeIssue(parsed.error, 'manifest'));
    const m = parsed.data;
    const dir = this.runDir(m.id);
    if (!this.index.has(m.id)) {
      return this.serial(m.id, async () => {
        if (!this.index.has(m.id)) return this.create(m, dir);
        this.setIndex(m);
        this.pending.markDirty(m.id);
        await this.writeWaiting(m.id);
      });
    }
    // A known run: the index takes the change at once (it is the truth while running) and the file follows in the
    // run's queue. Saves that arrive while a write is in flight are written together by the next one: 25 agents
    // starting at once rewrite their run's manifest a few times, not 25 (each write is still whole and atomic, and
    // each save resolves only once a file holding its change is on disk).
    this.setIndex(m);
    this.pending.markDirty(m.id);
    await this.serial(m.id, () => this.writeWaiting(m.id));
  }

  /** Appends to the run's history; a line the disk refuses waits in memory like a refused manifest. */
  async appendEvent(runId: string, event: RunEvent): Promise<void> {
    this.runDir(runId);
    const parsed = runEventSchema.safeParse(event);
    if (!parsed.success) throw new BatonError(describeIssue(parsed.error, 'event'));
    this.requireKnown(runId);
    // Queued at once, written in the run's queue: lines that arrive while a write is in flight go in the next one.
    this.pending.queueEvent(runId, parsed.data);
    await this.serial(runId, () => this.writeWaiting(runId));
  }

  /** The run's history: the lines on disk that read well, then any still waiting to be written. */
  async readEvents(runId: string): Promise<RunEvent[]> {
    const path = join(this.runDir(runId), EVENTS);
    // In the run's queue, so a line being written is seen once: on disk or still waiting, never both.
    return this.serial(runId, async () => {
      const read = await readJsonLines(path, runEventSchema, EVENTS_MAX_BYTES);
      if (read.problem) this.warnOnce(path, read.problem);
      return [...read.values, ...this.pending.events(runId)];
    });
  }

  /** Writes the snapshot directory whole. Unlike a manifest it is not kept for later: the error says why. */
  async writeSnapshot(runId: string, snapshot: SnapshotView, screens: StoredScreen[]): Promise<void> {
    const dir = this.runDir(runId);
    const files = snapshotFiles(snapshot, screens);
    this.requireKnown(runId);
    await this.serial(runId, async () => {
      const screensDir = join(dir, SCREENS);
      try {
        await mkdir(screensDir, { recursive: true, mode: 0o700 });
        const state = await directoryState(screensDir);
        if (state !== 'ok')
          throw new BatonError({
            code: 'failed',
            message: `cannot save snapshots of this run: ${screensDir} ${state}`,
          });
        await writeDirAtomic(join(screensDir, snapshot.id), files);
      } catch (err) {
        throw this.writeFailed(runId, err);
      }
      this.pending.succeeded(runId, this.index.get(runId)?.name ?? runId);
      // Old snapshots are only clean-up: failing to remove one must not fail the snapshot just written.
      await pruneSnapshots(screensDir, snapshot.id).catch((err: unknown) =>
        this.warnOnce(screensDir, `old snapshots not removed (${errnoCode(err)})`, 'clean-up of'),
      );
    });
  }

  /** The snapshot with the screens that read well; undefined when it is missing or damaged (logged once). */
  async readSnapshot(
    runId: string,
    snapshotId: string,
  ): Promise<{ snapshot: SnapshotView; screens: StoredScreen[] } | undefined> {
    const runDir = this.runDir(runId);
    checkId(snapshotId, SNAPSHOT_ID, 'snapshotId', 'snapshot');
    const screensDir = join(runDir, SCREENS);
    const state = await directoryState(screensDir);
    if (state !== 'ok') {
      if (state !== 'missing') this.warnOnce(screensDir, state);
      return undefined;
    }
    return readSnapshotDir(join(screensDir, snapshotId), (path, reason) => this.warnOnce(path, reason));
  }

  /** Removes the run and everything it holds. Returns false when there was nothing to remove. */
  async delete(runId: string): Promise<boolean> {
    const dir = this.runDir(runId);
    return this.serial(runId, async () => {
      this.pending.forget(runId);
      // Renamed first so a crash mid-delete leaves a temp dir (swept at open), never half a run.
      const doomed = tempPathFor(dir);
      try {
        await rename(dir, doomed);
      } catch (err) {
        if (isErrno(err, 'ENOENT')) return this.unindex(runId);
        throw err;
      }
      this.unindex(runId);
      await fsyncDir(this.runsDir);
      await rm(doomed, { recursive: true, force: true });
      return true;
    });
  }

  /** Tries every write the disk refused so far. Never throws: what still fails keeps waiting. */
  async flush(): Promise<void> {
    for (const runId of this.pending.waiting()) {
      await this.serial(runId, () => this.writeWaiting(runId)).catch(() => undefined);
    }
  }

  /** Writes the summary index if it is out of date (at close: the next open then reads only what changes later). */
  async saveIndex(): Promise<void> {
    await this.summary.flush(this.index);
  }

  /** Stops retrying; call after a last `flush`. */
  close(): void {
    this.pending.close();
    this.summary.close();
  }

  /** Runs whose latest state or history is only in memory (the disk refused it), for the quit to report. */
  unsaved(): string[] {
    return this.pending.waiting().filter((id) => this.index.has(id));
  }

  // ---------- internals ----------

  /** Every path is built from a checked id: nothing from a handle or a request can walk out of the store. */
  private runDir(runId: string): string {
    checkId(runId, RUN_ID, 'runId', 'run');
    return join(this.runsDir, runId);
  }

  private requireKnown(runId: string): void {
    if (!this.index.has(runId))
      throw new BatonError({ code: 'not-found', field: 'runId', message: 'no run with this id' });
  }

  /** A new run's first manifest. On failure nothing of it stays: no directory, no index entry. */
  private async create(m: RunManifest, dir: string): Promise<void> {
    await writeNewRun(this.runsDir, dir, m);
    this.setIndex(m);
  }

  private setIndex(m: RunManifest): void {
    this.index.set(m.id, m);
    this.sorted = null;
  }

  private unindex(runId: string): boolean {
    this.sorted = null;
    return this.index.delete(runId);
  }

  /** Inside the run's queue: the manifest if it is newer than its file, then the waiting history lines in order. */
  private async writeWaiting(runId: string): Promise<void> {
    const m = this.index.get(runId);
    if (!m) return this.pending.forget(runId);
    const path = join(this.runDir(runId), EVENTS);
    try {
      if (this.pending.isDirty(runId)) {
        await writeFileAtomic(join(this.runDir(runId), MANIFEST), manifestText(m));
        this.pending.written(runId);
      }
      // Every line waiting, in one append and one fsync: lines queued while the last write was in flight go together.
      const lines = [...this.pending.events(runId)];
      if (lines.length > 0) {
        await appendJsonLines(path, lines);
        this.pending.appended(runId, lines);
      }
    } catch (err) {
      const problem = this.writeFailed(runId, err);
      if (!isFileSystemError(err)) throw problem;
      return;
    }
    this.pending.succeeded(runId, m.name);
  }

  /** Reports a failed write of a known run once per outage; returns the error to throw where one is thrown. */
  private writeFailed(runId: string, err: unknown): unknown {
    const m = this.index.get(runId);
    if (!m || !isFileSystemError(err)) return err;
    const problem = saveFailure(err, m.name, this.runDir(runId), false);
    this.pending.failed(runId, problem.message);
    return problem;
  }

  private serial<T>(runId: string, fn: () => Promise<T>): Promise<T> {
    return this.queues.run(runId, fn);
  }

  /** A run that cannot be read is left on disk untouched, logged, and listed by `unreadable`. */
  private skip(path: string, reason: string): void {
    this.skipped.push({ path, reason });
    this.warnOnce(path, reason, 'skipping run');
  }

  private warnOnce(path: string, reason: string, what = 'damaged file'): void {
    const line = `baton: ${what} ${path}: ${reason}\n`;
    if (this.warned.has(line)) return;
    this.warned.add(line);
    process.stderr.write(line);
  }
}

function checkId(id: string, pattern: RegExp, field: string, what: string): void {
  if (typeof id !== 'string' || !pattern.test(id)) {
    throw new BatonError({ code: 'invalid', field, message: `${field} is not a Baton ${what} id` });
  }
}
