// Named runs of agents: start, add, stop, snapshot, history, handles and resume-by-handle.
// The facade the transports call; the work is done by the parts it wires together over one shared context
// (run-context.ts): the per-run queue (run-queue.ts), agents' launch and exit (agent-lifecycle.ts), snapshots
// (snapshots.ts), resume by handle (handle-resolver.ts, resume-by-handle.ts) and handles out (handle-export.ts).
import { EventEmitter } from 'node:events';
import type {
  AgentSpec,
  AgentView,
  EventName,
  EventPayload,
  HandlePreview,
  ResumeCommand,
  ResumeOutcome,
  RunEvent,
  RunSummary,
  RunView,
  Screen,
  SnapshotView,
} from '../../../shared/contract.js';
import type { PtyHost } from '../pty/pty-host.js';
import type { AttachStart, Subscription } from '../pty/terminal.js';
import type { StreamFrame } from '../pty/subscriber.js';
import type { RunStore } from '../store/run-store.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import { createVendors, type Vendors } from '../vendors/registry.js';
import type { LiveAgent } from './agent-launcher.js';
import { AgentLifecycle } from './agent-lifecycle.js';
import { newAgentRecords } from './agent-records.js';
import { conflict, invalid, notFound } from './errors.js';
import { handleOf, resumeCommandsOf } from './handle-export.js';
import { HandleResolver } from './handle-resolver.js';
import { newRunId } from './ids.js';
import { findRun, now, type RunContext } from './run-context.js';
import { runHealth } from './run-health.js';
import { RunQueue } from './run-queue.js';
import { resumeTarget } from './resume-by-handle.js';
import { captureScreen, Snapshots } from './snapshots.js';
import { checkRoom } from './validation.js';
import { agentView, matchesQuery, runSummary, runView } from './views.js';

export class RunService {
  private readonly emitter = new EventEmitter();
  private readonly ctx: RunContext;
  private readonly agents: AgentLifecycle;
  private readonly snapshots: Snapshots;
  private readonly resolver: HandleResolver;

  constructor(
    private readonly store: RunStore,
    ptyHost: PtyHost,
    private readonly env: VendorEnv,
    /** This core's vendor adapters and their context (claims, caches, timings); tests pass their own. */
    readonly vendors: Vendors = createVendors(),
  ) {
    this.ctx = {
      store,
      ptyHost,
      env,
      vendors,
      queue: new RunQueue(store),
      emit: (name, payload) => {
        this.emitter.emit(name, payload);
      },
      event: async (runId, e) => {
        await store.appendEvent(runId, { at: now(), ...e });
      },
    };
    this.resolver = new HandleResolver(store, env, vendors);
    // An agent that exits on its own is snapshotted; the lifecycle only calls this after construction.
    this.agents = new AgentLifecycle(this.ctx, (runId) => this.snapshots.snapshot(runId, 'exit'));
    this.snapshots = new Snapshots(this.ctx, this.agents);
    // A write the disk refused (full, say) is told to the user once per outage; the run's agents keep running.
    store.onWriteProblem(({ runId, message }) => {
      const agentId = store.get(runId)?.agents[0]?.id;
      if (agentId) this.ctx.emit('agent.warning', { runId, agentId, message });
    });
  }

  /** Read-only lookups into the run store (they return copies), for session import. */
  get lookups(): Pick<RunStore, 'findAgentBySessionId' | 'findByName'> {
    return this.store;
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** Tells every client about a change outside the runs themselves (the interrupted runs: runs/recovery.ts). */
  announce<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.ctx.emit(name, payload);
  }

  /** The agents whose terminals run now, by run: for `core.info`, and what a core restart brings back. */
  liveAgents(): { runId: string; agentIds: string[] }[] {
    return this.store
      .list()
      .map((r) => ({ runId: r.id, agentIds: r.agents.filter((a) => this.agents.isLive(a.id)).map((a) => a.id) }))
      .filter((r) => r.agentIds.length > 0);
  }

  // ---------- history ----------

  async listRuns(query?: string): Promise<RunSummary[]> {
    const isLive = (agentId: string) => this.agents.isLive(agentId);
    const runs = this.store.list().filter((r) => (query ? matchesQuery(r, query) : true));
    return Promise.all(runs.map(async (r) => runSummary(r, isLive, await runHealth(r, isLive, this.env, this.vendors))));
  }

  getRun(ref: string): RunView {
    return this.view(findRun(this.store, ref));
  }

  async events(ref: string): Promise<RunEvent[]> {
    return this.store.readEvents(findRun(this.store, ref).id);
  }

