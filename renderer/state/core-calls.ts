// The store's actions that ask the core (docs/architecture.md §12): the only place in the page, beside the panes'
// byte path (§6) and the core store, that calls the client. Components call these actions, never the client.
import type { BatonClient } from '../../shared/client.js';
import { takeEarlyFirstList } from '../api/connection.js';
import { runListSync } from './run-list-sync.js';
import type {
  AdoptSession,
  AgentSpec,
  HandlePreview,
  Params,
  Result,
  ResumeOutcome,
  RunView,
} from '../../shared/contract.js';
import { costText } from '../../shared/cost-text.js';
import { shellQuote } from './shell-quote.js';
import type { Store } from './store.js';

export interface CoreCalls {
  /** Lists every run again. */
  refreshRuns(): Promise<void>;
  /** Lists these runs again (an event named them): the rest of the list is kept (run-list-sync.ts). */
  refreshRunsOf(runIds: readonly string[]): Promise<void>;
  loadRun(runId: string): Promise<void>;
  /** The run as the core has it now, without keeping it; throws when it cannot be read. */
  fetchRun(runId: string): Promise<RunView>;
  startRun(name: string, agents: AgentSpec[]): Promise<RunView>;
  snapshot(runId: string): Promise<void>;
  copyHandle(runId: string, agentLabel?: string): Promise<void>;
  copyShellCommands(runId: string, agentLabel?: string): Promise<void>;
  /**
   * What resuming `handle` would do, per agent (handle.inspect): nothing runs. `repoMap`: a missing repository root →
   * the path the user gave for it (every agent of that repository follows).
   */
  inspectHandle(handle: string, cwd?: string, repoMap?: RepoMap, hostMap?: RepoMap): Promise<HandlePreview>;
  /** `confirmShell`: the handle indexes of the shell agents the user confirmed (run.resume). */
  resume(
    handle: string,
    cwd?: string,
    confirmShell?: number[],
    repoMap?: RepoMap,
    /** A host alias of the handle → the alias that reaches that host here (docs/hosts.md). */
    hostMap?: RepoMap,
  ): Promise<{ run: RunView; outcomes: ResumeOutcome[] }>;
  /** Conversations the vendors' own stores hold on this machine (sessions.list). */
  listSessions(params: Params<'sessions.list'>): Promise<Result<'sessions.list'>>;
  /** A new run resuming conversations found on this machine (sessions.adopt); selects it, like resume. */
  adoptSessions(name: string, sessions: AdoptSession[]): Promise<{ run: RunView; outcomes: ResumeOutcome[] }>;
  stopRun(runId: string): Promise<void>;
  stopAgent(agentId: string): Promise<void>;
  restartAgent(agentId: string): Promise<void>;
  resumeAgent(runId: string, agentLabel: string): Promise<void>;
  renameRun(runId: string, name: string): Promise<void>;
  /** `removeWorktrees`: also remove the worktrees Baton made for its agents (run.delete). */
  deleteRun(runId: string, removeWorktrees?: boolean): Promise<void>;
}

export type RepoMap = Record<string, string>;
/** The optional `repoMap` param, only when it maps something. */
const repoMapParam = (repoMap: RepoMap | undefined) => (repoMap && Object.keys(repoMap).length > 0 ? { repoMap } : {});

export interface CoreCallDeps {
  set(partial: Partial<Store> | ((s: Store) => Partial<Store>)): void;
  get(): Store;
  /** The store's one client; null while disconnected. */
  client(): BatonClient | null;
  /** Copies text with the clipboard auto-clear setting. */
  copy(text: string): Promise<void>;
}

