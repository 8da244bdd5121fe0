// Named runs of agents: start, add, stop, snapshot, history, handles and resume-by-handle (design.md §1, §4).
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
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
import { RUN_ID } from '../../../shared/words.js';
import { encodeHandle, type HandleAgent } from '../handle/codec.js';
import type { PtyHost } from '../pty/pty-host.js';
import type { AttachStart, Subscription, Terminal } from '../pty/terminal.js';
import type { StreamFrame } from '../pty/subscriber.js';
import type { RunStore } from '../store/run-store.js';
import type { AgentRecord, RunManifest, StoredScreen } from '../store/types.js';
import type { AgentContext, SessionObservation, SpawnPlan, VendorEnv } from '../vendors/adapter.js';
import { getAdapter } from '../vendors/registry.js';
import { launchAgent, LaunchError, type LiveAgent } from './agent-launcher.js';
import { DiscoveryGate } from './discovery-gate.js';
import { conflict, invalid, notFound } from './errors.js';
import { newAgentId, newRunId, newSnapshotId } from './ids.js';
import { checkedDirectory, uniqueLabel } from './validation.js';
import { HandleResolver, type ResumeTarget } from './handle-resolver.js';
import { agentView, currentSessionId, matchesQuery, runSummary, runView } from './views.js';

const PERIODIC_SNAPSHOT_MS = 60_000;
const isDirectory = (path: string) => stat(path).then((s) => s.isDirectory(), () => false);
const now = () => new Date().toISOString();
const short = (id: string) => `${id.slice(0, 8)}…`;

export class RunService {
  private readonly live = new Map<string, LiveAgent & { runId: string; settled: Promise<void> }>();
  /** Each agent's latest terminal, kept after it ends so a pane can still attach and read its last output. */
  private readonly lastTerminal = new Map<string, Terminal>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly emitter = new EventEmitter();
  private readonly periodic: NodeJS.Timeout;
  private readonly resolver: HandleResolver;
  private readonly discovery = new DiscoveryGate();
  private closing = false;

  constructor(
    private readonly store: RunStore,
    private readonly ptyHost: PtyHost,
    private readonly env: VendorEnv,
  ) {
    this.resolver = new HandleResolver(store, env);
    this.periodic = setInterval(() => void this.snapshotChangedRuns(), PERIODIC_SNAPSHOT_MS);
    this.periodic.unref();
  }

  /** Read-only lookups into the run store (they return copies), for session import. */
  get lookups(): Pick<RunStore, 'findAgentBySessionId' | 'findByName'> {
    return this.store;
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  private emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    this.emitter.emit(name, payload);
  }

  // ---------- history ----------

  async listRuns(query?: string): Promise<RunSummary[]> {
    const runs = this.store.list().filter((r) => (query ? matchesQuery(r, query) : true));
    return Promise.all(runs.map(async (r) => runSummary(r, (id) => this.live.has(id), await this.health(r))));
  }

  /** What a resume of this run would find, checked in the vendors' stores without starting any CLI. */
  private async health(run: RunManifest): Promise<RunSummary['health']> {
    if (run.agents.some((a) => this.live.has(a.id))) return 'live';
    let health: RunSummary['health'] = 'resumable';
    for (const a of run.agents) {
      if (!(await isDirectory(a.cwd))) return 'missing';
      const adapter = getAdapter(a.vendor);
      const last = a.sessionIds.at(-1);
      if (adapter?.sessionIdPattern && last?.confirmed && !(await adapter.exists(last.id, a.cwd, this.env))) health = 'stale';
    }
    return health;
  }

  getRun(ref: string): RunView {
    return this.view(this.resolve(ref));
  }

  async events(ref: string): Promise<RunEvent[]> {
    return this.store.readEvents(this.resolve(ref).id);
  }

