// The runs as the core reads and changes them (docs/architecture.md §7): the run store plus one queue per run. Every
// change of a run goes through a job queued for that run (`enqueue`, `update`, `addAgents`), so two changes of one run
// never interleave and none is lost between a read and its save; the store orders the files beneath them. Also the
// lookups (by id, name, agent or session id), the run's history, and what a quit must write before it ends.
import type { RunEvent } from '../../../shared/contract.js';
import { RUN_ID } from '../../../shared/words.js';
import type { InterruptedRun } from '../store/interrupted-file.js';
import type { RunStore, WriteProblem } from '../store/run-store.js';
import { SerialQueues } from '../store/serial-queues.js';
import type { AgentRecord, RunManifest, SnapshotView, StoredScreen } from '../store/types.js';
import { StoreWriteError } from '../store/write-errors.js';
import { notFound } from './errors.js';
import { checkRoom } from './validation.js';

export const now = () => new Date().toISOString();

/**
 * Logs a failure of work nobody waits for (an agent's exit, a periodic snapshot). A refused write was already
 * reported by the store, once per outage, so it is not repeated here.
 */
export function logFailure(what: string, err: unknown): void {
  if (err instanceof StoreWriteError) return;
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`baton: ${what} failed: ${message}\n`);
}

/** What a job queued for one run may write of it, in the queue's order. */
export interface RunWriter {
  readonly runId: string;
  /** Applies `edit` to the current manifest (its `updatedAt` set to now first) and saves it; nothing if the run is gone. */
  change(edit: (m: RunManifest) => void): Promise<void>;
  writeSnapshot(snapshot: SnapshotView, screens: StoredScreen[]): Promise<void>;
}

/** The lookups, for the parts that only read (the resume planner, session import, recovery). */
export type RunReader = Pick<RunRepository, 'get' | 'list' | 'peek' | 'findByName' | 'findAgentBySessionId'>;

export class RunRepository {
  private readonly queues = new SerialQueues();

  constructor(private readonly store: RunStore) {}

  // ---------- reads: copies, never the store's own objects ----------

  get(runId: string): RunManifest | undefined {
    return this.store.get(runId);
  }

  /** Newest first. */
  list(): RunManifest[] {
    return this.store.list();
  }

  /** Newest first, without copies: for readers that only look. Never change what it gives (RunStore.peek). */
  peek(): readonly Readonly<RunManifest>[] {
    return this.store.peek();
  }

  findByName(name: string): RunManifest | undefined {
    return this.store.findByName(name);
  }

  findAgentBySessionId(sessionId: string): { run: RunManifest; agentId: string } | undefined {
    return this.store.findAgentBySessionId(sessionId);
  }

  /** A run by its id or its name. */
  find(ref: string): RunManifest {
    const run = RUN_ID.test(ref) ? this.store.get(ref) : this.store.findByName(ref);
    if (!run) throw notFound(`no run named '${ref}'`);
    return run;
  }

  findAgent(agentId: string): { run: RunManifest; agent: AgentRecord } {
    for (const found of this.store.peek()) {
      if (!found.agents.some((a) => a.id === agentId)) continue;
      const run = structuredClone(found);
      return { run, agent: run.agents.find((a) => a.id === agentId)! };
    }
    throw notFound('no such agent');
  }

  readEvents(runId: string): Promise<RunEvent[]> {
    return this.store.readEvents(runId);
  }

  readSnapshot(runId: string, snapshotId: string): ReturnType<RunStore['readSnapshot']> {
    return this.store.readSnapshot(runId, snapshotId);
  }

  /** Called once per run and outage with a message for the user (a full disk, say); the store has logged it. */
  onWriteProblem(listener: (p: WriteProblem) => void): () => void {
    return this.store.onWriteProblem(listener);
  }

  // ---------- writes ----------

  /** A new run: it must reach the disk or it is refused. Its history starts with `started`. */
  async create(run: RunManifest, message: string): Promise<void> {
    await this.store.save(run);
    await this.history(run.id, { type: 'started', message });
  }

  /** Runs `job` after every job queued before it for the same run; one that fails does not stop the next. */
  enqueue<T>(runId: string, job: (run: RunWriter) => Promise<T>): Promise<T> {
    return this.queues.run(runId, () => job(this.writer(runId)));
  }

  /**
   * One change of the run's manifest, queued behind the run's other changes. The queue moves on once the change is
   * in the store's index (the truth while running); the promise resolves once it is on disk. So the changes of 25
   * agents starting at once are read and applied one after the other, and written together (RunStore.save).
   */
  update(runId: string, edit: (m: RunManifest) => void): Promise<void> {
    let written: Promise<void> = Promise.resolve();
    const applied = this.enqueue(runId, async () => {
      written = this.apply(runId, edit);
      // Handled by whoever awaits `update`; this only keeps it from counting as unhandled meanwhile.
      written.catch(() => undefined);
    });
    return applied.then(() => written);
  }

  /**
   * Adds the agents the run lacks. The run's agent limit is checked in its queue, against the run as it is then:
   * a concurrent agent.add or resume since the caller's own check must not take it past the limit.
   */
  addAgents(runId: string, records: readonly AgentRecord[], field: string): Promise<void> {
    return this.update(runId, (m) => {
      const adding = records.filter((r) => !m.agents.some((a) => a.id === r.id));
      checkRoom(m.agents.length, adding.length, field);
      m.agents.push(...adding);
    });
  }

  /** Appends to the run's history (its own file, ordered by the store). */
  async history(runId: string, e: Omit<RunEvent, 'at'>): Promise<void> {
    await this.store.appendEvent(runId, { at: now(), ...e });
  }

  delete(runId: string): Promise<boolean> {
    return this.store.delete(runId);
  }

  /**
   * At open: agents recorded as running when the last core died did not survive it. Says so in their status and
   * returns them per run, so the next start can offer to resume exactly those (docs/architecture.md §8).
   */
  async markInterrupted(): Promise<InterruptedRun[]> {
    const interrupted: InterruptedRun[] = [];
    for (const run of this.store.peek()) {
      const agentIds = run.agents.filter((a) => a.status === 'running' || a.status === 'starting').map((a) => a.id);
      if (agentIds.length === 0) continue;
      const next = structuredClone(run);
      for (const a of next.agents) {
        if (a.status === 'running' || a.status === 'starting') {
          a.status = 'exited';
          a.exitCode = null;
        }
      }
      await this.store.save(next);
      interrupted.push({ runId: run.id, agentIds });
    }
    return interrupted;
  }

  /**
   * At quit: lets every queued change land, writes what the disk refused earlier if it now can, brings the summary
   * index up to date (store/summary-index.ts), and closes the store. Returns the names of the runs whose latest
   * changes still could not be saved.
   */
  async close(): Promise<string[]> {
    await this.queues.idle();
    await this.store.flush();
    await this.store.saveIndex();
    this.store.close();
    return this.store.unsaved().map((runId) => this.store.get(runId)?.name ?? runId);
  }

  /** Applies `edit` to the current manifest (its `updatedAt` set to now first); the store takes it before this returns. */
  private apply(runId: string, edit: (m: RunManifest) => void): Promise<void> {
    const current = this.store.get(runId);
    if (!current) return Promise.resolve();
    current.updatedAt = now();
    edit(current);
    return this.store.save(current);
  }

  private writer(runId: string): RunWriter {
    return {
      runId,
      change: (edit) => this.apply(runId, edit),
      writeSnapshot: (snapshot, screens) => this.store.writeSnapshot(runId, snapshot, screens),
    };
  }
}
