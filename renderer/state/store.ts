// The dashboard's state (zustand): runs, selection, dialogs, toasts, per-run layout. Never terminal bytes.
import { create } from 'zustand';
import type { BatonClient } from '../../shared/client.js';
import type { AdoptSession, AgentSpec, ResumeOutcome, Result, RunSummary, RunView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import type { ConnectionStatus } from '../api/connection.js';
import { copyText, pageFocus } from './clipboard.js';
import { shellQuote } from './shell-quote.js';

export type HostInfo = Result<'host.info'>;
export type Layout = 'grid' | 'tabs';
export type Dialog =
  | { kind: 'new-run' }
  | { kind: 'resume'; handle?: string }
  | { kind: 'help' }
  | { kind: 'rename'; runId: string }
  | { kind: 'delete'; runId: string }
  | { kind: 'sessions' };

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'warning' | 'error';
  text: string;
}

export interface Settings {
  /** Clear the clipboard this many seconds after copying a handle; null keeps it. */
  clipboardClearSeconds: number | null;
}

interface BatonState {
  status: ConnectionStatus;
  client: BatonClient | null;
  hostInfo: HostInfo | null;
  runs: RunSummary[];
  runsLoaded: boolean;
  selectedRunId: string | null;
  runDetails: Record<string, RunView>;
  query: string;
  statusFilter: 'all' | 'live' | 'stopped';
  vendorFilter: VendorName | 'all';
  layouts: Record<string, Layout>;
  activeAgent: Record<string, string>;
  dialog: Dialog | null;
  toasts: Toast[];
  settings: Settings;
  lastOutcomes: Record<string, ResumeOutcome[]>;
}

interface BatonActions {
  setConnection(status: ConnectionStatus, client: BatonClient | null): void;
  refreshRuns(): Promise<void>;
  loadRun(runId: string): Promise<void>;
  selectRun(runId: string | null): void;
  setQuery(query: string): void;
  setStatusFilter(filter: BatonState['statusFilter']): void;
  setVendorFilter(filter: BatonState['vendorFilter']): void;
  setLayout(runId: string, layout: Layout): void;
  setActiveAgent(runId: string, agentId: string): void;
  openDialog(dialog: Dialog | null): void;
  toast(kind: Toast['kind'], text: string): void;
  dismissToast(id: number): void;
  setSettings(settings: Partial<Settings>): void;
  startRun(name: string, agents: AgentSpec[]): Promise<RunView>;
  snapshot(runId: string): Promise<void>;
  copyHandle(runId: string, agentLabel?: string): Promise<void>;
  copyShellCommands(runId: string, agentLabel?: string): Promise<void>;
  /** `confirmShell`: the handle indexes of the shell agents the user confirmed (run.resume). */
  resume(handle: string, cwd?: string, confirmShell?: number[]): Promise<{ run: RunView; outcomes: ResumeOutcome[] }>;
  /** A new run resuming conversations found on this machine (sessions.adopt); selects it, like resume. */
  adoptSessions(name: string, sessions: AdoptSession[]): Promise<{ run: RunView; outcomes: ResumeOutcome[] }>;
  stopRun(runId: string): Promise<void>;
  stopAgent(agentId: string): Promise<void>;
  restartAgent(agentId: string): Promise<void>;
  resumeAgent(runId: string, agentLabel: string): Promise<void>;
  renameRun(runId: string, name: string): Promise<void>;
  deleteRun(runId: string): Promise<void>;
}

export type Store = BatonState & BatonActions;

const PREFS_KEY = 'baton.prefs.v1';

function loadPrefs(): Pick<BatonState, 'layouts' | 'settings'> {
  try {
    const raw = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Partial<Pick<BatonState, 'layouts' | 'settings'>>;
    return { layouts: raw.layouts ?? {}, settings: { clipboardClearSeconds: raw.settings?.clipboardClearSeconds ?? null } };
  } catch {
    return { layouts: {}, settings: { clipboardClearSeconds: null } };
  }
}

function savePrefs(state: Pick<BatonState, 'layouts' | 'settings'>): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ layouts: state.layouts, settings: state.settings }));
  } catch {
    // Private mode or full storage: preferences just do not persist.
  }
}

let nextToastId = 1;