  /** The run's screens: live from the mirrors, or as its last snapshot recorded them. */
  async screens(ref: string, liveWanted = false): Promise<{ snapshotId: string | null; screens: Screen[] }> {
    const run = this.resolve(ref);
    if (liveWanted) {
      const screens: Screen[] = [];
      for (const agent of run.agents) {
        const terminal = this.lastTerminal.get(agent.id);
        if (terminal) screens.push(await this.captureScreen(agent, terminal));
      }
      return { snapshotId: null, screens };
    }
    if (!run.lastSnapshot) return { snapshotId: null, screens: [] };
    const snap = await this.store.readSnapshot(run.id, run.lastSnapshot.id);
    return { snapshotId: run.lastSnapshot.id, screens: snap?.screens ?? [] };
  }

  async rename(ref: string, name: string): Promise<RunView> {
    const run = this.resolve(ref);
    const other = this.store.findByName(name);
    if (other && other.id !== run.id) throw conflict(`a run named '${name}' already exists`);
    await this.mutate(run.id, (m) => {
      m.name = name;
    });
    await this.event(run.id, { type: 'renamed', message: `renamed to '${name}'` });
    return this.getRun(run.id);
  }

  async delete(ref: string): Promise<string> {
    const run = this.resolve(ref);
    await Promise.all(run.agents.map((a) => this.stopLive(a.id)));
    for (const a of run.agents) {
      const terminal = this.lastTerminal.get(a.id);
      if (terminal) this.ptyHost.release(terminal.id);
      this.lastTerminal.delete(a.id);
    }
    await this.store.delete(run.id);
    this.emit('run.changed', { runId: run.id, deleted: true });
    return run.id;
  }

  // ---------- start / add / stop ----------

  async startRun(name: string, specs: readonly AgentSpec[]): Promise<RunView> {
    if (this.store.findByName(name)) throw conflict(`a run named '${name}' already exists`);
    const agents = await this.newAgentRecords(specs, []);
    const at = now();
    const run: RunManifest = { v: 1, id: newRunId(), name, createdAt: at, updatedAt: at, agents, lastSnapshot: null };
    await this.store.save(run);
    await this.event(run.id, { type: 'started', message: `started with ${agents.length} agent${agents.length === 1 ? '' : 's'}` });
    for (const agent of agents) await this.launchFresh(run.id, agent.id);
    this.emit('run.changed', { runId: run.id });
    return this.getRun(run.id);
  }

  async addAgent(ref: string, spec: AgentSpec): Promise<RunView> {
    const run = this.resolve(ref);
    const [agent] = await this.newAgentRecords([spec], run.agents);
    if (!agent) throw invalid('no agent to add');
    await this.mutate(run.id, (m) => {
      m.agents.push(agent);
    });
    await this.event(run.id, { type: 'agent-added', agentId: agent.id, message: `added ${agent.label} (${agent.vendor})` });
    await this.launchFresh(run.id, agent.id);
    this.emit('run.changed', { runId: run.id });
    return this.getRun(run.id);
  }

  async stopAgent(agentId: string): Promise<AgentView> {
    const { run, agent } = this.findAgent(agentId);
    await this.stopLive(agent.id);
    const updated = this.store.get(run.id)!.agents.find((a) => a.id === agentId)!;
    return agentView(updated, undefined);
  }

  async restartAgent(agentId: string): Promise<RunView> {
    const { run, agent } = this.findAgent(agentId);
    if (this.live.has(agentId)) throw conflict(`agent '${agent.label}' is still running; stop it first`);
    await this.launchFresh(run.id, agentId);
    this.emit('run.changed', { runId: run.id });
    return this.getRun(run.id);
  }

