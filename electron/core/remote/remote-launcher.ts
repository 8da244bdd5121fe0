// Starts, resumes or reattaches an agent that runs on a remote host (docs/hosts.md). The remote core does what the
// local one does for its own agents (plan, spawn, follow the vendor's session ids, fall back to fresh); this side
// names the remote run after the local run's id and the remote agent after the local label, so the same local agent
// always finds the same remote one, from any machine that resumes the run's handle.
import {
  BatonError,
  type AgentSpec,
  type AgentView,
  type RunView,
  type WorktreeInfo,
} from '../../../shared/contract.js';
import type { DecodedHandle } from '../handle/codec.js';
import type { AgentRecord } from '../store/types.js';
import type { SpawnPlan, VendorAdapter } from '../vendors/adapter.js';
import { LaunchError, type LaunchHooks, type LiveAgent } from '../runs/agent-launcher.js';
import type { HostWorktreeIntent } from '../runs/worktree-types.js';
import { followRemoteAttention } from './remote-attention.js';
import type { RemoteCore } from './remote-core.js';
import { ENDED, RemoteTerminal } from './remote-terminal.js';

/** A remote agent's plan: what to ask its host's core for (its argv is decided there). */
export function remotePlan(sessionId: string | null, outcome: SpawnPlan['outcome']): SpawnPlan {
  return { argv: [], env: {}, sessionId, chosenBy: null, outcome, warning: null };
}

/** A handle alias → the alias the user chose for it here (hostMap); an agent with no host stays on this machine. */
export type HostMap = Readonly<Record<string, string>>;

export function mapHosts(decoded: DecodedHandle, hostMap: HostMap | undefined): DecodedHandle {
  if (!hostMap) return decoded;
  return {
    ...decoded,
    agents: decoded.agents.map((a) => (a.host && hostMap[a.host] ? { ...a, host: hostMap[a.host] } : a)),
  };
}

/** Where the host's core put a remote agent: its directory there, and its worktree there (null: none). */
export interface RemotePlacement {
  cwd: string;
  worktree: WorktreeInfo | null;
}

export type RemoteLiveAgent = LiveAgent & { placed: RemotePlacement };

/** What a remote start needs besides the agent: the local run's name, and the worktree its spec asked for. */
export interface RemoteStartOptions {
  /** A new worktree's branch and folder there are named after it, as a local agent's are (docs/worktrees.md). */
  runName: string;
  worktree?: HostWorktreeIntent;
}

export interface RemoteCores {
  /** The connection to the host of that alias (made on first use). */
  core(alias: string): RemoteCore;
}

export class RemoteLauncher {
  /** Per host and run, the launch under way (each waits for the one before it). */
  private readonly starting = new Map<string, Promise<unknown>>();

  constructor(readonly cores: RemoteCores) {}

  /** A plan of the supervisor's (remotePlan): a resume continues its session; a fresh one starts a new conversation. */
  launchPlanned(
    runId: string,
    agent: AgentRecord & { host: string },
    adapter: VendorAdapter,
    plan: SpawnPlan,
    hooks: LaunchHooks,
    options: RemoteStartOptions = { runName: runId },
  ): Promise<RemoteLiveAgent> {
    const resumes = plan.outcome === 'resumed' && (plan.sessionId !== null || adapter.sessionIdPattern === null);
    return this.launch(runId, agent, adapter, resumes ? { sessionId: plan.sessionId } : null, hooks, options);
  }

  /**
   * `resume`: the session to continue (a resume's plan), or null for a new conversation. An agent already running
   * there (this core restarted, or a handle resumed on another machine) is reattached as it is.
   */
  launch(
    runId: string,
    agent: AgentRecord & { host: string },
    adapter: VendorAdapter,
    resume: { sessionId: string | null } | null,
    hooks: LaunchHooks,
    options: RemoteStartOptions = { runName: runId },
  ): Promise<RemoteLiveAgent> {
    // A run's agents start together (runs/start-together.ts): on one host they go one after the other, or two would
    // each find no remote run yet and each start one.
    const key = `${agent.host}\u0000${runId}`;
    const previous = this.starting.get(key) ?? Promise.resolve();
    const launched = previous
      .catch(() => undefined)
      .then(() => this.launchNow(runId, agent, adapter, resume, hooks, options));
    const settled: Promise<void> = launched.then(
      () => this.forget(key, settled),
      () => this.forget(key, settled),
    );
    this.starting.set(key, settled);
    return launched;
  }

