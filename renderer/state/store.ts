// The dashboard's state (zustand): runs, selection, dialogs, toasts, per-run layout, the command in progress. Never
// terminal bytes (docs/architecture.md §6). It owns the page's one client: its actions call the core (core-calls.ts),
// and the modules that need the client itself (the panes' byte streams, the core store) get it from here.
import { create } from 'zustand';
import type { BatonClient } from '../../shared/client.js';
import type { CommandId } from '../../shared/commands.js';
import type { ResumeOutcome, Result, RunSummary, RunView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import type { ConnectionStatus } from '../api/connection.js';
import { copyText, pageFocus } from './clipboard.js';
import { coreCalls, type CoreCalls } from './core-calls.js';
import { costCalls, type CostCalls, type CostState } from './cost-calls.js';
import { portableCalls, type PortableCalls } from './portable-calls.js';
import { worktreeCalls, type ChangeCount, type RemovedWorktree, type WorktreeCalls } from './worktree-calls.js';
import { hostCalls, type HostCalls } from './host-calls.js';

export type HostInfo = Result<'host.info'>;
export type Layout = 'grid' | 'tabs';
export type Dialog =
  | { kind: 'new-run' }
  | { kind: 'resume'; handle?: string }
  | { kind: 'help' }
  | { kind: 'rename'; runId: string }
  | { kind: 'delete'; runId: string }
  | { kind: 'sessions' }
  /** Search across every conversation on this machine (docs/search.md). */
  | { kind: 'search' }
  /** One agent's worktree: its diff, merge, removal. */
  | { kind: 'changes'; agentId: string }
  /** Worktrees Baton made that no run owns any more. */
  | { kind: 'worktrees' }
  /** This machine and the ssh hosts agents can run on (docs/hosts.md). */
  | { kind: 'hosts' }
  /** Fork a run (now, or at one of its snapshots), export it to a bundle, import a bundle (docs/bundles.md). */
  | { kind: 'fork'; runId: string }
  | { kind: 'export'; runId: string }
  | { kind: 'import' };

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'warning' | 'error';
  text: string;
}

export interface Settings {
  /** Clear the clipboard this many seconds after copying a handle; null keeps it. */
  clipboardClearSeconds: number | null;
}

interface BatonState extends CostState {
  status: ConnectionStatus;
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
  /** The pane whose search bar is open, by agent id. */
  searchAgent: string | null;
  /** A command under way that shows its progress (Snapshotting…); commands that wait on it are disabled meanwhile. */
  pending: CommandId | null;
  /** Per agent with a worktree: how many files it changed, as the core last said (the `agent.changes` event). */
  changes: Record<string, ChangeCount>;
  /** Per agent: the worktree removed from this page (its view still names it until the agent starts again). */
  removedWorktrees: Record<string, RemovedWorktree>;
}

interface BatonActions extends CoreCalls, WorktreeCalls, CostCalls, HostCalls, PortableCalls {
  /** A new client (or none) from the connection: kept here and handed to every module that asked for it. */
  setConnection(status: ConnectionStatus, client: BatonClient | null): void;
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
  setSearchAgent(agentId: string | null): void;
  setPending(command: CommandId | null): void;
}

export type Store = BatonState & BatonActions;

const PREFS_KEY = 'baton.prefs.v1';

function loadPrefs(): Pick<BatonState, 'layouts' | 'settings'> {
  try {
    const raw = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Partial<
      Pick<BatonState, 'layouts' | 'settings'>
    >;
    return {
      layouts: raw.layouts ?? {},
      settings: { clipboardClearSeconds: raw.settings?.clipboardClearSeconds ?? null },
    };
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

type ClientUser = (client: BatonClient | null) => void;
const clientUsers: ClientUser[] = [];

/**
 * Hands the store's client to a module that works with it directly, now and after every reconnect: the panes,
 * whose bytes never pass through the store (docs/architecture.md §6), and the core store. Called once, at start.
 */
export function provideClientTo(user: ClientUser): void {
  clientUsers.push(user);
}

export const useBaton = create<Store>()((set, get) => {
  let client: BatonClient | null = null;

  /** Copies text; with the auto-clear setting, empties the clipboard after N seconds if it still holds it. */
  const copy = (text: string) =>
    copyText(
      text,
      get().settings.clipboardClearSeconds,
      { desktop: window.baton, web: navigator.clipboard, focus: pageFocus },
      () =>
        get().toast(
          'warning',
          'Baton could not read the clipboard to check it still held what it copied, so it left it as it was: clear it yourself if it still holds a handle.',
        ),
    );
  /** Copies what is no secret (a path): never cleared. */
  const copyPlain = (text: string) =>
    copyText(text, null, { desktop: window.baton, web: navigator.clipboard, focus: pageFocus }, () => undefined);

  return {
    status: 'connecting',
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
    searchAgent: null,
    pending: null,
    changes: {},
    removedWorktrees: {},
    costs: {},
    ...loadPrefs(),
    ...coreCalls({ set, get, client: () => client, copy }),
    ...worktreeCalls({ set, get, client: () => client, copyPlain }),
    ...costCalls({ set, get, client: () => client }),
    ...hostCalls({ set, get, client: () => client }),
    ...portableCalls({ set, get, client: () => client }),

    setConnection(status, c) {
      client = c;
      // The first screen's run list is asked first: the core answers in the order it is asked, and the page's other
      // first requests (attention over every run, each vendor CLI's version) take it longer.
      if (c) void get().refreshRuns();
      for (const use of clientUsers) use(c);
      set({ status });
      if (!c) return;
      c.on('host.changed', (view) => get().hostChanged(view));
      // Events name the runs they changed: only those are listed again (run-list-sync.ts).
      c.on('run.changed', ({ runId, deleted }) => {
        void get().refreshRunsOf([runId]);
        if (deleted) {
          set((s) => {
            const { [runId]: _gone, ...rest } = s.runDetails;
            return { runDetails: rest, selectedRunId: s.selectedRunId === runId ? null : s.selectedRunId };
          });
        } else if (get().runDetails[runId] || get().selectedRunId === runId) void get().loadRun(runId);
      });
      c.on('agent.status', ({ runId }) => {
        if (get().runDetails[runId]) void get().loadRun(runId);
        void get().refreshRunsOf([runId]);
      });
      c.on('agent.session', ({ runId }) => {
        if (get().runDetails[runId]) void get().loadRun(runId);
      });
      c.on('agent.warning', ({ message }) => get().toast('warning', message));
      c.on('agent.changes', ({ agentId, files }) => get().noteChanges(agentId, files));
      c.on('cost.changed', ({ runIds }) => void get().refreshRunsOf(runIds));
      void c.call('host.info', {}).then((hostInfo) => set({ hostInfo }));
      const selected = get().selectedRunId;
      if (selected) void get().loadRun(selected);
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

    setSearchAgent: (searchAgent) => set({ searchAgent }),
    setPending: (pending) => set({ pending }),
  };
});

/** The selected run's details, once loaded. */
export const selectedRun = (s: Pick<BatonState, 'selectedRunId' | 'runDetails'>): RunView | undefined =>
  s.selectedRunId ? s.runDetails[s.selectedRunId] : undefined;