  async stopRun(ref: string): Promise<RunView> {
    const run = this.resolve(ref);
    if (run.agents.some((a) => this.live.has(a.id))) await this.snapshot(run.id, 'quit');
    await Promise.all(run.agents.map((a) => this.stopLive(a.id)));
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
    const terminal = this.lastTerminal.get(agentId);
    if (terminal) return this.captureScreen(agent, terminal);
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
    const terminal = this.lastTerminal.get(agentId);
    if (!terminal) throw conflict(`agent '${this.findAgent(agentId).agent.label}' has not been started since Baton started; resume it first`);
    const sameTerminal = opts.terminalId === undefined || opts.terminalId === terminal.id;
    const from = sameTerminal ? opts.fromOffset : 0;
    const { start, subscription } = await terminal.attach(from, opts.visible ?? true, deliver);
    return { terminalId: terminal.id, start, subscription };
  }

  // ---------- snapshots and handles ----------

  async snapshot(ref: string, reason: SnapshotView['reason'] = 'user'): Promise<SnapshotView> {
    const run = this.resolve(ref);
    return this.enqueue(run.id, () => this.takeSnapshot(run.id, reason));
  }

  async handleFor(ref: string, agentLabel?: string): Promise<string> {
    const runId = this.resolve(ref).id;
    await this.enqueue(runId, () => this.confirmSessions(runId));
    const run = this.resolve(ref);
    const agents = agentLabel === undefined ? run.agents : run.agents.filter((a) => a.label === agentLabel || a.id === agentLabel);
    if (agents.length === 0) throw notFound(`run '${run.name}' has no agent '${agentLabel}'`);
    const handleAgents: HandleAgent[] = agents.map((a) => {
      const sessionId = currentSessionId(a);
      const adapter = getAdapter(a.vendor);
      if (sessionId === null && adapter?.sessionIdPattern) {
        throw conflict(`agent '${a.label}' has no ${a.vendor} session id yet, so it cannot be resumed; try again once it has started`);
      }
      return { id: a.id, label: a.label, vendor: a.vendor, sessionId, cwd: a.cwd };
    });
    return encodeHandle({
      run: { name: run.name, id: run.id },
      createdAt: now(),
      agents: handleAgents,
      scope: agentLabel === undefined ? 'run' : 'agent',
    });
  }

  resumeCommands(ref: string, agentLabel?: string): ResumeCommand[] {
    const run = this.resolve(ref);
    return run.agents
      .filter((a) => agentLabel === undefined || a.label === agentLabel || a.id === agentLabel)
      .map((a) => {
        const adapter = getAdapter(a.vendor);
        const sessionId = currentSessionId(a);
        const argv = a.command ?? (adapter && sessionId ? adapter.resumeCommand(sessionId) : adapter ? [adapter.defaultBin(this.env)] : []);
        return { agentId: a.id, label: a.label, vendor: a.vendor, cwd: a.cwd, argv };
      });
  }

  inspectHandle(text: string, cwd?: string): Promise<HandlePreview> {
    return this.resolver.preview(text, cwd);
  }

  /** Resume every agent of a handle; with the store the run's history continues, without it a run is created. */
  async resume(text: string, cwd?: string): Promise<{ run: RunView; outcomes: ResumeOutcome[] }> {
    const target = await this.resolver.resolve(text, cwd);
    const runId = await this.adoptTarget(target);
    {
      const outcomes: ResumeOutcome[] = [];
      for (const planned of target.agents) {
        const agent = this.store.get(runId)!.agents.find((a) => a.id === planned.agent.id)!;
        if (this.live.has(agent.id)) {
          outcomes.push({ agentId: agent.id, label: agent.label, vendor: agent.vendor, outcome: 'resumed', sessionId: currentSessionId(agent), message: 'already running' });
          continue;
        }
        outcomes.push(await this.launchResumed(runId, agent, planned.plan));
      }
      const counts = ['resumed', 'fresh', 'failed']
        .map((k) => `${outcomes.filter((o) => o.outcome === k).length} ${k}`)
        .join(', ');
      await this.event(runId, { type: 'resumed', message: `resumed from a handle: ${counts}` });
      this.emit('run.changed', { runId });
      return { run: this.getRun(runId), outcomes };
    }
  }