  /** The run's screens: live from the mirrors, or as its last snapshot recorded them. */
  async screens(ref: string, liveWanted = false): Promise<{ snapshotId: string | null; screens: Screen[] }> {
    const run = findRun(this.store, ref);
    if (liveWanted) {
      const screens: Screen[] = [];
      for (const agent of run.agents) {
        const terminal = this.agents.terminalOf(agent.id);
        if (terminal) screens.push(await captureScreen(agent, terminal));
      }
      return { snapshotId: null, screens };
    }
    if (!run.lastSnapshot) return { snapshotId: null, screens: [] };
    const snap = await this.store.readSnapshot(run.id, run.lastSnapshot.id);
    return { snapshotId: run.lastSnapshot.id, screens: snap?.screens ?? [] };
  }

  async rename(ref: string, name: string): Promise<RunView> {
    const run = findRun(this.store, ref);
    const other = this.store.findByName(name);
    if (other && other.id !== run.id) throw conflict(`a run named '${name}' already exists`);
    await this.ctx.queue.mutate(run.id, (m) => {
      m.name = name;
    });
    await this.ctx.event(run.id, { type: 'renamed', message: `renamed to '${name}'` });
    return this.getRun(run.id);
  }

  async delete(ref: string): Promise<string> {
    const run = findRun(this.store, ref);
    await Promise.all(run.agents.map((a) => this.agents.stopLive(a.id)));
    for (const a of run.agents) this.agents.releaseTerminal(a.id);
    await this.store.delete(run.id);
    this.ctx.emit('run.changed', { runId: run.id, deleted: true });
    return run.id;
  }

  // ---------- start / add / stop ----------

  async startRun(name: string, specs: readonly AgentSpec[]): Promise<RunView> {
    if (this.store.findByName(name)) throw conflict(`a run named '${name}' already exists`);
    const agents = await newAgentRecords(specs, [], this.vendors);
    const at = now();
    const run: RunManifest = { v: 1, id: newRunId(), name, createdAt: at, updatedAt: at, agents, lastSnapshot: null };
    await this.store.save(run);
    await this.ctx.event(run.id, { type: 'started', message: `started with ${agents.length} agent${agents.length === 1 ? '' : 's'}` });
    for (const agent of agents) await this.agents.launchFresh(run.id, agent.id);
    this.ctx.emit('run.changed', { runId: run.id });
    return this.getRun(run.id);
  }

  async addAgent(ref: string, spec: AgentSpec): Promise<RunView> {
    const run = findRun(this.store, ref);
    checkRoom(run.agents.length, 1, 'agent');
    const [agent] = await newAgentRecords([spec], run.agents, this.vendors);
    if (!agent) throw invalid('no agent to add');
    await this.ctx.queue.mutate(run.id, (m) => {
      checkRoom(m.agents.length, 1, 'agent'); // again in the queue: a concurrent add or resume may have filled it
      m.agents.push(agent);
    });
    await this.ctx.event(run.id, { type: 'agent-added', agentId: agent.id, message: `added ${agent.label} (${agent.vendor})` });
    await this.agents.launchFresh(run.id, agent.id);
    this.ctx.emit('run.changed', { runId: run.id });
    return this.getRun(run.id);
  }

  async stopAgent(agentId: string): Promise<AgentView> {
    const { run, agent } = this.findAgent(agentId);
    await this.agents.stopLive(agent.id);
    const updated = this.store.get(run.id)!.agents.find((a) => a.id === agentId)!;
    return agentView(updated, undefined);
  }

  async restartAgent(agentId: string): Promise<RunView> {
    const { run, agent } = this.findAgent(agentId);
    if (this.agents.isLive(agentId)) throw conflict(`agent '${agent.label}' is still running; stop it first`);
    await this.agents.launchFresh(run.id, agentId);
    this.ctx.emit('run.changed', { runId: run.id });
    return this.getRun(run.id);
  }

  async stopRun(ref: string): Promise<RunView> {
    const run = findRun(this.store, ref);
    if (run.agents.some((a) => this.agents.isLive(a.id))) await this.snapshot(run.id, 'quit');
    await Promise.all(run.agents.map((a) => this.agents.stopLive(a.id)));
    return this.getRun(run.id);
  }

  // ---------- terminals ----------

  write(agentId: string, data: string): void {
    this.liveAgent(agentId).terminal.write(data);
  }

  /** Types text, then Enter after the vendor's pause: TUIs take a burst ending in Enter as a paste. */
  async send(agentId: string, text: string): Promise<void> {
    const live = this.liveAgent(agentId);
    live.terminal.write(text);
    await new Promise((r) => setTimeout(r, Math.max(live.adapter.submitDelayMs, 50)));
    live.terminal.write('\r');
  }

