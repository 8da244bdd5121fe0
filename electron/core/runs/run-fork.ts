// Fork a run (docs/bundles.md §1): a new run "<name> fork" whose agents each continue a copy of their source agent's
// conversation, the source untouched. Per agent: the vendor's own fork where it has one and the agent keeps its
// directory; a copy of the transcript under a new id where the fork must be cut at a snapshot, moves to a new
// worktree, or the vendor has no fork of its own; else a fresh conversation, saying why. An agent with a worktree gets
// a new branch from the commit its source had (at the snapshot, or now).
import { relative } from 'node:path';
import type { AgentSpec, ForkOutcome, RequestTable, RunView } from '../../../shared/contract.js';
import { LIMITS } from '../../../shared/words.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { AgentContext, SpawnPlan, VendorAdapter, VendorEnv } from '../vendors/adapter.js';
import { inheritedEnv } from '../vendors/kit/env.js';
import type { Vendors } from '../vendors/registry.js';
import type { AgentSupervisor, Prepared } from './agent-supervisor.js';
import type { AgentWorktrees } from './agent-worktrees.js';
import { conflict } from './errors.js';
import { newRunId } from './ids.js';
import { now, type RunRepository } from './run-repository.js';
import { copyTranscript } from './transcript-copy.js';
import { uniqueRunName, newAgentRecords } from './validation.js';
import { runSources, type RunSource } from './run-sources.js';
import { runView, type Announce, type AttentionOf } from './views.js';
import { commitOf } from './worktree-git.js';

type ForkSource = RunSource;

type Method = ForkOutcome['method'];

/** The request the fork answers (the run service leaves it to this). */
export type ForkMethod = 'run.fork';

/** The default name of a fork: "<name> fork", made unique ("<name> fork (2)"). */
export function forkName(name: string, isTaken: (n: string) => boolean): string {
  return uniqueRunName(`${name.slice(0, LIMITS.nameMaxChars - 5)} fork`, isTaken);
}

export class RunForks {
  constructor(
    private readonly runs: RunRepository,
    private readonly agents: AgentSupervisor,
    private readonly vendors: Vendors,
    private readonly env: VendorEnv,
    private readonly worktrees: AgentWorktrees,
    private readonly announce: Announce,
    /** Each agent's attention state, for the views a fork answers with. */
    private readonly attentionOf: AttentionOf,
  ) {}

  readonly requests: RequestTable<ForkMethod> = {
    'run.fork': ({ run, snapshot, name }) => this.fork(run, snapshot, name),
  };

  async fork(ref: string, snapshotId?: string, wanted?: string): Promise<{ run: RunView; outcomes: ForkOutcome[] }> {
    const source = this.runs.find(ref);
    const sources = await runSources(this.runs, source, snapshotId);
    const name = wanted ?? forkName(source.name, (n) => this.runs.findByName(n) !== undefined);
    if (this.runs.findByName(name)) throw conflict(`a run named '${name}' already exists`);
    const specs = await Promise.all(sources.map((s) => this.specOf(s)));
    const added = await newAgentRecords(specs, [], this.vendors, this.worktrees);
    const at = now();
    const manifest: RunManifest = {
      v: 1,
      id: newRunId(),
      name,
      createdAt: at,
      updatedAt: at,
      agents: added.map((a) => a.agent),
      lastSnapshot: null,
    };
    const from = snapshotId ? `its snapshot ${snapshotId}` : 'it as it is now';
    await this.runs.create(manifest, `forked from '${source.name}' (${from})`);
    const outcomes: ForkOutcome[] = [];
    for (const [i, { agent, worktree }] of added.entries()) {
      outcomes.push(
        await this.startAgent(manifest, agent, worktree ?? undefined, sources[i]!, snapshotId !== undefined),
      );
    }
    const copied = outcomes.filter((o) => o.method !== 'none').length;
    await this.runs.history(source.id, {
      type: 'forked',
      message: `forked into '${name}' (${copied} of ${outcomes.length} conversations)`,
    });
    this.announce('run.changed', { runId: manifest.id });
    this.announce('run.changed', { runId: source.id });
    return { run: this.view(manifest.id), outcomes };
  }

  /** The new agent's spec: same vendor, label, arguments; in the same directory, or a new worktree from its commit. */
  private async specOf(s: ForkSource): Promise<AgentSpec> {
    const base = {
      vendor: s.agent.vendor,
      label: s.agent.label,
      args: [...s.agent.args],
      ...(s.agent.command ? { command: [...s.agent.command] } : {}),
    };
    if (!s.worktree) return { ...base, cwd: s.cwd, worktree: 'none' };
    const commit =
      s.mark?.headCommit ??
      (await commitOf(inheritedEnv(this.env), s.worktree.worktreePath, 'HEAD').catch(() => null)) ??
      s.worktree.baseCommit;
    // The same folder inside the repository's main checkout: the new worktree puts the agent there again.
    const sub = relative(s.worktree.worktreePath, s.cwd);
    const cwd = sub === '' || sub.startsWith('..') ? s.worktree.repoRoot : `${s.worktree.repoRoot}/${sub}`;
    return { ...base, cwd, worktree: 'new', base: commit };
  }

