// The agents' lives after their run says "go": launched fresh or as planned by a resume, followed (the session ids
// their vendor reports), their exit recorded, a refused resume started fresh, stopped when Baton asks. Holds which
// agents are live and each agent's latest terminal; each change is written to the run repository and told to the
// clients by agent-recorder.ts (docs/architecture.md §5 steps 8–11, §8).
import { BatonError, type Params, type ResumeOutcome, type Result } from '../../../shared/contract.js';
import type { AgentTerminal } from '../pty/terminal.js';
import { askItsHost, type HostWorktreeMethod } from '../remote/remote-worktrees.js';
import { checkRemovableOnHosts } from '../remote/remote-delete.js';
import { remotePlan, type RemoteLauncher } from '../remote/remote-launcher.js';
import type { AgentRecord, RunManifest, WorktreeRecord } from '../store/types.js';
import type { AgentContext, SpawnPlan, VendorEnv } from '../vendors/adapter.js';
import { shortId } from '../vendors/kit/ids.js';
import type { Vendors } from '../vendors/registry.js';
import { LaunchError, type AgentLauncher, type LaunchHooks, type LiveAgent } from './agent-launcher.js';
import type {
  AgentWorktrees,
  HostWorktreeIntent,
  PreparedWorktree,
  RepoMap,
  WorktreeIntent,
} from './agent-worktrees.js';
import { AgentRecorder } from './agent-recorder.js';
import { logFailure, type RunRepository } from './run-repository.js';
import { checkedDirectory } from './validation.js';
import { currentSessionId, type Announce } from './views.js';
import type { AttentionService } from '../attention/attention-service.js';
import { settleWithin } from '../settle-within.js';

/** A live agent with its run; `settled` resolves once its exit has been recorded; `unwatch` ends its worktree's watch. */
export type RunningAgent = LiveAgent & { runId: string; settled: Promise<void>; unwatch: () => void };

type Started = { started: true } | { started: false; message: string };

/** What preparing an agent's worktree gave before its start: lines for its pane, a warning, the outcome's note. */
export type Prepared = Pick<PreparedWorktree, 'notices' | 'warning' | 'message'>;
const NOTHING_PREPARED: Prepared = { notices: [], warning: null, message: null };

export class AgentSupervisor {
  private readonly running = new Map<string, RunningAgent>();
  /** Each agent's latest terminal, kept after it ends so a pane can still attach and read its last output. */
  private readonly lastTerminal = new Map<string, AgentTerminal>();
  private closing = false;
  /** Writes down each change of an agent's life: the store, the run's history, the clients. */
  private readonly record: AgentRecorder;

  constructor(
    private readonly runs: RunRepository,
    private readonly launcher: AgentLauncher,
    private readonly vendors: Vendors,
    private readonly env: VendorEnv,
    private readonly announce: Announce,
    /** The snapshot taken when an agent exits on its own (not when Baton stopped it). */
    private readonly snapshotAfterExit: (runId: string) => Promise<unknown>,
    /** The agents' own git worktrees: made or found before a start, watched while live. */
    private readonly worktrees: AgentWorktrees,
    /** Each agent's attention state: wired into its spawn, told of its terminal and its end (docs/attention.md). */
    private readonly attention: AttentionService,
    /** Agents on other hosts (docs/hosts.md): started, resumed and reattached through their host's core. */
    readonly remote: RemoteLauncher | null = null,
  ) {
    this.record = new AgentRecorder(runs, announce);
  }

  live(agentId: string): RunningAgent | undefined {
    return this.running.get(agentId);
  }

  isLive(agentId: string): boolean {
    return this.running.has(agentId);
  }

  liveAgentIds(): string[] {
    return [...this.running.keys()];
  }

  liveRunIds(): Set<string> {
    return new Set([...this.running.values()].map((l) => l.runId));
  }

  /** The agent's latest terminal, live or ended. */
  terminalOf(agentId: string): AgentTerminal | undefined {
    return this.lastTerminal.get(agentId);
  }

  /** Lets the PTY host drop an ended agent's terminal (its run is being deleted). */
  releaseTerminal(agentId: string): void {
    const terminal = this.lastTerminal.get(agentId);
    if (terminal) this.launcher.release(terminal);
    this.lastTerminal.delete(agentId);
  }