export const useBaton = create<Store>()((set, get) => {
  const client = (): BatonClient => {
    const c = get().client;
    if (!c) throw new Error('not connected to the Baton core; waiting to reconnect');
    return c;
  };

  /** Copies text; with the auto-clear setting, empties the clipboard after N seconds if it still holds it. */
  const copy = (text: string) =>
    copyText(text, get().settings.clipboardClearSeconds, { desktop: window.baton, web: navigator.clipboard, focus: pageFocus }, () =>
      get().toast('warning', 'Baton could not read the clipboard to check it still held what it copied, so it left it as it was: clear it yourself if it still holds a handle.'),
    );

  return {
    status: 'connecting',
    client: null,
    hostInfo: null,
    runs: [],
    runsLoaded: false,
    selectedRunId: null,
    runDetails: {},
    query: '',
    statusFilter: 'all',
    vendorFilter: 'all',
    activeAgent: {},
    dialog: null,
    toasts: [],
    lastOutcomes: {},
    ...loadPrefs(),

    setConnection(status, c) {
      set({ status, client: c });
      if (!c) return;
      c.on('run.changed', ({ runId, deleted }) => {
        void get().refreshRuns();
        if (deleted) {
          set((s) => {
            const { [runId]: _gone, ...rest } = s.runDetails;
            return { runDetails: rest, selectedRunId: s.selectedRunId === runId ? null : s.selectedRunId };
          });
        } else if (get().runDetails[runId] || get().selectedRunId === runId) void get().loadRun(runId);
      });
      c.on('agent.status', ({ runId }) => {
        if (get().runDetails[runId]) void get().loadRun(runId);
        void get().refreshRuns();
      });
      c.on('agent.session', ({ runId }) => {
        if (get().runDetails[runId]) void get().loadRun(runId);
      });
      c.on('agent.warning', ({ message }) => get().toast('warning', message));
      void c.call('host.info', {}).then((hostInfo) => set({ hostInfo }));
      void get().refreshRuns();
      const selected = get().selectedRunId;
      if (selected) void get().loadRun(selected);
    },

    async refreshRuns() {
      const c = get().client;
      if (!c) return;
      const runs = await c.call('run.list', {});
      set({ runs, runsLoaded: true });
      if (get().selectedRunId === null && runs[0]) get().selectRun(runs[0].id);
    },

    async loadRun(runId) {
      const c = get().client;
      if (!c) return;
      try {
        const run = await c.call('run.get', { run: runId });
        set((s) => ({ runDetails: { ...s.runDetails, [runId]: run } }));
      } catch {
        // Deleted meanwhile: the run.changed event cleans up.
      }
    },

    selectRun(runId) {
      set({ selectedRunId: runId });
      if (runId) void get().loadRun(runId);
    },

    setQuery: (query) => set({ query }),
    setStatusFilter: (statusFilter) => set({ statusFilter }),
    setVendorFilter: (vendorFilter) => set({ vendorFilter }),

    setLayout(runId, layout) {
      set((s) => ({ layouts: { ...s.layouts, [runId]: layout } }));
      savePrefs(get());
    },

    setActiveAgent: (runId, agentId) => set((s) => ({ activeAgent: { ...s.activeAgent, [runId]: agentId } })),
    openDialog: (dialog) => set({ dialog }),

    toast(kind, text) {
      const id = nextToastId++;
      set((s) => ({ toasts: [...s.toasts.slice(-4), { id, kind, text }] }));
      setTimeout(() => get().dismissToast(id), kind === 'error' || kind === 'warning' ? 10_000 : 5000);
    },

    dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),

    setSettings(settings) {
      set((s) => ({ settings: { ...s.settings, ...settings } }));
      savePrefs(get());
    },

    async startRun(name, agents) {
      const run = await client().call('run.start', { name, agents });
      set((s) => ({ runDetails: { ...s.runDetails, [run.id]: run }, selectedRunId: run.id }));
      await get().refreshRuns();
      return run;
    },

    async snapshot(runId) {
      const snap = await client().call('run.snapshot', { run: runId });
      const time = new Date(snap.at).toLocaleTimeString();
      const ids = snap.agents.filter((a) => a.sessionId).length;
      get().toast('success', `Snapshot at ${time}: ${snap.agents.length} agent${snap.agents.length === 1 ? '' : 's'}, ${ids} session id${ids === 1 ? '' : 's'} and their screens`);
    },

    async copyHandle(runId, agentLabel) {
      const { handle } = await client().call('run.handle', { run: runId, ...(agentLabel ? { agent: agentLabel } : {}) });
      await copy(handle);
      const clear = get().settings.clipboardClearSeconds;
      get().toast('success', `${agentLabel ? `Handle of ${agentLabel}` : 'Run handle'} copied${clear ? `; the clipboard clears in ${clear} s` : ''}. Keep it secret: it names your conversations.`);
    },

    async copyShellCommands(runId, agentLabel) {
      const commands = await client().call('run.commands', { run: runId, ...(agentLabel ? { agent: agentLabel } : {}) });
      await copy(commands.map((c) => `cd ${shellQuote(c.cwd)} && ${c.argv.map(shellQuote).join(' ')}`).join('\n'));
      get().toast('success', `Copied ${commands.length} shell command${commands.length === 1 ? '' : 's'}`);
    },

    async resume(handle, cwd, confirmShell) {
      const result = await client().call('run.resume', { handle, ...(cwd ? { cwd } : {}), ...(confirmShell ? { confirmShell } : {}) });
      set((s) => ({
        runDetails: { ...s.runDetails, [result.run.id]: result.run },
        selectedRunId: result.run.id,
        lastOutcomes: { ...s.lastOutcomes, [result.run.id]: result.outcomes },
      }));
      await get().refreshRuns();
      return result;
    },

    async adoptSessions(name, sessions) {
      const result = await client().call('sessions.adopt', { name, sessions });
      set((s) => ({
        runDetails: { ...s.runDetails, [result.run.id]: result.run },
        selectedRunId: result.run.id,
        lastOutcomes: { ...s.lastOutcomes, [result.run.id]: result.outcomes },
      }));
      await get().refreshRuns();
      return result;
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
      for (const o of result.outcomes) if (o.outcome !== 'resumed') get().toast(o.outcome === 'failed' ? 'error' : 'warning', `${o.label}: ${o.outcome}${o.message ? ` — ${o.message}` : ''}`);
    },

    async renameRun(runId, name) {
      const run = await client().call('run.rename', { run: runId, name });
      set((s) => ({ runDetails: { ...s.runDetails, [runId]: run } }));
      await get().refreshRuns();
    },

    async deleteRun(runId) {
      await client().call('run.delete', { run: runId });
      set((s) => ({ selectedRunId: s.selectedRunId === runId ? null : s.selectedRunId }));
      await get().refreshRuns();
    },
  };
});
