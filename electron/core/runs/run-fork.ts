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
import { conflict, notFound } from './errors.js';
import { newRunId } from './ids.js';
import { now, type RunRepository } from './run-repository.js';
import { copyTranscript } from './transcript-copy.js';
import { uniqueRunName, newAgentRecords } from './validation.js';
import { runSources, type RunSource } from './run-sources.js';
import { runView, type Announce, type AttentionOf } from './views.js';
import { commitOf } from './worktree-git.js';
import { forkOnHosts, type HostFork } from '../remote/remote-fork.js';
import { remotePlan } from '../remote/remote-launcher.js';

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
    'run.fork': ({ run, snapshot, name, agents, worktreeName }) =>
      this.fork(run, snapshot, name, { labels: agents, worktreeName }),
  };

  async fork(
    ref: string,
    snapshotId?: string,
    wanted?: string,
    only: { labels?: readonly string[]; worktreeName?: string } = {},
  ): Promise<{ run: RunView; outcomes: ForkOutcome[] }> {
    const source = this.runs.find(ref);
    let sources = await runSources(this.runs, source, snapshotId);
    // A host's core forks only the agents it runs for a run of another machine's (remote/remote-fork.ts).
    if (only.labels) {
      const labels = only.labels;
      sources = sources.filter((s) => labels.includes(s.agent.label));
      if (sources.length === 0) throw notFound(`run '${source.name}' has none of the agents to fork`);
    }
    const name = wanted ?? forkName(source.name, (n) => this.runs.findByName(n) !== undefined);
    if (this.runs.findByName(name)) throw conflict(`a run named '${name}' already exists`);
    const specs = await Promise.all(sources.map((s) => this.specOf(s, only.worktreeName)));
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
    const onHosts = await this.forkOnHosts(source.id, manifest, sources);
    const outcomes: ForkOutcome[] = [];
    for (const [i, { agent, worktree }] of added.entries()) {
      const s = sources[i]!;
      const there = s.agent.host ? onHosts.get(s.agent.host)?.get(s.agent.label) : undefined;
      outcomes.push(
        there
          ? await this.startOnHost(manifest, agent, there, s, snapshotId !== undefined)
          : await this.startAgent(manifest, agent, worktree ?? undefined, s, snapshotId !== undefined),
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
  private async specOf(s: ForkSource, worktreeName: string | undefined): Promise<AgentSpec> {
    const base = {
      vendor: s.agent.vendor,
      label: s.agent.label,
      args: [...s.agent.args],
      ...(s.agent.command ? { command: [...s.agent.command] } : {}),
    };
    // An agent on another host is forked by its host's core (its worktree too): it starts where that core puts it.
    if (s.agent.host) return { ...base, host: s.agent.host, cwd: s.cwd, worktree: 'none' };
    if (!s.worktree) return { ...base, cwd: s.cwd, worktree: 'none' };
    const commit =
      s.mark?.headCommit ??
      (await commitOf(inheritedEnv(this.env), s.worktree.worktreePath, 'HEAD').catch(() => null)) ??
      s.worktree.baseCommit;
    // The same folder inside the repository's main checkout: the new worktree puts the agent there again.
    const sub = relative(s.worktree.worktreePath, s.cwd);
    const cwd = sub === '' || sub.startsWith('..') ? s.worktree.repoRoot : `${s.worktree.repoRoot}/${sub}`;
    return { ...base, cwd, worktree: 'new', base: commit, ...(worktreeName !== undefined ? { worktreeName } : {}) };
  }

  /** The agents of the source on other hosts, forked there by each host's core (by host, then label). */
  private async forkOnHosts(
    sourceRunId: string,
    fork: RunManifest,
    sources: readonly ForkSource[],
  ): Promise<Map<string, Map<string, HostFork>>> {
    const labelsByHost = new Map<string, string[]>();
    for (const s of sources)
      if (s.agent.host) labelsByHost.set(s.agent.host, [...(labelsByHost.get(s.agent.host) ?? []), s.agent.label]);
    if (labelsByHost.size === 0 || !this.agents.remote) return new Map();
    return forkOnHosts(this.agents.remote, {
      sourceRunId,
      forkRunId: fork.id,
      forkName: fork.name,
      labelsByHost,
    });
  }

  /**
   * A forked agent on another host: its host's core forked it (reattached here like any remote agent); a host that
   * could not fork it starts it fresh in its directory there, unless it had a worktree (it would share its source's).
   */
  private async startOnHost(
    run: RunManifest,
    agent: AgentRecord,
    there: HostFork,
    source: ForkSource,
    atSnapshot: boolean,
  ): Promise<ForkOutcome> {
    const host = agent.host ?? '';
    const base = { agentId: agent.id, label: agent.label, vendor: agent.vendor };
    const failed = async (message: string): Promise<ForkOutcome> => {
      await this.agents.markFailed(run.id, agent.id, message);
      return { ...base, outcome: 'failed', sessionId: null, message, method: 'none', from: 'now' };
    };
    if (!there.ok && source.worktree) return failed(`${there.message}; its worktree there was not forked`);
    if (there.ok && there.outcome.outcome === 'failed')
      return failed(`on ${host}: ${there.outcome.message ?? 'the fork failed'}`);
    const forked = there.ok ? there.outcome : null;
    const plan = forked ? remotePlan(forked.sessionId, forked.outcome) : remotePlan(null, 'fresh');
    const outcome = await this.agents.startPlanned(run.id, agent, plan, forked !== null && forked.method !== 'none');
    const hostNote = there.ok
      ? there.outcome.message && `on ${host}: ${there.outcome.message}`
      : `${there.message}: a fresh conversation`;
    const notes = [
      hostNote,
      atSnapshot && forked !== null && forked.method !== 'none'
        ? `forked from its conversation as it is now on ${host} (a snapshot here does not cut a conversation there)`
        : null,
      outcome.message,
    ];
    const message = notes.filter((m) => m !== null && m !== '').join('; ');
    return { ...outcome, message: message === '' ? null : message, method: forked?.method ?? 'none', from: 'now' };
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
