// Export a run, or one of its snapshots, as an encrypted bundle (docs/bundles.md): the passphrase twice, then the
// file is saved (a download). The passphrase stays in this form's state only while the dialog is open.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Result } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { saveBundle } from './bundle-files.js';
import { Dialog } from './Dialog.js';
import { errorMessage } from './format.js';
import './components.css';

const MIN_CHARS = 8;

export function ExportDialog() {
  const runId = useBaton((s) => (s.dialog?.kind === 'export' ? s.dialog.runId : null));
  const run = useBaton((s) => s.runs.find((r) => r.id === runId) ?? null);
  return run ? <ExportForm key={run.id} runId={run.id} name={run.name} /> : null;
}

function ExportForm({ runId, name }: { runId: string; name: string }) {
  const exportBundle = useBaton((s) => s.exportBundle);
  const listSnapshots = useBaton((s) => s.listSnapshots);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const id = useId();
  const [snapshots, setSnapshots] = useState<{ id: string; at: string }[]>([]);
  const [from, setFrom] = useState('now');
  const [pass, setPass] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Result<'bundle.export'> | null>(null);

  useEffect(() => {
    listSnapshots(runId).then(setSnapshots, () => setSnapshots([]));
  }, [runId, listSnapshots]);

  const problem =
    pass.length < MIN_CHARS
      ? `At least ${MIN_CHARS} characters.`
      : again !== pass
        ? 'The two passphrases differ.'
        : null;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (problem || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await exportBundle(runId, pass, from === 'now' ? undefined : from);
      saveBundle(result.bundle, result.fileName);
      setDone({ ...result, bundle: '' });
      setPass('');
      setAgain('');
      toast('success', `Saved “${result.fileName}”`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const footer = done ? (
    <button type="button" className="bt-button bt-primary" onClick={() => openDialog(null)}>
      Done
    </button>
  ) : (
    <>
      <button type="button" className="bt-button" onClick={() => openDialog(null)} disabled={busy}>
        Cancel
      </button>
      <button type="submit" form={`${id}-form`} className="bt-button bt-primary" disabled={busy || problem !== null}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
    </>
  );

  return (
    <Dialog title={`Export “${name}”`} onClose={() => openDialog(null)} footer={footer} busy={busy}>
      {done ? (
        <div role="status">
          <p>Saved {done.fileName}. Keep the passphrase apart from the file: it opens every conversation in it.</p>
          <ul>
            {done.agents.map((a) => (
              <li key={a.label}>
                {a.label} ({a.vendor}): {a.transcript ? 'conversation included' : 'no conversation'}
                {a.note ? ` — ${a.note}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <form id={`${id}-form`} className="bt-form" onSubmit={(e) => void submit(e)} noValidate>
          <p className="bt-muted">
            One file with the run, every agent&apos;s conversation and the branches of agents in worktrees, encrypted
            with a passphrase. Import it on another machine.
          </p>
          <div className="bt-field">
            <label htmlFor={`${id}-from`}>What to export</label>
            <select id={`${id}-from`} className="bt-input" value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="now">The run as it is now</option>
              {snapshots.map((s) => (
                <option key={s.id} value={s.id}>
                  Snapshot of {new Date(s.at).toLocaleString()}
                </option>
              ))}
            </select>
          </div>
          <div className="bt-field">
            <label htmlFor={`${id}-pass`}>Passphrase</label>
            <input
              id={`${id}-pass`}
              type="password"
              className="bt-input"
              autoComplete="new-password"
              value={pass}
              disabled={busy}
              data-autofocus
              onChange={(e) => setPass(e.target.value)}
            />
          </div>
          <div className="bt-field">
            <label htmlFor={`${id}-again`}>Passphrase again</label>
            <input
              id={`${id}-again`}
              type="password"
              className="bt-input"
              autoComplete="new-password"
              value={again}
              disabled={busy}
              aria-describedby={`${id}-hint`}
              onChange={(e) => setAgain(e.target.value)}
            />
            <span id={`${id}-hint`} className="bt-field-hint">
              {problem ?? 'Ready.'}
            </span>
          </div>
          {error && (
            <p className="bt-field-error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </Dialog>
  );
}