  /** At quit: snapshot what runs, then stop every agent (design §6). */
  async shutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.periodic);
    const runIds = new Set([...this.live.values()].map((l) => l.runId));
    for (const runId of runIds) {
      try {
        await this.snapshot(runId, 'quit');
      } catch (err) {
        process.stderr.write(`baton: could not snapshot a run at quit: ${(err as Error).message}\n`);
      }
    }
    await Promise.all([...this.live.keys()].map((id) => this.stopLive(id)));
    await Promise.all([...this.queues.values()].map((q) => q.catch(() => undefined)));
  }

  // ---------- internals ----------

  private resolve(ref: string): RunManifest {
    const run = RUN_ID.test(ref) ? this.store.get(ref) : this.store.findByName(ref);
    if (!run) throw notFound(`no run named '${ref}'`);
    return run;
  }

  private view(run: RunManifest): RunView {
    return runView(run, (id) => {
      const l = this.live.get(id);
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
    const live = this.live.get(agentId);
    if (live) return live;
    const { agent } = this.findAgent(agentId);
    throw conflict(`agent '${agent.label}' is not running (its terminal has ended); resume or restart it`);
  }

  private async newAgentRecords(specs: readonly AgentSpec[], existing: readonly AgentRecord[]): Promise<AgentRecord[]> {
    const labels = existing.map((a) => a.label);
    const out: AgentRecord[] = [];
    for (const [i, spec] of specs.entries()) {
      const field = `agents[${i}]`;
      const adapter = getAdapter(spec.vendor);
      if (!adapter) throw invalid(`vendor '${spec.vendor}' is not supported yet`, `${field}.vendor`);
      if (spec.command && spec.vendor !== 'shell') throw invalid('only shell agents take a command', `${field}.command`);
      const cwd = await checkedDirectory(spec.cwd, `${field}.cwd`);
      const label = uniqueLabel(spec.label ?? spec.vendor, labels, `${field}.label`, spec.label !== undefined);
      labels.push(label);
      out.push({
        id: newAgentId(),
        label,
        vendor: spec.vendor,
        cwd,
        args: [...(spec.args ?? [])],
        command: spec.command ? [...spec.command] : null,
        sessionIds: [],
        status: 'starting',
        exitCode: null,
        warning: null,
        startedAt: null,
      });
    }
    return out;
  }

  private context(run: RunManifest, agent: AgentRecord): AgentContext {
    return { runName: run.name, label: agent.label, cwd: agent.cwd, args: agent.args, command: agent.command };
  }

  private async launchFresh(runId: string, agentId: string): Promise<void> {
    const run = this.store.get(runId)!;
    const agent = run.agents.find((a) => a.id === agentId)!;
    const plan = await this.planFresh(run, agent);
    if (plan) await this.launch(runId, agent, plan);
  }

  /** A vendor that creates its id before the CLI starts (Cursor's create-chat) can fail here: the agent is failed, not the run. */
  private async planFresh(run: RunManifest, agent: AgentRecord): Promise<SpawnPlan | null> {
    const adapter = getAdapter(agent.vendor)!;
    try {
      return await adapter.spawnFresh(this.context(run, agent), this.env);
    } catch (err) {
      await this.markFailed(run.id, agent.id, `could not start ${adapter.displayName}: ${(err as Error).message}`);
      return null;
    }
  }

  private async markFailed(runId: string, agentId: string, message: string): Promise<void> {
    await this.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId)!;
      a.status = 'failed';
      a.warning = message;
    });
    await this.event(runId, { type: 'agent-failed', agentId, message });
    this.emit('agent.status', { runId, agentId, status: 'failed', terminalId: null, exitCode: null });
  }

  private async launchResumed(runId: string, agent: AgentRecord, plan: SpawnPlan): Promise<ResumeOutcome> {
    const ok = await this.launch(runId, agent, plan);
    const base = { agentId: agent.id, label: agent.label, vendor: agent.vendor };
    if (!ok.started) return { ...base, outcome: 'failed', sessionId: currentSessionId(agent), message: ok.message };
    if (plan.outcome === 'fresh' && plan.warning) {
      await this.event(runId, { type: 'fresh-fallback', agentId: agent.id, outcome: 'fresh', message: plan.warning });
      this.emit('agent.warning', { runId, agentId: agent.id, message: plan.warning });
    }
    await this.event(runId, { type: 'resumed', agentId: agent.id, outcome: plan.outcome, message: `${agent.label} (${agent.vendor}): ${plan.outcome}` });
    return { ...base, outcome: plan.outcome, sessionId: plan.sessionId, message: plan.warning };
  }

  /** Spawns the plan and records it; a CLI that cannot start leaves the agent `failed` with the reason. */
  private async launch(runId: string, agent: AgentRecord, plan: SpawnPlan): Promise<{ started: true } | { started: false; message: string }> {
    const adapter = getAdapter(agent.vendor)!;
    let live: LiveAgent;
    let settle = () => {};
    const settled = new Promise<void>((r) => (settle = r));
    const mustDiscover = plan.sessionId === null && adapter.sessionIdPattern !== null && !adapter.tellsConcurrentSessionsApart;
    const release = mustDiscover ? await this.discovery.acquire(agent.vendor, agent.cwd) : () => {};
    try {
      live = launchAgent(this.ptyHost, adapter, plan, agent.cwd, this.env, {
        onSession: (seen) => {
          release();
          void this.sessionSeen(runId, agent.id, seen, plan);
        },
        onExit: (exit, rejected) => {
          release();
          void this.agentExited(runId, agent.id, exit.exitCode, rejected).finally(settle);
        },
      });
    } catch (err) {
      release();
      const message = err instanceof LaunchError ? err.message : `could not start ${adapter.displayName}: ${(err as Error).message}`;
      await this.markFailed(runId, agent.id, message);
      return { started: false, message };
    }
    const previous = this.lastTerminal.get(agent.id);
    if (previous) this.ptyHost.release(previous.id);
    this.lastTerminal.set(agent.id, live.terminal);
    this.live.set(agent.id, Object.assign(live, { runId, settled }));
    // A resumed id is confirmed only if the vendor holds its transcript (a same-id respawn of an unsaid session does not).
    const confirmed = plan.outcome === 'resumed' && plan.sessionId !== null && (await adapter.exists(plan.sessionId, agent.cwd, this.env));
    await this.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agent.id)!;
      a.status = 'running';
      a.exitCode = null;
      a.startedAt = now();
      a.warning = plan.warning;
      if (plan.sessionId && currentSessionId(a) !== plan.sessionId) {
        a.sessionIds.push({ id: plan.sessionId, chosenBy: plan.chosenBy ?? 'baton', seenAt: now(), confirmed });
      }
    });
    await this.event(runId, { type: 'agent-started', agentId: agent.id, message: `${agent.label} (${agent.vendor}) started in ${agent.cwd}` });
    this.emit('agent.status', { runId, agentId: agent.id, status: 'running', terminalId: live.terminal.id, exitCode: null });
    return { started: true };
  }

  private async sessionSeen(runId: string, agentId: string, seen: SessionObservation, plan: SpawnPlan): Promise<void> {
    if (!this.store.get(runId)) return;
    let changed = false;
    await this.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId);
      if (!a) return;
      const last = a.sessionIds.at(-1);
      if (last?.id === seen.sessionId) {
        if (seen.confirmed && !last.confirmed) last.confirmed = true;
        return;
      }
      changed = true;
      a.sessionIds.push({
        id: seen.sessionId,
        chosenBy: seen.sessionId === plan.sessionId ? (plan.chosenBy ?? 'vendor') : 'vendor',
        seenAt: now(),
        confirmed: seen.confirmed,
      });
    });
    if (changed) {
      await this.event(runId, { type: 'session-id', agentId, sessionId: seen.sessionId });
      this.emit('agent.session', { runId, agentId, sessionId: seen.sessionId });
    }
  }

  private async agentExited(runId: string, agentId: string, exitCode: number, resumeRejected: boolean): Promise<void> {
    const live = this.live.get(agentId);
    if (!this.store.get(runId)) return;
    const stopped = live?.stopRequested ?? false;
    await this.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId);
      if (!a) return;
      a.status = stopped ? 'stopped' : 'exited';
      a.exitCode = exitCode;
    });
    const label = this.store.get(runId)?.agents.find((a) => a.id === agentId)?.label ?? 'agent';
    await this.event(runId, { type: stopped ? 'stopped' : 'exited', agentId, exitCode, message: `${label} ${stopped ? 'stopped' : `exited with code ${exitCode}`}` });
    this.emit('agent.status', { runId, agentId, status: stopped ? 'stopped' : 'exited', terminalId: live?.terminal.id ?? null, exitCode });
    if (resumeRejected && !this.closing) {
      await this.freshAfterRejectedResume(runId, agentId);
      return;
    }
    if (!stopped && !this.closing) await this.snapshot(runId, 'exit').catch(() => undefined);
    if (live && this.live.get(agentId) === live) this.live.delete(agentId);
  }

  /** The vendor refused a session it seemed to have: start fresh, and say so in the pane and the history. */
  private async freshAfterRejectedResume(runId: string, agentId: string): Promise<void> {
    const run = this.store.get(runId)!;
    const agent = run.agents.find((a) => a.id === agentId)!;
    const adapter = getAdapter(agent.vendor)!;
    const old = currentSessionId(agent);
    const plan = await this.planFresh(run, agent);
    if (!plan) return;
    const warning = `${adapter.displayName} could not resume session ${old ? short(old) : '(none)'}; started a fresh conversation in ${agent.cwd}`;
    const ok = await this.launch(runId, agent, { ...plan, outcome: 'fresh', warning });
    if (ok.started) {
      await this.event(runId, { type: 'fresh-fallback', agentId, outcome: 'fresh', message: warning });
      this.emit('agent.warning', { runId, agentId, message: warning });
    }
  }

  private async stopLive(agentId: string): Promise<void> {
    const live = this.live.get(agentId);
    if (!live) return;
    live.stopRequested = true;
    await live.terminal.stop();
    // Let the exit bookkeeping land before the caller reads the manifest.
    await Promise.race([live.settled, new Promise((r) => setTimeout(r, 3000))]);
    if (this.live.get(agentId) === live) this.live.delete(agentId);
  }

  private async captureScreen(agent: AgentRecord, terminal: Terminal): Promise<Screen> {
    const shot = await terminal.capture();
    return { agentId: agent.id, label: agent.label, cols: shot.cols, rows: shot.rows, text: shot.text, serialized: shot.serialized };
  }

  /**
   * Marks ids whose transcript the vendor now holds as confirmed. The follower polls, so a prompt answered
   * just before a snapshot could otherwise be recorded as "never written" and resumed as an empty session.
   */
  private async confirmSessions(runId: string): Promise<void> {
    const run = this.store.get(runId);
    if (!run) return;
    const found = new Set<string>();
    for (const a of run.agents) {
      const last = a.sessionIds.at(-1);
      const adapter = getAdapter(a.vendor);
      if (last && !last.confirmed && adapter && (await adapter.exists(last.id, a.cwd, this.env))) found.add(last.id);
    }
    if (found.size === 0) return;
    await this.saveNow(runId, (m) => {
      for (const a of m.agents) for (const s of a.sessionIds) if (found.has(s.id)) s.confirmed = true;
    });
  }

  private async takeSnapshot(runId: string, reason: SnapshotView['reason']): Promise<SnapshotView> {
    await this.confirmSessions(runId);
    const run = this.store.get(runId);
    if (!run) throw notFound('the run was deleted');
    const previous = run.lastSnapshot ? await this.store.readSnapshot(run.id, run.lastSnapshot.id) : undefined;
    const screens: StoredScreen[] = [];
    for (const agent of run.agents) {
      const terminal = this.lastTerminal.get(agent.id);
      if (terminal) screens.push(await this.captureScreen(agent, terminal));
      else {
        const kept = previous?.screens.find((s) => s.agentId === agent.id);
        if (kept) screens.push(kept);
      }
    }
    const snapshot: SnapshotView = {
      id: newSnapshotId(),
      at: now(),
      reason,
      agents: run.agents.map((a) => ({ agentId: a.id, label: a.label, vendor: a.vendor, cwd: a.cwd, sessionId: currentSessionId(a), status: a.status })),
    };
    await this.store.writeSnapshot(run.id, snapshot, screens);
    const manifest = structuredClone(this.store.get(runId)!);
    manifest.lastSnapshot = { id: snapshot.id, at: snapshot.at };
    manifest.updatedAt = snapshot.at;
    await this.store.save(manifest);
    await this.store.appendEvent(runId, { at: now(), type: 'snapshot', snapshotId: snapshot.id, message: `snapshot (${reason}) of ${screens.length} screen${screens.length === 1 ? '' : 's'}` });
    this.emit('run.changed', { runId });
    return snapshot;
  }

  private async snapshotChangedRuns(): Promise<void> {
    const runIds = new Set([...this.live.values()].map((l) => l.runId));
    for (const runId of runIds) {
      const run = this.store.get(runId);
      if (!run) continue;
      const since = run.lastSnapshot ? Date.parse(run.lastSnapshot.at) : 0;
      const changed = run.agents.some((a) => (this.live.get(a.id)?.terminal.lastOutputAt ?? 0) > since);
      if (changed) await this.snapshot(runId, 'periodic').catch(() => undefined);
    }
  }

  /** Creates the run a handle names if the store lacks it, and adds agents the store does not know. */
  private async adoptTarget(target: ResumeTarget): Promise<string> {
    const at = now();
    const existing = this.store.get(target.runId);
    const records = target.agents.map((t) => t.agent);
    if (!existing) {
      const run: RunManifest = { v: 1, id: target.runId, name: target.runName, createdAt: at, updatedAt: at, agents: records, lastSnapshot: null };
      await this.store.save(run);
      await this.event(run.id, { type: 'started', message: `created from a handle with ${records.length} agent${records.length === 1 ? '' : 's'}` });
      return run.id;
    }
    const unknown = records.filter((r) => !existing.agents.some((a) => a.id === r.id));
    if (unknown.length > 0) {
      await this.mutate(existing.id, (m) => {
        m.agents.push(...unknown);
      });
    }
    return existing.id;
  }

  private async event(runId: string, e: Omit<RunEvent, 'at'>): Promise<void> {
    await this.store.appendEvent(runId, { at: now(), ...e });
  }

  /** Manifest changes of one run happen one at a time, in order. */
  private mutate(runId: string, change: (m: RunManifest) => void): Promise<void> {
    return this.enqueue(runId, () => this.saveNow(runId, change));
  }

  /** Only from inside the run's queue (or before anything else can touch the run). */
  private async saveNow(runId: string, change: (m: RunManifest) => void): Promise<void> {
    const current = this.store.get(runId);
    if (!current) return;
    const next = structuredClone(current);
    change(next);
    next.updatedAt = now();
    await this.store.save(next);
  }

  private enqueue<T>(runId: string, job: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(runId) ?? Promise.resolve();
    const result = previous.catch(() => undefined).then(job);
    const tail = result.catch(() => undefined);
    this.queues.set(runId, tail);
    void tail.then(() => {
      if (this.queues.get(runId) === tail) this.queues.delete(runId);
    });
    return result;
  }
}
