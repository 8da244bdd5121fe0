// Launching an agent's CLI and what follows: the vendor session ids it reports, its exit, a resume the vendor
// refuses, a stop Baton asks for. Holds which agents are live and each agent's latest terminal.
import type { ResumeOutcome } from '../../../shared/contract.js';
import type { Terminal } from '../pty/terminal.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { AgentContext, SessionObservation, SpawnPlan } from '../vendors/adapter.js';
import { shortId } from '../vendors/kit/ids.js';
import { launchAgent, LaunchError, type LiveAgent } from './agent-launcher.js';
import { DiscoveryGate } from './discovery-gate.js';
import { logFailure, now, type RunContext } from './run-context.js';
import { currentSessionId } from './views.js';

/** A live agent with its run; `settled` resolves once its exit has been recorded. */
export type RunningAgent = LiveAgent & { runId: string; settled: Promise<void> };

export class AgentLifecycle {
  private readonly running = new Map<string, RunningAgent>();
  /** Each agent's latest terminal, kept after it ends so a pane can still attach and read its last output. */
  private readonly lastTerminal = new Map<string, Terminal>();
  private readonly discovery = new DiscoveryGate();
  private closing = false;

  constructor(
    private readonly ctx: RunContext,
    /** The snapshot taken when an agent exits on its own (not when Baton stopped it). */
    private readonly snapshotAfterExit: (runId: string) => Promise<unknown>,
  ) {}

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
  terminalOf(agentId: string): Terminal | undefined {
    return this.lastTerminal.get(agentId);
  }

  /** Lets the PTY host drop an ended agent's terminal (its run is being deleted). */
  releaseTerminal(agentId: string): void {
    const terminal = this.lastTerminal.get(agentId);
    if (terminal) this.ctx.ptyHost.release(terminal.id);
    this.lastTerminal.delete(agentId);
  }

  /** From now on an exit is the quit's doing: no fresh start after a refused resume, no exit snapshot. */
  beginShutdown(): void {
    this.closing = true;
  }

  async launchFresh(runId: string, agentId: string): Promise<void> {
    const run = this.ctx.store.get(runId)!;
    const agent = run.agents.find((a) => a.id === agentId)!;
    const plan = await this.planFresh(run, agent);
    if (plan) await this.launch(runId, agent, plan);
  }

  async launchResumed(runId: string, agent: AgentRecord, plan: SpawnPlan): Promise<ResumeOutcome> {
    const ok = await this.launch(runId, agent, plan);
    const base = { agentId: agent.id, label: agent.label, vendor: agent.vendor };
    if (!ok.started) return { ...base, outcome: 'failed', sessionId: currentSessionId(agent), message: ok.message };
    if (plan.outcome === 'fresh' && plan.warning) {
      await this.ctx.event(runId, { type: 'fresh-fallback', agentId: agent.id, outcome: 'fresh', message: plan.warning });
      this.ctx.emit('agent.warning', { runId, agentId: agent.id, message: plan.warning });
    }
    await this.ctx.event(runId, { type: 'resumed', agentId: agent.id, outcome: plan.outcome, message: `${agent.label} (${agent.vendor}): ${plan.outcome}` });
    return { ...base, outcome: plan.outcome, sessionId: plan.sessionId, message: plan.warning };
  }

  async stopLive(agentId: string): Promise<void> {
    const live = this.running.get(agentId);
    if (!live) return;
    live.stopRequested = true;
    await live.terminal.stop();
    // Let the exit bookkeeping land before the caller reads the manifest.
    await Promise.race([live.settled, new Promise((r) => setTimeout(r, 3000))]);
    if (this.running.get(agentId) === live) this.running.delete(agentId);
  }

  /** A vendor that creates its id before the CLI starts (Cursor's create-chat) can fail here: the agent is failed, not the run. */
  private async planFresh(run: RunManifest, agent: AgentRecord): Promise<SpawnPlan | null> {
    const adapter = this.ctx.vendors.get(agent.vendor)!;
    try {
      return await adapter.spawnFresh(context(run, agent), this.ctx.env);
    } catch (err) {
      await this.markFailed(run.id, agent.id, `could not start ${adapter.displayName}: ${(err as Error).message}`);
      return null;
    }
  }