  resize(agentId: string, cols: number, rows: number): void {
    this.liveAgent(agentId).terminal.resize(cols, rows);
  }

  async agentScreen(agentId: string): Promise<Screen> {
    const { agent, run } = this.findAgent(agentId);
    const terminal = this.agents.terminalOf(agentId);
    if (terminal) return captureScreen(agent, terminal);
    const snap = run.lastSnapshot ? await this.store.readSnapshot(run.id, run.lastSnapshot.id) : undefined;
    const stored = snap?.screens.find((s) => s.agentId === agentId);
    if (!stored) throw notFound(`agent '${agent.label}' is not running and no snapshot holds its screen`);
    return stored;
  }

  /**
   * One call both catches the client up and subscribes it: the bytes after `fromOffset` (or a reset to
   * the mirror's screen when they are gone, or when the client's terminal is not the current one).
   */
  async attach(
    agentId: string,
    opts: { terminalId?: string; fromOffset?: number; visible?: boolean },
    deliver: (frame: StreamFrame) => void,
  ): Promise<{ terminalId: string; start: AttachStart; subscription: Subscription }> {
    const terminal = this.agents.terminalOf(agentId);
    if (!terminal) throw conflict(`agent '${this.findAgent(agentId).agent.label}' has not been started since Baton started; resume it first`);
    const sameTerminal = opts.terminalId === undefined || opts.terminalId === terminal.id;
    const from = sameTerminal ? opts.fromOffset : 0;
    const { start, subscription } = await terminal.attach(from, opts.visible ?? true, deliver);
    return { terminalId: terminal.id, start, subscription };
  }

  // ---------- snapshots and handles ----------

  async snapshot(ref: string, reason: SnapshotView['reason'] = 'user'): Promise<SnapshotView> {
    return this.snapshots.snapshot(ref, reason);
  }

  async handleFor(ref: string, agentLabel?: string): Promise<string> {
    const runId = findRun(this.store, ref).id;
    await this.ctx.queue.enqueue(runId, () => this.snapshots.confirmSessions(runId));
    return handleOf(findRun(this.store, ref), this.vendors, agentLabel);
  }

  resumeCommands(ref: string, agentLabel?: string): ResumeCommand[] {
    return resumeCommandsOf(findRun(this.store, ref), this.env, this.vendors, agentLabel);
  }

  inspectHandle(text: string, cwd?: string): Promise<HandlePreview> {
    return this.resolver.preview(text, cwd);
  }

  /**
   * Resume every agent of a handle; with the store the run's history continues, without it a run is created.
   * `confirmShell`: the handle indexes of the shell agents the user confirmed; the others are not started.
   */
  async resume(text: string, cwd?: string, confirmShell: readonly number[] = []): Promise<{ run: RunView; outcomes: ResumeOutcome[] }> {
    const target = await this.resolver.resolve(text, cwd);
    const { runId, outcomes } = await resumeTarget(this.ctx, this.agents, target, new Set(confirmShell));
    return { run: this.getRun(runId), outcomes };
  }

  /** At quit: snapshot what runs, stop every agent, and write what the disk refused earlier if it now can. */
  async shutdown(): Promise<void> {
    this.agents.beginShutdown();
    this.snapshots.stopPeriodic();
    for (const runId of this.agents.liveRunIds()) {
      try {
        await this.snapshot(runId, 'quit');
      } catch (err) {
        process.stderr.write(`baton: could not snapshot a run at quit: ${(err as Error).message}\n`);
      }
    }
    await Promise.all(this.agents.liveAgentIds().map((id) => this.agents.stopLive(id)));
    await this.ctx.queue.drain();
    await this.store.flush();
    this.store.close();
    for (const runId of this.store.unsaved()) {
      const name = this.store.get(runId)?.name ?? runId;
      process.stderr.write(`baton: run '${name}': its latest changes could not be saved (see above); its last saved state is kept\n`);
    }
  }

  // ---------- internals ----------

  private view(run: RunManifest): RunView {
    return runView(run, (id) => {
      const l = this.agents.live(id);
      return l ? { terminalId: l.terminal.id, pid: l.terminal.pid } : undefined;
    });
  }

  private findAgent(agentId: string): { run: RunManifest; agent: AgentRecord } {
    for (const run of this.store.list()) {
      const agent = run.agents.find((a) => a.id === agentId);
      if (agent) return { run, agent };
    }
    throw notFound('no such agent');
  }

  private liveAgent(agentId: string): LiveAgent {
    const live = this.agents.live(agentId);
    if (live) return live;
    const { agent } = this.findAgent(agentId);
    throw conflict(`agent '${agent.label}' is not running (its terminal has ended); resume or restart it`);
  }
}