  private forget(key: string, done: Promise<void>): void {
    if (this.starting.get(key) === done) this.starting.delete(key);
  }

  private async launchNow(
    runId: string,
    agent: AgentRecord & { host: string },
    adapter: VendorAdapter,
    resume: { sessionId: string | null } | null,
    hooks: LaunchHooks,
    options: RemoteStartOptions,
  ): Promise<RemoteLiveAgent> {
    // At the latest, its CLI started now (or it already ran): the bound of a send's wait counts from here.
    const attachedAt = Date.now();
    const core = this.cores.core(agent.host);
    try {
      await core.connect();
    } catch (err) {
      throw new LaunchError(`could not reach ${agent.host}: ${(err as Error).message}`);
    }
    const remoteRun = await this.remoteRun(core, runId);
    let remoteAgent = remoteRun?.agents.find((a) => a.label === agent.label);
    if (!remoteAgent || remoteAgent.status !== 'running') {
      const started = await this.start(core, runId, agent, remoteRun, remoteAgent, resume, options);
      remoteAgent = started.agents.find((a) => a.label === agent.label);
    }
    if (!remoteAgent?.terminalId || remoteAgent.status !== 'running')
      throw new LaunchError(
        `${adapter.displayName} could not start on ${agent.host}: ${remoteAgent?.warning ?? 'the remote core did not say why'}`,
      );
    const remoteId = remoteAgent.id;
    const statusOf = async () => {
      const run = await this.remoteRun(core, runId);
      const now = run?.agents.find((a) => a.id === remoteId);
      return { ended: !now || ENDED.has(now.status), exitCode: now?.exitCode ?? null };
    };
    const terminal = new RemoteTerminal(core, remoteId, remoteAgent.terminalId, remoteAgent.pid, statusOf);
    const stopSessions = core.on('agent.session', (e) => {
      if (e.agentId === remoteId) hooks.onSession({ sessionId: e.sessionId, confirmed: true });
    });
    // The id the remote core already knows (found, or chosen at its spawn) is this agent's too.
    if (remoteAgent.sessionId) hooks.onSession({ sessionId: remoteAgent.sessionId, confirmed: true });
    // Its worktree's changed-file count, as its host's core watches it (the first count was before we listened).
    const stopChanges = remoteAgent.worktree ? followRemoteChanges(core, remoteId, hooks) : () => {};
    let stopAttention: (() => void) | null = null;
    terminal.onExit((exit) => {
      stopSessions();
      stopChanges();
      stopAttention?.();
      hooks.onExit(exit, false);
    });
    try {
      await terminal.follow();
    } catch (err) {
      terminal.dispose();
      throw new LaunchError(`could not attach to its terminal on ${agent.host}: ${(err as Error).message}`);
    }
    // Its state from its host's core, where its hooks report (an older core: read from its screen here).
    if (hooks.onAttention) {
      const stop = await followRemoteAttention(core, remoteId, hooks.onAttention);
      if (terminal.exited) stop?.();
      else stopAttention = stop;
    }
    const stopFollowing = () => {
      stopSessions();
      stopChanges();
      stopAttention?.();
    };
    const placed = { cwd: remoteAgent.cwd, worktree: remoteAgent.worktree };
    return { terminal, adapter, start: { at: attachedAt, offset: 0 }, stopRequested: false, stopFollowing, placed };
  }