  /** The run is being deleted: its runs on other hosts go too (docs/hosts.md); a host out of reach keeps its own. */
  async deleteRemoteRuns(run: RunManifest, removeWorktrees = false): Promise<void> {
    for (const host of new Set(run.agents.flatMap((a) => (a.host ? [a.host] : [])))) {
      const kept = await this.remote?.deleteRemoteRun(run.id, host, removeWorktrees);
      if (kept) process.stderr.write(`baton: run '${run.name}': its record on ${host} was kept: ${kept}\n`);
    }
  }

  /** For run.delete with removeWorktrees: the run's worktrees on other hosts, checked there (refuses as checkRemovable). */
  async checkRemovableOnHosts(run: RunManifest): Promise<void> {
    if (this.remote) await checkRemovableOnHosts(this.remote, run);
  }

  /** A worktree request about an agent on another host, answered by its host's core; null for one on this machine. */
  onItsHost<M extends HostWorktreeMethod>(
    found: { run: RunManifest; agent: AgentRecord },
    method: M,
    params: Omit<Params<M>, 'agentId'>,
  ): Promise<Result<M>> | null {
    const { run, agent } = found;
    if (!agent.host || !this.remote) return null;
    return askItsHost(this.remote, run.id, { ...agent, host: agent.host }, method, params);
  }

  /** From now on an exit is the quit's doing: no fresh start after a refused resume, no exit snapshot. */
  beginShutdown(): void {
    this.closing = true;
  }

  /**
   * A new conversation (run.start, agent.add, agent.restart). `intent`: the worktree run.start or agent.add asked
   * for, created first; an agent that already has one gets it back (re-created from its branch if it is gone).
   */
  async startFresh(runId: string, agentId: string, intent?: WorktreeIntent | HostWorktreeIntent): Promise<void> {
    const run = this.runs.get(runId)!;
    let agent = run.agents.find((a) => a.id === agentId)!;
    let prepared = NOTHING_PREPARED;
    if (intent !== undefined || agent.worktree) {
      const ready = await this.prepareWorktree(runId, agent, intent);
      if (!ready.ok) return;
      ({ agent, prepared } = ready);
    }
    const plan = await this.planFresh(run, agent);
    const onHost = intent && 'onHost' in intent ? intent : undefined;
    if (plan) await this.launch(runId, agent, plan, false, prepared, onHost);
  }

  /**
   * Before a resumed agent starts: its worktree, found or re-created (`repoMap`: repositories now elsewhere), and
   * its record changed to match. Not ready: the agent is marked failed with the reason.
   */
  async prepareWorktree(
    runId: string,
    agent: AgentRecord,
    intent?: WorktreeIntent | HostWorktreeIntent,
    repoMap?: RepoMap,
  ): Promise<{ ok: true; agent: AgentRecord; prepared: Prepared } | { ok: false; message: string }> {
    // An agent on another host has its worktree made or found by its host's core, as it starts there (docs/hosts.md).
    if (agent.host || (intent && 'onHost' in intent)) return { ok: true, agent, prepared: NOTHING_PREPARED };
    const run = this.runs.get(runId)!;
    let ready: PreparedWorktree;
    try {
      if (intent !== undefined) ready = await this.worktrees.create(run.name, agent.label, intent);
      else if (agent.worktree)
        ready = await this.worktrees.reopen(run.name, { ...agent, worktree: agent.worktree }, repoMap);
      else return { ok: true, agent, prepared: NOTHING_PREPARED };
      // Where it will start passes the same check as any agent's directory (§10): the user's own, others cannot write.
      ready.cwd = await checkedDirectory(ready.cwd, 'cwd');
    } catch (err) {
      if (!(err instanceof BatonError)) throw err;
      const message = intent !== undefined ? `could not create its worktree: ${err.message}` : err.message;
      await this.markFailed(runId, agent.id, message);
      return { ok: false, message };
    }
    const worktree: WorktreeRecord = ready.worktree;
    await this.runs.update(runId, (m) => {
      const a = m.agents.find((x) => x.id === agent.id);
      if (!a) return;
      a.cwd = ready.cwd;
      a.worktree = worktree;
    });
    if (ready.warning) this.announce('agent.warning', { runId, agentId: agent.id, message: ready.warning });
    return { ok: true, agent: { ...agent, cwd: ready.cwd, worktree }, prepared: ready };
  }