  private async markFailed(runId: string, agentId: string, message: string): Promise<void> {
    await this.ctx.queue.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId)!;
      a.status = 'failed';
      a.warning = message;
    });
    await this.ctx.event(runId, { type: 'agent-failed', agentId, message });
    this.ctx.emit('agent.status', { runId, agentId, status: 'failed', terminalId: null, exitCode: null });
  }

  /** Spawns the plan and records it; a CLI that cannot start leaves the agent `failed` with the reason. */
  private async launch(runId: string, agent: AgentRecord, plan: SpawnPlan): Promise<{ started: true } | { started: false; message: string }> {
    const adapter = this.ctx.vendors.get(agent.vendor)!;
    let live: LiveAgent;
    let settle = () => {};
    const settled = new Promise<void>((r) => (settle = r));
    const mustDiscover = plan.sessionId === null && adapter.sessionIdPattern !== null && !adapter.tellsConcurrentSessionsApart;
    const release = mustDiscover ? await this.discovery.acquire(agent.vendor, agent.cwd) : () => {};
    try {
      live = launchAgent(this.ctx.ptyHost, adapter, plan, agent.cwd, this.ctx.env, {
        // Called from the terminal's events, where a rejection would end the process: each is caught here.
        onSession: (seen) => {
          release();
          this.sessionSeen(runId, agent.id, seen, plan).catch((err: unknown) => logFailure(`recording a session id of ${agent.label}`, err));
        },
        onExit: (exit, rejected) => {
          release();
          this.agentExited(runId, agent.id, exit.exitCode, rejected)
            .catch((err: unknown) => logFailure(`recording the exit of ${agent.label}`, err))
            .finally(settle);
        },
      });
    } catch (err) {
      release();
      const message = err instanceof LaunchError ? err.message : `could not start ${adapter.displayName}: ${(err as Error).message}`;
      await this.markFailed(runId, agent.id, message);
      return { started: false, message };
    }
    const previous = this.lastTerminal.get(agent.id);
    if (previous) this.ctx.ptyHost.release(previous.id);
    this.lastTerminal.set(agent.id, live.terminal);
    this.running.set(agent.id, Object.assign(live, { runId, settled }));
    // A resumed id is confirmed only if the vendor holds its transcript (a same-id respawn of an unsaid session does not).
    const confirmed = plan.outcome === 'resumed' && plan.sessionId !== null && (await adapter.exists(plan.sessionId, agent.cwd, this.ctx.env));
    await this.ctx.queue.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agent.id)!;
      a.status = 'running';
      a.exitCode = null;
      a.startedAt = now();
      a.warning = plan.warning;
      if (plan.sessionId && currentSessionId(a) !== plan.sessionId) {
        a.sessionIds.push({ id: plan.sessionId, chosenBy: plan.chosenBy ?? 'baton', seenAt: now(), confirmed });
      }
    });
    await this.ctx.event(runId, { type: 'agent-started', agentId: agent.id, message: `${agent.label} (${agent.vendor}) started in ${agent.cwd}` });
    this.ctx.emit('agent.status', { runId, agentId: agent.id, status: 'running', terminalId: live.terminal.id, exitCode: null });
    return { started: true };
  }

  private async sessionSeen(runId: string, agentId: string, seen: SessionObservation, plan: SpawnPlan): Promise<void> {
    if (!this.ctx.store.get(runId)) return;
    let changed = false;
    await this.ctx.queue.mutate(runId, (m) => {
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
      await this.ctx.event(runId, { type: 'session-id', agentId, sessionId: seen.sessionId });
      this.ctx.emit('agent.session', { runId, agentId, sessionId: seen.sessionId });
    }
  }

  private async agentExited(runId: string, agentId: string, exitCode: number, resumeRejected: boolean): Promise<void> {
    const live = this.running.get(agentId);
    if (!this.ctx.store.get(runId)) return;
    const stopped = live?.stopRequested ?? false;
    await this.ctx.queue.mutate(runId, (m) => {
      const a = m.agents.find((x) => x.id === agentId);
      if (!a) return;
      a.status = stopped ? 'stopped' : 'exited';
      a.exitCode = exitCode;
    });
    const label = this.ctx.store.get(runId)?.agents.find((a) => a.id === agentId)?.label ?? 'agent';
    await this.ctx.event(runId, { type: stopped ? 'stopped' : 'exited', agentId, exitCode, message: `${label} ${stopped ? 'stopped' : `exited with code ${exitCode}`}` });
    this.ctx.emit('agent.status', { runId, agentId, status: stopped ? 'stopped' : 'exited', terminalId: live?.terminal.id ?? null, exitCode });
    if (resumeRejected && !this.closing) {
      await this.freshAfterRejectedResume(runId, agentId);
      return;
    }
    // A failed write was already reported by the store; anything else is worth a line in the log.
    if (!stopped && !this.closing) await this.snapshotAfterExit(runId).catch((err: unknown) => logFailure(`the snapshot after ${label} exited`, err));
    if (live && this.running.get(agentId) === live) this.running.delete(agentId);
  }

  /** The vendor refused a session it seemed to have: start fresh, and say so in the pane and the history. */
  private async freshAfterRejectedResume(runId: string, agentId: string): Promise<void> {
    const run = this.ctx.store.get(runId)!;
    const agent = run.agents.find((a) => a.id === agentId)!;
    const adapter = this.ctx.vendors.get(agent.vendor)!;
    const old = currentSessionId(agent);
    const plan = await this.planFresh(run, agent);
    if (!plan) return;
    const warning = `${adapter.displayName} could not resume session ${old ? shortId(old) : '(none)'}; started a fresh conversation in ${agent.cwd}`;
    const ok = await this.launch(runId, agent, { ...plan, outcome: 'fresh', warning });
    if (ok.started) {
      await this.ctx.event(runId, { type: 'fresh-fallback', agentId, outcome: 'fresh', message: warning });
      this.ctx.emit('agent.warning', { runId, agentId, message: warning });
    }
  }
}

function context(run: RunManifest, agent: AgentRecord): AgentContext {
  return { runName: run.name, label: agent.label, cwd: agent.cwd, args: agent.args, command: agent.command };
}
