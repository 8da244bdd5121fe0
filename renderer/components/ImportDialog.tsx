// Import a bundle (docs/bundles.md): choose the file, give the passphrase, see per agent where it will work here and
// whether its conversation comes with it, map each directory of the other machine to one here, then import and
// resume. Nothing is written until Import is pressed; the core checks the whole bundle again then.
import { useId, useState, type FormEvent } from 'react';
import type { BundlePreview, ResumeOutcome } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { readBundle } from './bundle-files.js';
import { DoneOrActions, PassphraseField } from './BundleFields.js';
import { Dialog } from './Dialog.js';
import { errorMessage } from './format.js';
import { OutcomeTable } from './OutcomeTable.js';
import './components.css';

export function ImportDialog() {
  const inspectBundle = useBaton((s) => s.inspectBundle);
  const importBundle = useBaton((s) => s.importBundle);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const id = useId();
  const [bundle, setBundle] = useState<string | null>(null);
  const [pass, setPass] = useState('');
  const [map, setMap] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<BundlePreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<ResumeOutcome[] | null>(null);

  /** Only the directories the user changed travel as the map. */
  const givenMap = () => Object.fromEntries(Object.entries(map).filter(([from, to]) => to !== '' && to !== from));

  const check = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!bundle || busy) return;
    setBusy(true);
    setError(null);
    try {
      const p = await inspectBundle(bundle, pass, givenMap());
      setPreview(p);
      setMap((m) => Object.fromEntries(p.directories.map((d) => [d.from, m[d.from] ?? (d.exists ? d.from : '')])));
    } catch (err) {
      setPreview(null);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const runImport = async () => {
    if (!bundle || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await importBundle(bundle, pass, givenMap());
      setOutcomes(result.outcomes);
      setPass('');
      toast('success', `Imported “${result.run.name}”`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const ready = preview !== null && preview.agents.every((a) => a.mappedCwd !== null);
  const footer = (
    <DoneOrActions done={outcomes !== null} busy={busy} onClose={() => openDialog(null)}>
      <button type="submit" form={`${id}-form`} className="bt-button" disabled={busy || !bundle || pass.length < 8}>
        {preview ? 'Check again' : 'Preview'}
      </button>
      <button type="button" className="bt-button bt-primary" disabled={busy || !ready} onClick={() => void runImport()}>
        {busy ? 'Working…' : 'Import and resume'}
      </button>
    </DoneOrActions>
  );

  return (
    <Dialog title="Import a bundle" onClose={() => openDialog(null)} footer={footer} busy={busy} wide>
      {outcomes ? (
        <OutcomeTable outcomes={outcomes} caption="Import outcome per agent" />
      ) : (
        <form id={`${id}-form`} className="bt-form" onSubmit={(e) => void check(e)} noValidate>
          <div className="bt-field">
            <label htmlFor={`${id}-file`}>Bundle file</label>
            <input
              id={`${id}-file`}
              type="file"
              className="bt-input"
              accept=".baton-bundle"
              data-autofocus
              disabled={busy}
              onChange={(e) => {
                const file = e.target.files?.[0];
                setPreview(null);
                setBundle(null);
                if (file) readBundle(file).then(setBundle, (err: unknown) => setError(errorMessage(err)));
              }}
            />
          </div>
          <PassphraseField
            id={`${id}-pass`}
            label="Passphrase"
            value={pass}
            onChange={setPass}
            disabled={busy}
            autoComplete="off"
          />
          {preview && (
            <>
              <p>
                Run “{preview.runName}”, bundled {new Date(preview.createdAt).toLocaleString()}
                {preview.snapshotId ? ' from a snapshot' : ''}.
              </p>
              {preview.directories.map((d, i) => (
                <div className="bt-field" key={d.from}>
                  <label htmlFor={`${id}-dir-${i}`}>Directory here for {d.from}</label>
                  <input
                    id={`${id}-dir-${i}`}
                    className="bt-input"
                    value={map[d.from] ?? ''}
                    placeholder="/absolute/path/on/this/machine"
                    spellCheck={false}
                    disabled={busy}
                    onChange={(e) => setMap((m) => ({ ...m, [d.from]: e.target.value }))}
                    onBlur={() => void check()}
                  />
                </div>
              ))}
              <div className="bt-table-wrap">
                <table className="bt-table">
                  <caption>Agents of the bundle</caption>
                  <thead>
                    <tr>
                      <th scope="col">Label</th>
                      <th scope="col">Vendor</th>
                      <th scope="col">Works in</th>
                      <th scope="col">Conversation</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.agents.map((a) => (
                      <tr key={a.label}>
                        <th scope="row">{a.label}</th>
                        <td>{a.vendor}</td>
                        <td className={a.mappedCwd ? '' : 'bt-danger-text'}>
                          {a.mappedCwd ?? `${a.cwd}: ${a.cwdProblem ?? 'not here'} — give a directory above`}
                        </td>
                        <td>
                          {a.transcript ? 'included' : 'starts fresh'}
                          {a.branch ? `; branch ${a.branch}` : ''}
                          {a.note ? ` — ${a.note}` : ''}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
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