  /**
   * A resume's plan; `found`: the planner saw the session in the vendor's store, so it is recorded as confirmed.
   * `prepared`: what bringing back its worktree did (a re-creation is said in the outcome's message).
   */
  async startPlanned(
    runId: string,
    agent: AgentRecord,
    plan: SpawnPlan,
    found: boolean,
    prepared: Prepared = NOTHING_PREPARED,
  ): Promise<ResumeOutcome> {
    const ok = await this.launch(runId, agent, plan, found, prepared);
    const base = { agentId: agent.id, label: agent.label, vendor: agent.vendor };
    if (!ok.started) return { ...base, outcome: 'failed', sessionId: currentSessionId(agent), message: ok.message };
    if (plan.outcome === 'fresh' && plan.warning) {
      await this.runs.history(runId, {
        type: 'fresh-fallback',
        agentId: agent.id,
        outcome: 'fresh',
        message: plan.warning,
      });
      this.announce('agent.warning', { runId, agentId: agent.id, message: plan.warning });
    }
    await this.runs.history(runId, {
      type: 'resumed',
      agentId: agent.id,
      outcome: plan.outcome,
      message: `${agent.label} (${agent.vendor}): ${plan.outcome}`,
    });
    const message = [prepared.message, plan.warning].filter((m) => m !== null).join('; ');
    return { ...base, outcome: plan.outcome, sessionId: plan.sessionId, message: message === '' ? null : message };
  }

  async stop(agentId: string): Promise<void> {
    const live = this.running.get(agentId);
    if (!live) return;
    live.stopRequested = true;
    live.unwatch();
    await live.terminal.stop();
    // Let the exit bookkeeping land before the caller reads the manifest.
    await settleWithin(live.settled, 3000);
    if (this.running.get(agentId) === live) this.running.delete(agentId);
  }

  /** A vendor that creates its id before the CLI starts (Cursor's create-chat) can fail here: the agent is failed, not the run. */
  private async planFresh(run: RunManifest, agent: AgentRecord): Promise<SpawnPlan | null> {
    const adapter = this.vendors.get(agent.vendor)!;
    // A remote agent is planned by its host's core, where its CLI and its vendor's store are.
    if (agent.host) return remotePlan(null, 'fresh');
    try {
      return await adapter.spawnFresh(context(run, agent), this.env);
    } catch (err) {
      await this.markFailed(run.id, agent.id, `could not start ${adapter.displayName}: ${(err as Error).message}`);
      return null;
    }
  }

  /** The agent could not start: `failed`, with the reason as its warning and in the history. */
  async markFailed(runId: string, agentId: string, message: string): Promise<void> {
    await this.record.failed(runId, agentId, message);
  }

