// Export a run, or one of its snapshots, as an encrypted bundle (docs/bundles.md): the passphrase twice, then the
// file is saved (a download). The passphrase stays in this form's state only while the dialog is open.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Result } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { saveBundle } from './bundle-files.js';
import { DoneOrActions, PassphraseField, SnapshotChoice } from './BundleFields.js';
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

  const footer = (
    <DoneOrActions done={done !== null} busy={busy} onClose={() => openDialog(null)}>
      <button type="submit" form={`${id}-form`} className="bt-button bt-primary" disabled={busy || problem !== null}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
    </DoneOrActions>
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
          <SnapshotChoice
            id={`${id}-from`}
            label="What to export"
            nowText="The run as it is now"
            snapshots={snapshots}
            value={from}
            onChange={setFrom}
            disabled={busy}
          />
          <PassphraseField
            id={`${id}-pass`}
            label="Passphrase"
            value={pass}
            onChange={setPass}
            disabled={busy}
            autoComplete="new-password"
            autoFocus
          />
          <PassphraseField
            id={`${id}-again`}
            label="Passphrase again"
            value={again}
            onChange={setAgain}
            disabled={busy}
            autoComplete="new-password"
            hint={problem ?? 'Ready.'}
          />
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
