// The runs a core ended without the user stopping them, and bringing them back (docs/architecture.md §8). Two ways
// in: a core killed without a goodbye (kill -9, a reboot) leaves agents recorded `running`, which the next core
// finds at start (`crash`); a core restart (`core.shutdown` with resumeOnStart) records its live runs before it
// stops them (`restart`). Both are kept in interrupted.json until resumed or dismissed. A restart, or the user's
// setting, resumes them as soon as the next core starts; otherwise the dashboard and `baton resume-interrupted` offer
// it. Only the agents that were running come back, each through its own agent handle (§5), so every agent gets its
// outcome: resumed, fresh (with why) or failed (with why).
import {
  BatonError,
  type CoreSettings,
  type Method,
  type RecoveryResult,
  type RecoveryState,
  type RequestTable,
  type ResumeOutcome,
} from '../../../shared/contract.js';
import { reportFailure } from '../log.js';
import {
  mergeRuns,
  readInterrupted,
  removeInterrupted,
  writeInterrupted,
  type InterruptedRecord,
  type InterruptedRun,
} from '../store/interrupted-file.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import { now, type RunReader } from './run-repository.js';
import type { RunService } from './run-service.js';

/** The requests recovery answers. */
export type RecoveryMethod = Extract<Method, `recovery.${string}`>;

export class Recovery {
  private resuming: Promise<RecoveryResult> | null = null;
  private last: RecoveryResult | null = null;

  private constructor(
    private readonly dataDir: string,
    private readonly runs: RunReader,
    private readonly service: RunService,
    private record: InterruptedRecord | null,
  ) {}

  /** What the last core left: its restart record, plus the agents `crashed` found still marked running. */
  static async open(
    dataDir: string,
    runs: RunReader,
    service: RunService,
    crashed: InterruptedRun[],
    settings: CoreSettings,
  ): Promise<Recovery> {
    let record = await readInterrupted(dataDir);
    if (crashed.length > 0) {
      record = record
        ? { ...record, runs: mergeRuns(record.runs, crashed) }
        : { v: 1, reason: 'crash', at: now(), resumeOnStart: false, runs: crashed };
      await writeInterrupted(dataDir, record);
    }
    if (record && settings.resumeInterruptedOnStart) record = { ...record, resumeOnStart: true };
    return new Recovery(dataDir, runs, service, record);
  }

  /** The recovery requests, by their names in the contract. */
  readonly requests: RequestTable<RecoveryMethod> = {
    'recovery.get': async () => this.state(),
    'recovery.resume': () => this.resumeAll(),
    'recovery.dismiss': async () => {
      await this.dismiss();
      return {};
    },
  };

  /** A restart asked for it, or the user's setting does: resume at once. */
  get resumeOnStart(): boolean {
    return this.record !== null && this.record.resumeOnStart && this.record.runs.length > 0;
  }

  state(): RecoveryState {
    const runs = (this.record?.runs ?? []).flatMap((r) => {
      const run = this.runs.get(r.runId);
      return run
        ? [
            {
              runId: r.runId,
              name: run.name,
              agents: r.agentIds.filter((id) => run.agents.some((a) => a.id === id)).length,
            },
          ]
        : [];
    });
    // Listed by name: the order the store found them in is the file system's, and the banner should not shuffle.
    runs.sort((a, b) => a.name.localeCompare(b.name));
    return {
      interrupted: this.record && runs.length > 0 ? { reason: this.record.reason, at: this.record.at, runs } : null,
      resuming: this.resuming !== null,
      last: this.last,
    };
  }

  /** Before a restart stops them: these runs' agents come back when the next core starts. */
  async recordRestart(live: InterruptedRun[]): Promise<void> {
    if (live.length === 0) return;
    // Runs an earlier crash interrupted and the user has not resumed yet come back too: the restart is meant to
    // give them everything they had.
    this.record = {
      v: 1,
      reason: 'restart',
      at: now(),
      resumeOnStart: true,
      runs: mergeRuns(this.record?.runs ?? [], live),
    };
    await writeInterrupted(this.dataDir, this.record);
  }

  /** Resumes every recorded run's interrupted agents; a second call while one runs gets the same result. */
  resumeAll(): Promise<RecoveryResult> {
    this.resuming ??= this.resumeRecorded().finally(() => {
      this.resuming = null;
      this.service.announce('recovery.changed', {});
    });
    this.service.announce('recovery.changed', {});
    return this.resuming;
  }

  async dismiss(): Promise<void> {
    this.record = null;
    this.last = null;
    await removeInterrupted(this.dataDir);
    this.service.announce('recovery.changed', {});
  }

  private async resumeRecorded(): Promise<RecoveryResult> {
    const runs = this.record?.runs ?? [];
    const result: RecoveryResult = { at: now(), runs: [] };
    for (const entry of runs) {
      const run = this.runs.get(entry.runId);
      if (!run) continue; // Deleted since: nothing to bring back.
      const outcomes: ResumeOutcome[] = [];
      let error: string | null = null;
      try {
        for (const agent of run.agents.filter((a) => entry.agentIds.includes(a.id)))
          outcomes.push(await this.resumeAgent(run, agent));
      } catch (err) {
        error = messageOf(err, 'resuming an interrupted run');
      }
      result.runs.push({ runId: run.id, name: run.name, outcomes, error });
    }
    this.record = null;
    this.last = result;
    await removeInterrupted(this.dataDir);
    return result;
  }

  private async resumeAgent(run: RunManifest, agent: AgentRecord): Promise<ResumeOutcome> {
    const requests = this.service.requests;
    const viewNow = async () => (await requests['run.get']({ run: run.id })).agents.find((a) => a.id === agent.id);
    const outcome = async (o: ResumeOutcome['outcome'], message: string | null): Promise<ResumeOutcome> => ({
      agentId: agent.id,
      label: agent.label,
      vendor: agent.vendor,
      outcome: o,
      sessionId: (await viewNow())?.sessionId ?? null,
      message,
    });
    const view = await viewNow();
    // Resumed by hand meanwhile: it runs, and that is what the user wanted.
    if (view?.terminalId && (view.status === 'running' || view.status === 'starting')) return outcome('resumed', null);
    let handle: string;
    try {
      ({ handle } = await requests['run.handle']({ run: run.id, agent: agent.id }));
    } catch (err) {
      if (!(err instanceof BatonError && err.code === 'conflict'))
        return outcome('failed', messageOf(err, 'exporting a handle'));
      // The vendor never gave it a session id (nothing was said yet): there is no conversation to lose.
      try {
        await requests['agent.restart']({ agentId: agent.id });
        return await outcome('fresh', 'it had no conversation to resume yet: started a new one');
      } catch (restartErr) {
        return outcome('failed', messageOf(restartErr, 'restarting an agent'));
      }
    }
    try {
      // The handle came from this store, not from a paste: the shell agent's directory and command are the ones it
      // was running with, so it is confirmed (index 0: an agent handle holds one agent).
      const { outcomes } = await requests['run.resume']({ handle, confirmShell: [0] });
      return (
        outcomes.find((o) => o.agentId === agent.id) ??
        (await outcome('failed', 'the resume did not report this agent'))
      );
    } catch (err) {
      return outcome('failed', messageOf(err, 'resuming an agent'));
    }
  }
}

/** A BatonError's message is for the user; anything else is a bug, logged (scrubbed) and named only by kind. */
function messageOf(err: unknown, where: string): string {
  if (err instanceof BatonError) return err.message;
  reportFailure(where, err);
  return 'internal error in the Baton core (see its log)';
}