export function coreCalls({ set, get, client: current, copy }: CoreCallDeps): CoreCalls {
  const client = (): BatonClient => {
    const c = current();
    if (!c) throw new Error('not connected to the Baton core; waiting to reconnect');
    return c;
  };
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  /** A run that now runs (resumed or adopted): shown, selected, with its outcomes beside it. */
  const adopted = async (result: { run: RunView; outcomes: ResumeOutcome[] }) => {
    set((s) => ({
      runDetails: { ...s.runDetails, [result.run.id]: result.run },
      selectedRunId: result.run.id,
      lastOutcomes: { ...s.lastOutcomes, [result.run.id]: result.outcomes },
    }));
    await get().refreshRunsOf([result.run.id]);
    return result;
  };

  const runList = runListSync({
    client: current,
    runs: () => ({ runs: get().runs, loaded: get().runsLoaded }),
    setRuns(runs) {
      set({ runs, runsLoaded: true });
      if (get().selectedRunId === null && runs[0]) get().selectRun(runs[0].id);
    },
    setFirstRuns(runs) {
      set({ runs });
      if (get().selectedRunId === null && runs[0]) get().selectRun(runs[0].id);
    },
    earlyFirstList: takeEarlyFirstList,
  });

  return {
    refreshRuns: () => runList.all(),
    refreshRunsOf: (runIds) => runList.some(runIds),

    async loadRun(runId) {
      if (!current()) return;
      try {
        const run = await get().fetchRun(runId);
        set((s) => ({ runDetails: { ...s.runDetails, [runId]: run } }));
      } catch {
        // Deleted meanwhile: the run.changed event cleans up.
      }
    },

    fetchRun: (runId) => client().call('run.get', { run: runId }),

    async startRun(name, agents) {
      const run = await client().call('run.start', { name, agents });
      set((s) => ({ runDetails: { ...s.runDetails, [run.id]: run }, selectedRunId: run.id }));
      await get().refreshRunsOf([run.id]);
      return run;
    },

    async snapshot(runId) {
      const snap = await client().call('run.snapshot', { run: runId });
      const time = new Date(snap.at).toLocaleTimeString();
      const ids = snap.agents.filter((a) => a.sessionId).length;
      get().toast(
        'success',
        `Snapshot at ${time}: ${plural(snap.agents.length, 'agent')}, ${plural(ids, 'session id')} and their screens${snap.cost ? `; ${costText(snap.cost)}` : ''}`,
      );
    },

    async copyHandle(runId, agentLabel) {
      const { handle } = await client().call('run.handle', {
        run: runId,
        ...(agentLabel ? { agent: agentLabel } : {}),
      });
      await copy(handle);
      const clear = get().settings.clipboardClearSeconds;
      get().toast(
        'success',
        `${agentLabel ? `Handle of ${agentLabel}` : 'Run handle'} copied${clear ? `; the clipboard clears in ${clear} s` : ''}. Keep it secret: it names your conversations.`,
      );
    },

    async copyShellCommands(runId, agentLabel) {
      const commands = await client().call('run.commands', {
        run: runId,
        ...(agentLabel ? { agent: agentLabel } : {}),
      });
      await copy(commands.map((c) => `cd ${shellQuote(c.cwd)} && ${c.argv.map(shellQuote).join(' ')}`).join('\n'));
      get().toast('success', `Copied ${plural(commands.length, 'shell command')}`);
    },

    inspectHandle: (handle, cwd, repoMap, hostMap) =>
      client().call('handle.inspect', {
        handle,
        ...(cwd ? { cwd } : {}),
        ...repoMapParam(repoMap),
        ...(hostMap && Object.keys(hostMap).length > 0 ? { hostMap } : {}),
      }),

    async resume(handle, cwd, confirmShell, repoMap, hostMap) {
      return adopted(
        await client().call('run.resume', {
          handle,
          ...(cwd ? { cwd } : {}),
          ...(confirmShell ? { confirmShell } : {}),
          ...repoMapParam(repoMap),
          ...(hostMap && Object.keys(hostMap).length > 0 ? { hostMap } : {}),
        }),
      );
    },

    listSessions: (params) => client().call('sessions.list', params),

    async adoptSessions(name, sessions) {
      return adopted(await client().call('sessions.adopt', { name, sessions }));
    },

    async stopRun(runId) {
      await client().call('run.stop', { run: runId });
      await get().loadRun(runId);
    },

    async stopAgent(agentId) {
      await client().call('agent.stop', { agentId });
    },

    async restartAgent(agentId) {
      const run = await client().call('agent.restart', { agentId });
      set((s) => ({ runDetails: { ...s.runDetails, [run.id]: run } }));
    },

    async resumeAgent(runId, agentLabel) {
      const { handle } = await client().call('run.handle', { run: runId, agent: agentLabel });
      // The user's own agent, from this store (typed here or confirmed when it came in): the click confirms it.
      const result = await get().resume(handle, undefined, [0]);
      for (const o of result.outcomes)
        if (o.outcome !== 'resumed')
          get().toast(
            o.outcome === 'failed' ? 'error' : 'warning',
            `${o.label}: ${o.outcome}${o.message ? ` — ${o.message}` : ''}`,
          );
    },

    async renameRun(runId, name) {
      const run = await client().call('run.rename', { run: runId, name });
      set((s) => ({ runDetails: { ...s.runDetails, [runId]: run } }));
      await get().refreshRunsOf([runId]);
    },

    async deleteRun(runId, removeWorktrees) {
      await client().call('run.delete', { run: runId, ...(removeWorktrees ? { removeWorktrees: true } : {}) });
      set((s) => ({ selectedRunId: s.selectedRunId === runId ? null : s.selectedRunId }));
      await get().refreshRunsOf([runId]);
    },
  };
}