  /**
   * Spawns the plan and records it; a CLI that cannot start leaves the agent `failed` with the reason. A resumed id is
   * recorded as confirmed only if the planner found it in the vendor's store (a same-id respawn of a session in
   * which nothing was said is not).
   */
  private async launch(
    runId: string,
    agent: AgentRecord,
    plan: SpawnPlan,
    found: boolean,
    prepared: Prepared = NOTHING_PREPARED,
    onHost?: HostWorktreeIntent,
  ): Promise<Started> {
    const adapter = this.vendors.get(agent.vendor)!;
    let live: LiveAgent;
    let settle = () => {};
    const settled = new Promise<void>((r) => (settle = r));
    // The vendor's own signal reaches the core through `baton hook` (docs/attention.md §4): argv words after the
    // binary and the agent's id and secret in its environment, for this spawn only.
    const report =
      agent.host && this.remote
        ? this.attention.prepareRemote(runId, agent.id, adapter)
        : this.attention.prepare(runId, agent.id, adapter);
    const [bin, ...rest] = plan.argv;
    const wired: SpawnPlan =
      bin === undefined ? plan : { ...plan, argv: [bin, ...report.args, ...rest], env: { ...plan.env, ...report.env } };
    try {
      const hooks: LaunchHooks = {
        // Called from the terminal's events, where a rejection would end the process: each is caught here.
        onSession: (seen) => {
          this.record
            .sessionSeen(runId, agent.id, seen, plan)
            .catch((err: unknown) => logFailure(`recording a session id of ${agent.label}`, err));
        },
        onAttention: (attention) => this.attention.relayed(agent.id, attention),
        onChanges: (files) => this.announce('agent.changes', { runId, agentId: agent.id, files }),
        onExit: (exit, rejected) => {
          this.attention.exited(agent.id);
          this.exited(runId, agent.id, exit.exitCode, rejected)
            .catch((err: unknown) => logFailure(`recording the exit of ${agent.label}`, err))
            .finally(settle);
        },
      };
      live =
        agent.host && this.remote
          ? // A remote agent's hooks would reach its own host's core, not this one: its plan goes unwired.
            await this.remote.launchPlanned(runId, { ...agent, host: agent.host }, adapter, plan, hooks, {
              runName: this.runs.get(runId)?.name ?? runId,
              ...(onHost ? { worktree: onHost } : {}),
            })
          : await this.launcher.launch(adapter, wired, agent.cwd, hooks);
    } catch (err) {
      const message =
        err instanceof LaunchError ? err.message : `could not start ${adapter.displayName}: ${(err as Error).message}`;
      this.attention.exited(agent.id);
      await this.markFailed(runId, agent.id, message);
      return { started: false, message };
    }
    // Before the CLI's first output reaches the pane: what was made for it (its worktree, the setup's output).
    for (const line of prepared.notices) live.terminal.notice(line);
    if (prepared.warning) live.terminal.notice(prepared.warning);
    const previous = this.lastTerminal.get(agent.id);
    if (previous) this.launcher.release(previous);
    this.lastTerminal.set(agent.id, live.terminal);
    this.attention.started(agent.id, live.terminal, plan.hints ?? {});
    // A remote agent runs where its host's core put it (its worktree there): recorded here, watched there.
    if (live.placed) agent = await this.record.placed(runId, agent, live.placed);
    const unwatch = agent.worktree && !agent.host ? this.worktrees.watch(runId, agent.id, agent.worktree) : () => {};
    this.running.set(agent.id, Object.assign(live, { runId, settled, unwatch }));
    const confirmed = plan.outcome === 'resumed' && plan.sessionId !== null && found;
    const warning = [prepared.warning, plan.warning].filter((w) => w !== null).join(' ');
    await this.record.started(runId, agent, plan, confirmed, warning, live.terminal.id);
    return { started: true };
  }

  private async exited(runId: string, agentId: string, exitCode: number, resumeRejected: boolean): Promise<void> {
    const live = this.running.get(agentId);
    live?.unwatch();
    if (!this.runs.get(runId)) return;
    const stopped = live?.stopRequested ?? false;
    const label = await this.record.exited(runId, agentId, exitCode, stopped, live?.terminal.id ?? null);
    if (resumeRejected && !this.closing) {
      await this.freshAfterRejectedResume(runId, agentId);
      return;
    }
    // A failed write was already reported by the store; anything else is worth a line in the log.
    if (!stopped && !this.closing)
      await this.snapshotAfterExit(runId).catch((err: unknown) =>
        logFailure(`the snapshot after ${label} exited`, err),
      );
    if (live && this.running.get(agentId) === live) this.running.delete(agentId);
  }

  /** The vendor refused a session it seemed to have: start fresh, and say so in the pane and the history. */
  private async freshAfterRejectedResume(runId: string, agentId: string): Promise<void> {
    const run = this.runs.get(runId)!;
    const agent = run.agents.find((a) => a.id === agentId)!;
    const adapter = this.vendors.get(agent.vendor)!;
    const old = currentSessionId(agent);
    const plan = await this.planFresh(run, agent);
    if (!plan) return;
    const warning = `${adapter.displayName} could not resume session ${old ? shortId(old) : '(none)'}; started a fresh conversation in ${agent.cwd}`;
    const ok = await this.launch(runId, agent, { ...plan, outcome: 'fresh', warning }, false);
    if (ok.started) {
      await this.runs.history(runId, { type: 'fresh-fallback', agentId, outcome: 'fresh', message: warning });
      this.announce('agent.warning', { runId, agentId, message: warning });
    }
  }
}

function context(run: RunManifest, agent: AgentRecord): AgentContext {
  return { runName: run.name, label: agent.label, cwd: agent.cwd, args: agent.args, command: agent.command };
}