  private async startAgent(
    run: RunManifest,
    record: AgentRecord,
    intent: Parameters<AgentSupervisor['startFresh']>[2],
    source: ForkSource,
    atSnapshot: boolean,
  ): Promise<ForkOutcome> {
    let agent = record;
    let prepared: Prepared | undefined;
    const base = { agentId: agent.id, label: agent.label, vendor: agent.vendor };
    if (intent !== undefined) {
      const ready = await this.agents.prepareWorktree(run.id, agent, intent);
      if (!ready.ok)
        return { ...base, outcome: 'failed', sessionId: null, message: ready.message, method: 'none', from: 'now' };
      ({ agent, prepared } = ready);
    }
    const adapter = this.vendors.get(agent.vendor)!;
    const ctx: AgentContext = {
      runName: run.name,
      label: agent.label,
      cwd: agent.cwd,
      args: agent.args,
      command: agent.command,
    };
    let chosen: { plan: SpawnPlan; found: boolean; method: Method; from: 'snapshot' | 'now'; note: string | null };
    try {
      chosen = await this.planFor(adapter, ctx, source, atSnapshot);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      chosen = {
        plan: await adapter.spawnFresh(ctx, this.env),
        found: false,
        method: 'none',
        from: 'now',
        note: `its conversation could not be copied (${why}): a fresh conversation`,
      };
    }
    const outcome = await this.agents.startPlanned(run.id, agent, chosen.plan, chosen.found, prepared);
    const message = [chosen.note, outcome.message].filter((m) => m !== null).join('; ');
    return { ...outcome, message: message === '' ? null : message, method: chosen.method, from: chosen.from };
  }

  /** The plan of one forked agent, and how its conversation was carried over. */
  private async planFor(
    adapter: VendorAdapter,
    ctx: AgentContext,
    s: ForkSource,
    atSnapshot: boolean,
  ): Promise<{ plan: SpawnPlan; found: boolean; method: Method; from: 'snapshot' | 'now'; note: string | null }> {
    const fresh = async (note: string) => ({
      plan: await adapter.spawnFresh(ctx, this.env),
      found: false,
      method: 'none' as const,
      from: 'now' as const,
      note,
    });
    if (adapter.sessionIdPattern === null) return fresh('a shell agent has no conversation: its command starts anew');
    if (s.sessionId === null) return fresh('the agent had no conversation yet: a fresh one');
    const moved = ctx.cwd !== s.cwd;
    const cut = atSnapshot ? s.mark?.transcriptBytes : undefined;
    const files = adapter.transcripts;
    if (files && (cut !== undefined || moved || !adapter.planFork)) {
      const from = cut !== undefined ? 'snapshot' : 'now';
      const id = await copyTranscript(files, this.env, { sessionId: s.sessionId, cwd: s.cwd, cutBytes: cut }, ctx.cwd);
      if (id !== null) {
        const checked = await adapter.planResumeChecked(
          ctx,
          { sessionId: id, chosenBy: 'baton', confirmed: true },
          this.env,
        );
        const late = atSnapshot && cut === undefined ? ' (the snapshot recorded no transcript length)' : '';
        return { ...checked, method: 'copy', from, note: `transcript copied under a new id, from ${from}${late}` };
      }
      if (!adapter.planFork || moved)
        return fresh(`its transcript is not in the ${adapter.displayName} store: a fresh conversation`);
    }
    if (adapter.planFork && !moved) {
      const plan = await adapter.planFork(ctx, s.sessionId, this.env);
      const note = atSnapshot
        ? `${adapter.displayName}'s own fork, from the conversation as it is now (it cannot be cut at a snapshot)`
        : `${adapter.displayName}'s own fork`;
      return { plan, found: true, method: 'native', from: 'now', note };
    }
    if (adapter.planFork)
      return fresh(
        `${adapter.displayName} forks only in the session's own directory, and this agent has a new worktree`,
      );
    return fresh(`${adapter.displayName} has no fork Baton can use and keeps no transcript file Baton can copy`);
  }

  private view(runId: string): RunView {
    return runView(
      this.runs.find(runId),
      (id) => {
        const l = this.agents.live(id);
        return l ? { terminalId: l.terminal.id, pid: l.terminal.pid } : undefined;
      },
      this.attentionOf,
    );
  }
}
