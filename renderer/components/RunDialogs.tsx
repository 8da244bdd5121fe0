// Rename and Delete of the run the dialog names (store.dialog.runId).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useBaton } from '../state/store.js';
import { shownWorktree } from '../state/worktree-calls.js';
import { Dialog } from './Dialog.js';
import { errorField, errorMessage, messageForField } from './format.js';
import { RUN_NAME_RULE, validateRunName } from './validate.js';
import './components.css';

/** The run the dialog is about; closes the dialog when that run is gone (deleted elsewhere). */
function useDialogRun(kind: 'rename' | 'delete') {
  const runId = useBaton((s) => (s.dialog?.kind === kind ? s.dialog.runId : null));
  const run = useBaton((s) => s.runs.find((r) => r.id === runId) ?? null);
  const runsLoaded = useBaton((s) => s.runsLoaded);
  const openDialog = useBaton((s) => s.openDialog);
  useEffect(() => {
    if (runId && runsLoaded && !run) openDialog(null);
  }, [runId, run, runsLoaded, openDialog]);
  return { runId, run };
}

export function RenameDialog() {
  const { run } = useDialogRun('rename');
  return run ? <RenameForm key={run.id} runId={run.id} current={run.name} /> : null;
}

function RenameForm({ runId, current }: { runId: string; current: string }) {
  const runs = useBaton((s) => s.runs);
  const renameRun = useBaton((s) => s.renameRun);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const id = useId();
  const [name, setName] = useState(current);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const taken = runs.filter((r) => r.id !== runId).map((r) => r.name);
  const error = serverError ?? validateRunName(name, taken);
  const unchanged = name === current;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (error || busy) return;
    if (unchanged) return openDialog(null);
    setBusy(true);
    try {
      await renameRun(runId, name);
      toast('success', `Renamed “${current}” to “${name}”`);
      openDialog(null);
    } catch (err) {
      setServerError(messageForField(errorMessage(err), errorField(err)));
      setBusy(false);
    }
  };

  const footer = (
    <>
      <button type="button" className="bt-button" onClick={() => openDialog(null)} disabled={busy}>
        Cancel
      </button>
      <button type="submit" form={`${id}-form`} className="bt-button bt-primary" disabled={busy || error !== null}>
        {busy ? 'Renaming…' : 'Rename'}
      </button>
    </>
  );

  return (
    <Dialog title={`Rename “${current}”`} onClose={() => openDialog(null)} footer={footer} busy={busy}>
      <form id={`${id}-form`} className="bt-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="bt-field">
          <label htmlFor={`${id}-name`}>Run name</label>
          <input
            id={`${id}-name`}
            className="bt-input"
            value={name}
            disabled={busy}
            spellCheck={false}
            autoComplete="off"
            data-autofocus
            onFocus={(e) => e.currentTarget.select()}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              setName(e.target.value);
              setServerError(null);
            }}
          />
          <span
            id={`${id}-hint`}
            className={error ? 'bt-field-error' : 'bt-field-hint'}
            role={serverError ? 'alert' : undefined}
          >
            {error ?? RUN_NAME_RULE}
          </span>
        </div>
      </form>
    </Dialog>
  );
}

export function DeleteDialog() {
  const { run } = useDialogRun('delete');
  const deleteRun = useBaton((s) => s.deleteRun);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const loadRun = useBaton((s) => s.loadRun);
  const details = useBaton((s) => (run ? s.runDetails[run.id] : undefined));
  const removedWorktrees = useBaton((s) => s.removedWorktrees);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removeWorktrees, setRemoveWorktrees] = useState(false);
  const id = useId();
  const runId = run?.id;
  // The summary in the history does not say which agents have worktrees; the run's details do.
  useEffect(() => {
    if (runId && !details) void loadRun(runId);
  }, [runId, details, loadRun]);
  if (!run) return null;
  const worktrees = details?.agents.filter((a) => shownWorktree({ removedWorktrees }, a)?.created).length ?? 0;

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteRun(run.id, worktrees > 0 && removeWorktrees);
      toast('success', `Deleted run “${run.name}”${worktrees > 0 && removeWorktrees ? ' and its worktrees' : ''}`);
      openDialog(null);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  const footer = (
    <>
      <button type="button" className="bt-button" onClick={() => openDialog(null)} disabled={busy}>
        Cancel
      </button>
      <button type="button" className="bt-button bt-danger" onClick={() => void confirm()} disabled={busy}>
        {busy ? 'Deleting…' : 'Delete run'}
      </button>
    </>
  );

  return (
    <Dialog title={`Delete “${run.name}”?`} onClose={() => openDialog(null)} footer={footer} busy={busy}>
      <p>
        Deleting the run <strong>{run.name}</strong> stops its agents ({run.liveAgents} of {run.agentCount} live now)
        and removes its history and saved screens from Baton.
      </p>
      <p className="bt-muted">
        The vendors keep their own conversations: a handle you copied earlier can still resume them.
      </p>
      {worktrees > 0 ? (
        <div className="bt-field">
          <label className="bt-check">
            <input
              type="checkbox"
              checked={removeWorktrees}
              disabled={busy}
              aria-describedby={`${id}-wt`}
              onChange={(e) => setRemoveWorktrees(e.target.checked)}
            />
            <span>Also remove its {worktrees === 1 ? 'worktree' : `${worktrees} worktrees`}</span>
          </label>
          <span id={`${id}-wt`} className="bt-field-hint">
            Their directories are deleted; merged branches go too, others are kept. Worktrees left behind are listed
            under Leftover worktrees.
          </span>
        </div>
      ) : null}
      {error ? (
        <p className="bt-error-box" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
