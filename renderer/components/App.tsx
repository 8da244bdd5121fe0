// The window: history on the left, the selected run's panes on the right, dialogs and toasts above.
import { useState } from 'react';
import { focusPane } from '../panes/terminal-registry.js';
import { useGlobalShortcuts } from '../shortcuts.js';
import { CoreBanners, CoreIndicator } from './CoreBanners.js';
import { useBaton } from '../state/store.js';
import { FirstLaunch } from './FirstLaunch.js';
import { HelpOverlay } from './HelpOverlay.js';
import { NewRunDialog } from './NewRunDialog.js';
import { ResumeDialog, usePasteToResume } from './ResumeDialog.js';
import { DeleteDialog, RenameDialog } from './RunDialogs.js';
import { RunView } from './RunView.js';
import { SessionsFound } from './SessionsFound.js';
import { Sidebar } from './Sidebar.js';
import { Toasts } from './Toasts.js';

export function App() {
  const status = useBaton((s) => s.status);
  const runs = useBaton((s) => s.runs);
  const runsLoaded = useBaton((s) => s.runsLoaded);
  const selected = useBaton((s) => (s.selectedRunId ? s.runDetails[s.selectedRunId] : undefined));
  const dialog = useBaton((s) => s.dialog);
  const openDialog = useBaton((s) => s.openDialog);
  const [searchAgent, setSearchAgent] = useState<string | null>(null);
  usePasteToResume();

  const withRun = (fn: (runId: string) => Promise<void>) => () => {
    const { selectedRunId, toast } = useBaton.getState();
    if (!selectedRunId) return;
    void fn(selectedRunId).catch((err: Error) => toast('error', err.message));
  };
  const focusedAgent = (): string | undefined => {
    const section = document.activeElement?.closest('[data-agent-id]');
    return section?.getAttribute('data-agent-id') ?? undefined;
  };
  const moveFocus = (step: number) => {
    if (!selected) return;
    const ids = selected.agents.map((a) => a.id);
    const current = ids.indexOf(focusedAgent() ?? '');
    const next = ids[(current + step + ids.length) % ids.length];
    if (next) focusAgent(next);
  };
  const focusAgent = (agentId: string) => {
    if (!selected) return;
    if ((useBaton.getState().layouts[selected.id] ?? 'grid') === 'tabs') useBaton.getState().setActiveAgent(selected.id, agentId);
    requestAnimationFrame(() => focusPane(agentId));
  };

  useGlobalShortcuts({
    'New run': () => openDialog({ kind: 'new-run' }),
    Snapshot: withRun((id) => useBaton.getState().snapshot(id)),
    'Copy handle': withRun((id) => useBaton.getState().copyHandle(id)),
    'Resume from handle': () => openDialog({ kind: 'resume' }),
    'Stop run': withRun((id) => useBaton.getState().stopRun(id)),
    'Grid / tabs': () => {
      if (!selected) return;
      const { layouts, setLayout } = useBaton.getState();
      setLayout(selected.id, (layouts[selected.id] ?? 'grid') === 'grid' ? 'tabs' : 'grid');
    },
    'Next pane': () => moveFocus(1),
    'Previous pane': () => moveFocus(-1),
    'Focus pane': (n: number) => {
      const agent = selected?.agents[n - 1];
      if (agent) focusAgent(agent.id);
    },
    'Search in the focused pane': () => setSearchAgent(focusedAgent() ?? selected?.agents[0]?.id ?? null),
    'Keyboard shortcuts': () => openDialog({ kind: 'help' }),
  });

  return (
    <div className="bt-app">
      {status !== 'connected' ? (
        <div className="bt-banner" role="alert">
          {status === 'connecting' ? 'Connecting to the Baton core…' : 'Disconnected from the Baton core — reconnecting. Typing is kept and sent once it is back.'}
        </div>
      ) : (
        <div hidden />
      )}
      <nav className="bt-side" aria-label="Run history">
        <Sidebar />
      </nav>
      <main className="bt-main">
        <div className="bt-topbar">
          <span className="bt-brand">Baton</span>
          <CoreIndicator />
          <button type="button" onClick={() => openDialog({ kind: 'new-run' })}>
            New run
          </button>
          <button type="button" onClick={() => openDialog({ kind: 'resume' })}>
            Resume from handle
          </button>
          <button type="button" onClick={() => openDialog({ kind: 'help' })} aria-label="Keyboard shortcuts">
            ?
          </button>
        </div>
        <CoreBanners />
        {selected ? (
          <RunView run={selected} searchAgent={searchAgent} setSearchAgent={setSearchAgent} />
        ) : runsLoaded && runs.length === 0 ? (
          <FirstLaunch />
        ) : (
          <p className="bt-empty bt-muted">{runsLoaded ? 'Select a run in the history.' : 'Loading…'}</p>
        )}
      </main>
      {dialog?.kind === 'new-run' && <NewRunDialog />}
      {dialog?.kind === 'resume' && <ResumeDialog />}
      {dialog?.kind === 'help' && <HelpOverlay />}
      {dialog?.kind === 'rename' && <RenameDialog />}
      {dialog?.kind === 'delete' && <DeleteDialog />}
      {dialog?.kind === 'sessions' && <SessionsFound />}
      <Toasts />
    </div>
  );
}
