// The window: history on the left, the selected run's panes on the right, dialogs and toasts above.
import { useEffect } from 'react';
import { listenForCommandKeys } from '../commands/keys.js';
import { selectedRun, useBaton } from '../state/store.js';
import { ChangesDialog } from './ChangesDialog.js';
import { CommandButton } from './CommandButton.js';
import { CoreBanners, CoreIndicator } from './CoreBanners.js';
import { FirstLaunch } from './FirstLaunch.js';
import { HelpOverlay } from './HelpOverlay.js';
import { NewRunDialog } from './NewRunDialog.js';
import { ResumeDialog, usePasteToResume } from './ResumeDialog.js';
import { DeleteDialog, RenameDialog } from './RunDialogs.js';
import { ExportDialog } from './ExportDialog.js';
import { ForkDialog } from './ForkDialog.js';
import { ImportDialog } from './ImportDialog.js';
import { RunView } from './RunView.js';
import { SessionsFound } from './SessionsFound.js';
import { Sidebar } from './Sidebar.js';
import { Toasts } from './Toasts.js';
import { WorktreeCleanupDialog } from './WorktreeCleanupDialog.js';
import { SearchDialog } from './SearchDialog.js';
import { HostsDialog } from './HostsDialog.js';

export function App() {
  const status = useBaton((s) => s.status);
  const runs = useBaton((s) => s.runs);
  const runsLoaded = useBaton((s) => s.runsLoaded);
  const selected = useBaton(selectedRun);
  const dialog = useBaton((s) => s.dialog);
  usePasteToResume();
  // The keys of every command (commands/keys.ts): one listener for the page's life.
  useEffect(() => listenForCommandKeys(window), []);

  return (
    <div className="bt-app">
      {status !== 'connected' ? (
        <div className="bt-banner" role="alert">
          {status === 'connecting'
            ? 'Connecting to the Baton core…'
            : 'Disconnected from the Baton core — reconnecting. Typing is kept and sent once it is back.'}
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
          <CommandButton command="run.new" />
          <CommandButton command="resume.open" />
          <CommandButton command="search.open" short />
          <CommandButton command="bundle.import" />
          <CommandButton command="help.open" symbol="?" />
        </div>
        <CoreBanners />
        {selected ? (
          <RunView run={selected} />
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
      {dialog?.kind === 'search' && <SearchDialog />}
      {dialog?.kind === 'changes' && <ChangesDialog />}
      {dialog?.kind === 'worktrees' && <WorktreeCleanupDialog />}
      {dialog?.kind === 'hosts' && <HostsDialog />}
      {dialog?.kind === 'fork' && <ForkDialog />}
      {dialog?.kind === 'export' && <ExportDialog />}
      {dialog?.kind === 'import' && <ImportDialog />}
      <Toasts />
    </div>
  );
}