  /**
   * The local run is being deleted: its remote run on that host goes too (its agents were stopped first). A host
   * that cannot be reached keeps it; the reason is returned for the log.
   */
  async deleteRemoteRun(runId: string, host: string, removeWorktrees = false): Promise<string | null> {
    try {
      const core = this.cores.core(host);
      await core.connect();
      const run = await this.remoteRun(core, runId);
      if (run) await core.call('run.delete', { run: run.id, ...(removeWorktrees ? { removeWorktrees } : {}) });
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /**
   * The remote run of this local run: named after its id (a resume there may also have given it that id). A ref
   * shaped like a run id is looked up as an id only, so the name is found through the list.
   */
  async remoteRun(core: RemoteCore, runId: string): Promise<RunView | null> {
    const found = (await core.call('run.list', { query: runId })).find((r) => r.name === runId || r.id === runId);
    if (!found) return null;
    try {
      return await core.call('run.get', { run: found.id });
    } catch (err) {
      if (err instanceof BatonError && err.code === 'not-found') return null;
      throw err;
    }
  }

  /** A new conversation (run.start / agent.add / agent.restart there), or a resume through a one-agent handle. */
  private async start(
    core: RemoteCore,
    runId: string,
    agent: AgentRecord,
    remoteRun: RunView | null,
    remoteAgent: AgentView | undefined,
    resume: { sessionId: string | null } | null,
    options: RemoteStartOptions,
  ): Promise<RunView> {
    try {
      if (resume) {
        // Raw JSON is a handle the remote core validates like any pasted one; it carries no command or flag.
        const handle = JSON.stringify({
          v: 1,
          scope: 'agent',
          run: { name: runId, id: remoteRun?.id ?? runId },
          createdAt: new Date().toISOString(),
          agents: [
            {
              id: remoteAgent?.id ?? agent.id,
              label: agent.label,
              vendor: agent.vendor,
              sessionId: resume.sessionId,
              cwd: agent.cwd,
              // Its worktree there: found, or re-created from its branch by that core (paths of that host).
              ...(agent.worktree ? { worktree: handleWorktree(agent.worktree) } : {}),
            },
          ],
        });
        // The user confirmed this agent on this side (a shell agent from a handle is confirmed here, not there).
        const { run, outcomes } = await core.call('run.resume', { handle, confirmShell: [0] });
        const failed = outcomes.find((o) => o.outcome === 'failed');
        if (failed) throw new LaunchError(`on ${agent.host ?? 'the host'}: ${failed.message ?? 'failed'}`);
        return run;
      }
      const spec: AgentSpec = {
        vendor: agent.vendor,
        label: agent.label,
        cwd: agent.cwd,
        ...(agent.args.length > 0 ? { args: agent.args } : {}),
        ...(agent.command ? { command: agent.command } : {}),
        ...(options.worktree ? worktreeSpec(options.worktree, options.runName) : {}),
      };
      if (!remoteRun) return await core.call('run.start', { name: runId, agents: [spec] });
      if (remoteAgent) return await core.call('agent.restart', { agentId: remoteAgent.id });
      return await core.call('agent.add', { run: remoteRun.id, agent: spec });
    } catch (err) {
      if (err instanceof LaunchError) throw err;
      throw new LaunchError(`on ${agent.host ?? 'the host'}: ${(err as Error).message}`);
    }
  }
}

/** The worktree fields of a remote agent's spec: made there, named after the local run as a local one would be. */
function worktreeSpec(
  intent: HostWorktreeIntent,
  runName: string,
): Pick<AgentSpec, 'worktree' | 'base' | 'worktreeName'> {
  return {
    worktree: intent.worktree,
    ...(intent.base !== undefined ? { base: intent.base } : {}),
    worktreeName: runName,
  };
}

function handleWorktree(w: NonNullable<AgentRecord['worktree']>): Omit<WorktreeInfo, 'created'> {
  return { repoRoot: w.repoRoot, worktreePath: w.worktreePath, branch: w.branch, baseCommit: w.baseCommit };
}

/** The host core's `agent.changes` events for its agent, and its current count once (announced before we listened). */
function followRemoteChanges(core: RemoteCore, remoteId: string, hooks: LaunchHooks): () => void {
  const stop = core.on('agent.changes', (e) => {
    if (e.agentId === remoteId) hooks.onChanges?.(e.files);
  });
  core.call('agent.changes', { agentId: remoteId }).then(
    (c) => hooks.onChanges?.(c.files),
    () => undefined, // its worktree may be gone; the next event tells
  );
  return stop;
}
