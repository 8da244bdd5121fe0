// Fork a run (docs/bundles.md §1): from the run as it is now or from one of its snapshots, into a new run whose agents
// continue copies of their conversations. The outcome per agent says how (the vendor's own fork, a copy, or fresh).
import { useEffect, useId, useState } from 'react';
import type { ForkOutcome } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { DoneOrActions, SnapshotChoice } from './BundleFields.js';
import { Dialog } from './Dialog.js';
import { errorMessage } from './format.js';
import { AgentOutcomes } from './OutcomeTable.js';
import './components.css';

const METHOD_WORDS: Record<ForkOutcome['method'], string> = {
  native: "the vendor's own fork",
  copy: 'a copy of its transcript',
  none: 'no conversation carried over',
};

export function ForkDialog() {
  const runId = useBaton((s) => (s.dialog?.kind === 'fork' ? s.dialog.runId : null));
  const run = useBaton((s) => s.runs.find((r) => r.id === runId) ?? null);
  return run ? <ForkForm key={run.id} runId={run.id} name={run.name} /> : null;
}

function ForkForm({ runId, name }: { runId: string; name: string }) {
  const forkRun = useBaton((s) => s.forkRun);
  const listSnapshots = useBaton((s) => s.listSnapshots);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const id = useId();
  const [snapshots, setSnapshots] = useState<{ id: string; at: string; message: string }[] | null>(null);
  const [from, setFrom] = useState('now');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<ForkOutcome[] | null>(null);

  useEffect(() => {
    listSnapshots(runId).then(setSnapshots, (err: unknown) => setError(errorMessage(err)));
  }, [runId, listSnapshots]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await forkRun(runId, from === 'now' ? undefined : from);
      setOutcomes(result.outcomes);
      toast('success', `Forked “${name}” into “${result.run.name}”`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const footer = (
    <DoneOrActions done={outcomes !== null} busy={busy} onClose={() => openDialog(null)}>
      <button type="button" className="bt-button bt-primary" onClick={() => void submit()} disabled={busy}>
        {busy ? 'Forking…' : 'Fork'}
      </button>
    </DoneOrActions>
  );

  return (
    <Dialog title={`Fork “${name}”`} onClose={() => openDialog(null)} footer={footer} busy={busy}>
      {outcomes ? (
        <AgentOutcomes
          rows={outcomes}
          caption="How each agent of the fork continues"
          column="Conversation"
          cell={(o) => ({
            text:
              (o.outcome === 'failed'
                ? 'failed'
                : `${METHOD_WORDS[o.method]}, from ${o.from === 'now' ? 'now' : 'the snapshot'}`) +
              (o.message ? ` — ${o.message}` : ''),
            className: o.outcome === 'failed' ? 'bt-danger-text' : o.method === 'none' ? 'bt-warn-text' : '',
          })}
        />
      ) : (
        <form className="bt-form" onSubmit={(e) => (e.preventDefault(), void submit())}>
          <p className="bt-muted">
            A new run “{name} fork” in which every agent continues a copy of its conversation. This run is left as it
            is.
          </p>
          <SnapshotChoice
            id={`${id}-from`}
            label="Start from"
            nowText="The conversations as they are now"
            snapshots={snapshots ?? []}
            value={from}
            onChange={setFrom}
            disabled={busy}
            autoFocus
            hint={
              snapshots === null
                ? 'Loading its snapshots…'
                : 'From a snapshot, conversations are cut where it was taken when the vendor keeps a transcript Baton can cut, and agents in worktrees get a branch from the commit they had then.'
            }
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
