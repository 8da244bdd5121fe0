// Named runs of agents: the run requests of the contract (run.*, agent.*, handle.inspect, sessions.*), answered
// under their own names (`requests`, typed by the contract), over the parts the core host gives it: the run
// repository (the store and each run's queue: every write), the resume planner (handle → plan, no side effect), the
// agent supervisor (launch, follow, exit, fallback, stop), the agent starter (a resolved handle's agents, started)
// and the snapshots (docs/architecture.md §3, §5).
import type { EventEmitter } from 'node:events';
import type { EventName, EventPayload, Method, RequestTable, RunView } from '../../../shared/contract.js';
import type { StreamConsumer, StreamFrame } from '../pty/subscriber.js';
import type { AttachStart, Subscription } from '../pty/terminal.js';
import type { CostService } from '../cost/cost-service.js';
import { ListCosts } from '../cost/list-costs.js';
import type { RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import type { LiveAgent } from './agent-launcher.js';
import { AgentStarter } from './agent-starter.js';
import { agentWorktreeRequests } from './agent-worktree-requests.js';
import type { AgentSupervisor } from './agent-supervisor.js';
import type { AgentWorktrees } from './agent-worktrees.js';
import { conflict, invalid } from './errors.js';
import { handleOf, resumeCommandsOf } from './handle-export.js';
import { sendText } from './agent-send.js';
import { newRunId } from './ids.js';
import type { ForkMethod } from './run-fork.js';
import type { ResumePlanner } from './resume-planner.js';
import { RunHealth } from './run-health.js';
import { runsAfter } from './list-page.js';
import { listWaitMs } from './list-wait.js';
import { startTogether } from './start-together.js';
import { now, type RunRepository } from './run-repository.js';
import { adoptSessions, listFoundSessions } from './session-import.js';
import type { Snapshots } from './snapshots.js';
import { checkRoom, newAgentRecords } from './validation.js';
import { agentView, matchesQuery, runSummary, runView, type AttentionOf } from './views.js';
import type { AttentionService } from '../attention/attention-service.js';

/** agent.attach and agent.detach change one client's own output streams: its session answers them, with `attach`. */
export type StreamMethod = 'agent.attach' | 'agent.detach';
/** The requests the run service answers. */
export type RunMethod = Exclude<
  Extract<Method, `run.${string}` | `agent.${string}` | `handle.${string}` | `sessions.${string}`>,
  StreamMethod | ForkMethod
>;

export class RunService {
  /** Stopped runs' health for `run.list`, kept per run version (run-health.ts). */
  private readonly health = new RunHealth(
    (run, dirs) => this.planner.health(run, () => false, dirs),
    (runId) => this.announce('run.changed', { runId }),
  );
  /** The runs' cost sums `run.list` gives (cost/list-costs.ts); saved for the next core once `warmCosts` names a file. */
  private costs: ListCosts;
  /** Starts a resolved handle's agents (run.resume). */
  private readonly starter: AgentStarter;

  constructor(
    private readonly runs: RunRepository,
    private readonly planner: ResumePlanner,
    private readonly agents: AgentSupervisor,
    private readonly snapshots: Snapshots,
    /** This core's vendor adapters and their context (claims, caches, timings). */
    readonly vendors: Vendors,
    private readonly env: VendorEnv,
    /** Where the parts announce changes (views.ts `Announce`); clients listen through `on`. */
    private readonly events: EventEmitter,
    /** The agents' own git worktrees (changes, merge, removal; the host answers `worktree.*` through its table). */
    readonly worktrees: AgentWorktrees,
    /** What the agents cost, read from the vendors' transcripts (docs/cost.md). */
    private readonly cost: CostService,
    /** Each agent's attention state (the host answers `attention.*` through its table; docs/attention.md). */
    readonly attention: AttentionService,
  ) {
    this.costs = new ListCosts(cost);
    this.starter = new AgentStarter(runs, planner, agents, (runId) => this.announce('run.changed', { runId }));
  }

  private readonly attentionOf: AttentionOf = (agent) => this.attention.view(agent);

  /** Every run request, by its name in the contract: the transport dispatches here as is. */
  readonly requests: RequestTable<RunMethod> = {
    'run.list': async ({ query, runs: named, limit, after, states }) => {
      const isLive = (agentId: string) => this.agents.isLive(agentId);
      // `runs`: the page asks for the runs an event named, not all 10,000 (docs/performance.md "Idle and start");
      // `limit`: its first screen, newest first as the store keeps them, before the whole list.
      const only = named && new Set(named);
      const matching = runsAfter(this.runs.peek(), after).filter(
        (r) => (!query || matchesQuery(r, query)) && (!only || only.has(r.id)),
      );
      const runs = limit === undefined ? matching : matching.slice(0, limit);
      const costs = this.costs.of(runs, (runIds) => this.announce('cost.changed', { runIds }));
      // A long list waits for health checks within a budget: a late answer follows as `run.changed` (runs/list-wait.ts).
      const health = await this.health.of(runs, isLive, listWaitMs(runs.length));
      const cost = await costs;
      const withStates = states !== false;
      return runs.map((r, i) => runSummary(r, isLive, health[i]!, this.attentionOf, cost.get(r.id), withStates));
    },
    'run.cost': async ({ run }) => this.cost.runCost(this.runs.find(run)),
    'run.get': async ({ run }) => this.view(run),
    'run.events': async ({ run }) => this.runs.readEvents(this.runs.find(run).id),
    'run.screens': ({ run, live }) => this.snapshots.screens(run, live ?? false),
    'run.start': async ({ name, agents: specs }) => {
      if (this.runs.findByName(name)) throw conflict(`a run named '${name}' already exists`);
      const added = await newAgentRecords(specs, [], this.vendors, this.worktrees);
      const agents = added.map((a) => a.agent);
      const at = now();
      const run: RunManifest = { v: 1, id: newRunId(), name, createdAt: at, updatedAt: at, agents, lastSnapshot: null };
      await this.runs.create(run, `started with ${agents.length} agent${agents.length === 1 ? '' : 's'}`);
      // Each agent's worktree is made just before it starts: one that cannot be made fails that agent, not the run.
      await startTogether(
        added,
        (a) => a.worktree !== null && a.worktree !== undefined,
        ({ agent, worktree }) => this.agents.startFresh(run.id, agent.id, worktree ?? undefined),
      );
      return this.changed(run.id);
    },
    'run.snapshot': ({ run }) => this.snapshots.snapshot(run, 'user'),
    'run.rename': async ({ run: ref, name }) => {
      const run = this.runs.find(ref);
      const other = this.runs.findByName(name);
      if (other && other.id !== run.id) throw conflict(`a run named '${name}' already exists`);
      await this.runs.update(run.id, (m) => {
        m.name = name;
      });
      await this.runs.history(run.id, { type: 'renamed', message: `renamed to '${name}'` });
      return this.view(run.id);
    },
    'run.delete': async ({ run: ref, removeWorktrees }) => {
      const run = this.runs.find(ref);
      // Uncommitted work in a worktree refuses the whole delete, before any agent is stopped.
      if (removeWorktrees === true) await this.worktrees.checkRemovable(run.agents);
      if (removeWorktrees === true) await this.agents.checkRemovableOnHosts(run);
      await Promise.all(run.agents.map((a) => this.agents.stop(a.id)));
      for (const a of run.agents) this.agents.releaseTerminal(a.id);
      await this.agents.deleteRemoteRuns(run, removeWorktrees === true);
      if (removeWorktrees === true) {
        // A worktree that could not go (changed since the check, say) is left as an orphan: `worktrees.orphans` lists it.
        for (const kept of await this.worktrees.removeAll(run.agents))
          process.stderr.write(`baton: run '${run.name}': a worktree was kept: ${kept}\n`);
      }
      await this.runs.delete(run.id);
      this.health.forget(run.id);
      this.costs.forget(run.id);
      this.announce('run.changed', { runId: run.id, deleted: true });
      return { deleted: run.id };
    },
    'run.stop': async ({ run: ref }) => {
      const run = this.runs.find(ref);
      if (run.agents.some((a) => this.agents.isLive(a.id))) await this.snapshots.snapshot(run.id, 'quit');
      await Promise.all(run.agents.map((a) => this.agents.stop(a.id)));
      return this.view(run.id);
    },
    'run.handle': async ({ run, agent }) => {
      await this.snapshots.confirmed(this.runs.find(run).id);
      return { handle: handleOf(this.runs.find(run), this.vendors, agent) };
    },
    'run.commands': async ({ run, agent }) => resumeCommandsOf(this.runs.find(run), this.env, this.vendors, agent),
    'run.resume': async ({ handle, cwd, confirmShell = [], repoMap, hostMap }) => {
      const { runId, outcomes } = await this.starter.startTarget(
        await this.planner.resolve(handle, cwd, repoMap, hostMap),
        new Set(confirmShell),
        repoMap,
      );
      return { run: this.view(runId), outcomes };
    },
    'handle.inspect': ({ handle, cwd, repoMap, hostMap }) => this.planner.preview(handle, cwd, repoMap, hostMap),
    'agent.add': async ({ run: ref, agent: spec }) => {
      const run = this.runs.find(ref);
      checkRoom(run.agents.length, 1, 'agent');
      const [added] = await newAgentRecords([spec], run.agents, this.vendors, this.worktrees);
      if (!added) throw invalid('no agent to add');
      const { agent } = added;
      await this.runs.addAgents(run.id, [agent], 'agent');
      await this.runs.history(run.id, {
        type: 'agent-added',
        agentId: agent.id,
        message: `added ${agent.label} (${agent.vendor})`,
      });
      await this.agents.startFresh(run.id, agent.id, added.worktree ?? undefined);
      return this.changed(run.id);
    },
    'agent.stop': async ({ agentId }) => {
      const { run } = this.runs.findAgent(agentId);
      await this.agents.stop(agentId);
      return agentView(
        this.runs.get(run.id)!.agents.find((a) => a.id === agentId)!,
        undefined,
        this.attentionOf,
      );
    },
    'agent.restart': async ({ agentId }) => {
      const { run, agent } = this.runs.findAgent(agentId);
      if (this.agents.isLive(agentId)) throw conflict(`agent '${agent.label}' is still running; stop it first`);
      await this.agents.startFresh(run.id, agentId);
      return this.changed(run.id);
    },
    'agent.write': async ({ agentId, data }) => {
      this.liveAgent(agentId).terminal.write(data);
      this.attention.input(agentId, data);
      return {};
    },
    // Types text, then Enter after the vendor's pause from the text's echo: TUIs take a burst ending in Enter as a
    // paste. A CLI just started is first given time to take input (input-ready.ts), or its Enter is lost.
    'agent.send': async ({ agentId, text }) => {
      await sendText(() => this.liveAgent(agentId), text);
      this.attention.input(agentId, '\r');
      return {};
    },
    'agent.resize': async ({ agentId, cols, rows }) => {
      this.liveAgent(agentId).terminal.resize(cols, rows);
      return {};
    },
    'agent.screen': ({ agentId }) => this.snapshots.agentScreen(agentId),
    ...agentWorktreeRequests(() => ({ runs: this.runs, agents: this.agents, worktrees: this.worktrees })),
    'sessions.list': (params) => listFoundSessions(this.env, this.runs, params, this.vendors.adapters),
    // A new run from found sessions goes through run.resume: the same validation, plan and outcomes.
    'sessions.adopt': (params) =>
      adoptSessions({ resume: (handle) => this.requests['run.resume']({ handle }) }, this.runs, params),
  };

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.events.on(name, listener);
    return () => this.events.off(name, listener);
  }

  /** Checks every stored run's health in the background; `file`: where the answers are kept for the next core. */
  warmHealth(file: string | null = null): void {
    this.health.warm(this.runs.peek(), file);
  }

  /** Takes the stopped runs' cost sums the last core saved in `file`, and keeps them there for the next. */
  warmCosts(file: string): void {
    this.costs = new ListCosts(this.cost, file);
    this.costs.warm(this.runs.peek(), (runIds) => this.announce('cost.changed', { runIds }));
  }

  /** Resolves once every background health check started so far is done (for tests and the bench). */
  healthSettled(): Promise<void> {
    return this.health.settled();
  }

  /** Tells every client about a change outside the runs themselves (the interrupted runs: runs/recovery.ts). */
  announce<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.events.emit(name, payload);
  }

  /** The agents whose terminals run now, by run: for `core.info`, and what a core restart brings back. */
  liveAgents(): { runId: string; agentIds: string[] }[] {
    return this.runs
      .peek()
      .map((r) => ({ runId: r.id, agentIds: r.agents.filter((a) => this.agents.isLive(a.id)).map((a) => a.id) }))
      .filter((r) => r.agentIds.length > 0);
  }

  /**
   * One call both catches the client up and subscribes it: the bytes after `fromOffset` (or a reset to the
   * mirror's screen when they are gone, or when the client's terminal is not the current one).
   */
  async attach(
    agentId: string,
    opts: {
      terminalId?: string;
      fromOffset?: number;
      visible?: boolean;
      consumer?: StreamConsumer;
      scrollback?: number;
    },
    deliver: (frame: StreamFrame) => void,
  ): Promise<{ terminalId: string; start: AttachStart; subscription: Subscription }> {
    const terminal = this.agents.terminalOf(agentId);
    if (!terminal)
      throw conflict(
        `agent '${this.runs.findAgent(agentId).agent.label}' has not been started since Baton started; resume it first`,
      );
    const sameTerminal = opts.terminalId === undefined || opts.terminalId === terminal.id;
    const { start, subscription } = await terminal.attach(
      sameTerminal ? opts.fromOffset : 0,
      opts.visible ?? true,
      deliver,
      opts.consumer,
      opts.scrollback,
    );
    return { terminalId: terminal.id, start, subscription };
  }

  /** At quit: snapshot what runs, stop every agent, and write what the disk refused earlier if it now can. */
  async shutdown(): Promise<void> {
    this.agents.beginShutdown();
    this.snapshots.stopPeriodic();
    for (const runId of this.agents.liveRunIds()) {
      try {
        await this.snapshots.snapshot(runId, 'quit');
      } catch (err) {
        process.stderr.write(`baton: could not snapshot a run at quit: ${(err as Error).message}\n`);
      }
    }
    await Promise.all(this.agents.liveAgentIds().map((id) => this.agents.stop(id)));
    // The runs' health and cost sums learned in the last seconds, for the next core's first list (caches only).
    await Promise.all([this.health.flush(), this.costs.flush()]).catch((err: unknown) =>
      process.stderr.write(`baton: could not save the runs' health or costs: ${(err as Error).message}\n`),
    );
    for (const name of await this.runs.close()) {
      process.stderr.write(
        `baton: run '${name}': its latest changes could not be saved (see above); its last saved state is kept\n`,
      );
    }
  }

  private view(ref: string): RunView {
    return runView(
      this.runs.find(ref),
      (id) => {
        const l = this.agents.live(id);
        return l ? { terminalId: l.terminal.id, pid: l.terminal.pid } : undefined;
      },
      this.attentionOf,
    );
  }

  /** After agents were started: clients refresh the run. */
  private changed(runId: string): RunView {
    this.announce('run.changed', { runId });
    return this.view(runId);
  }

  private liveAgent(agentId: string): LiveAgent {
    const live = this.agents.live(agentId);
    if (live) return live;
    throw conflict(
      `agent '${this.runs.findAgent(agentId).agent.label}' is not running (its terminal has ended); resume or restart it`,
    );
  }
}
