// Resume from handle: paste a handle, see per agent what will happen, resume, then see each agent's outcome.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { HandlePreview, ResumeOutcome } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { Dialog } from './Dialog.js';
import { OutcomeTable } from './OutcomeTable.js';
import { errorField, errorMessage, handleAdvice, messageForField } from './format.js';
import { handleRepoRoots, reposToMap, usableRepoMap } from './handle-repos.js';
import { RepoMapFields } from './RepoMapFields.js';
import { HostMapFields, handleHosts, usableHostMap } from './HostMapFields.js';
import { PreviewTable, ShellConfirmations, shellIndexes } from './ResumePreview.js';
import { CWD_RULE, validateCwd } from './validate.js';
import './components.css';

type Inspection =
  | { state: 'empty' }
  | { state: 'checking' }
  | { state: 'error'; message: string }
  | { state: 'ok'; preview: HandlePreview };

export function ResumeDialog() {
  const dialog = useBaton((s) => s.dialog);
  return dialog?.kind === 'resume' ? <ResumeForm initial={dialog.handle} /> : null;
}

function ResumeForm({ initial }: { initial: string | undefined }) {
  const connected = useBaton((s) => s.status === 'connected');
  const inspectHandle = useBaton((s) => s.inspectHandle);
  const resume = useBaton((s) => s.resume);
  const openDialog = useBaton((s) => s.openDialog);
  const closeRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  const [handle, setHandle] = useState(initial ?? '');
  const [cwd, setCwd] = useState('');
  const [inspection, setInspection] = useState<Inspection>({ state: 'empty' });
  const [phase, setPhase] = useState<'edit' | 'resuming' | 'done'>('edit');
  const [resumeError, setResumeError] = useState<{ message: string; field: string | undefined } | null>(null);
  const [outcomes, setOutcomes] = useState<ResumeOutcome[]>([]);
  /** The shell agents the user confirmed, by handle index; a different handle starts with none. */
  const [shellOk, setShellOk] = useState<ReadonlySet<number>>(new Set());
  /** A missing repository root → where the user says it is now (every agent of it follows). */
  const [repoPaths, setRepoPaths] = useState<Readonly<Record<string, string>>>({});

  // A handle pasted on the page while this dialog is open replaces the one here.
  useEffect(() => {
    if (initial !== undefined) setHandle(initial);
  }, [initial]);

  useEffect(() => {
    if (phase === 'done') closeRef.current?.focus();
  }, [phase]);

  const text = handle.trim();
  /** The repositories offered a new path; kept while the preview is asked again, so a field being typed in stays. */
  const [mapRoots, setMapRoots] = useState<string[]>([]);
  useEffect(() => {
    setShellOk(new Set());
    setRepoPaths({});
    setMapRoots([]);
  }, [text]);
  const cwdError = cwd === '' ? null : validateCwd(cwd);
  const cwdParam = cwd !== '' && !cwdError ? cwd : undefined;
  // As a string, so the preview is asked again only when the usable mapping really changed.
  const repoMapKey = JSON.stringify(usableRepoMap(repoPaths));
  const [hostNames, setHostNames] = useState<Readonly<Record<string, string>>>({});
  const hostMapKey = JSON.stringify(usableHostMap(hostNames));
  const handleHostList = useMemo(() => handleHosts(text), [text]);

  useEffect(() => {
    if (phase !== 'edit') return;
    if (!text) return setInspection({ state: 'empty' });
    if (!connected)
      return setInspection({ state: 'error', message: 'Not connected to the Baton core; waiting to reconnect.' });
    let current = true;
    setInspection({ state: 'checking' });
    const timer = setTimeout(() => {
      inspectHandle(
        text,
        cwdParam,
        JSON.parse(repoMapKey) as Record<string, string>,
        JSON.parse(hostMapKey) as Record<string, string>,
      )
        .then((preview) => current && setInspection({ state: 'ok', preview }))
        .catch(
          (err: unknown) =>
            current &&
            setInspection({ state: 'error', message: `${errorMessage(err)}. ${handleAdvice(errorField(err))}` }),
        );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, cwdParam, repoMapKey, hostMapKey, connected, inspectHandle, phase]);

  const preview = inspection.state === 'ok' ? inspection.preview : null;
  useEffect(() => {
    if (preview)
      setMapRoots(
        reposToMap(
          handleRepoRoots(text),
          // A host's repositories are not mapped here (its core finds them): only this machine's agents count.
          preview.agents.map((a) => (a.host ? null : (a.worktree?.state ?? null))),
          repoPaths,
        ),
      );
    // Only a new preview changes the list (a path being typed keeps its field): text and repoPaths are read as they are.
  }, [preview]);
  // A caw handle carries no directory; once one is given, the preview stops asking, but resume still needs it.
  const needsCwd = preview ? preview.kind === 'caw' || preview.needsCwd : false;
  const shells = preview ? shellIndexes(preview) : [];
  const confirmShell = shells.filter((i) => shellOk.has(i));
  // A directory the core refuses refuses the whole resume: say so here instead of offering the button.
  const blocked = preview?.agents.find((a) => a.cwdProblem !== null && !(needsCwd && cwdParam === undefined)) ?? null;
  // Only unconfirmed shell agents: Resume would start nothing.
  const nothingToStart = preview !== null && shells.length === preview.agents.length && confirmShell.length === 0;
  const ready =
    preview !== null &&
    (!needsCwd || cwdParam !== undefined) &&
    blocked === null &&
    !nothingToStart &&
    phase === 'edit';

  const submit = async () => {
    if (!ready) return;
    setPhase('resuming');
    setResumeError(null);
    try {
      const result = await resume(
        text,
        needsCwd ? cwdParam : undefined,
        confirmShell,
        JSON.parse(repoMapKey) as Record<string, string>,
        JSON.parse(hostMapKey) as Record<string, string>,
      );
      setHandle(''); // The secret is not kept once it has done its job.
      setOutcomes(result.outcomes);
      setPhase('done');
    } catch (err) {
      setResumeError({ message: errorMessage(err), field: errorField(err) });
      setPhase('edit');
    }
  };

  const close = () => openDialog(null);
  const footer =
    phase === 'done' ? (
      <button ref={closeRef} type="button" className="bt-button bt-primary" onClick={close}>
        Close
      </button>
    ) : (
      <>
        <button type="button" className="bt-button" onClick={close} disabled={phase === 'resuming'}>
          Cancel
        </button>
        <button type="button" className="bt-button bt-primary" disabled={!ready} onClick={() => void submit()}>
          {phase === 'resuming' ? 'Resuming…' : 'Resume'}
        </button>
      </>
    );

  if (phase === 'done') {
    return (
      <Dialog title="Resume from handle" onClose={close} footer={footer} wide>
        <OutcomeTable outcomes={outcomes} />
      </Dialog>
    );
  }

  const cwdShownError = (resumeError?.field === 'cwd' ? messageForField(resumeError.message, 'cwd') : null) ?? cwdError;
  return (
    <Dialog title="Resume from handle" onClose={close} footer={footer} busy={phase === 'resuming'} wide>
      <div className="bt-field">
        <label htmlFor={`${id}-handle`}>Handle</label>
        <textarea
          id={`${id}-handle`}
          className="bt-input bt-mono bt-handle"
          rows={4}
          value={handle}
          disabled={phase !== 'edit'}
          spellCheck={false}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          placeholder="baton1.…"
          aria-invalid={inspection.state === 'error' ? true : undefined}
          aria-describedby={`${id}-handle-hint`}
          onChange={(e) => {
            setHandle(e.target.value);
            setResumeError(null);
          }}
        />
        <span id={`${id}-handle-hint`} className="bt-field-hint">
          A Baton handle (baton1.…), its JSON, or a caw resume handle. It names your conversations: keep it secret.
        </span>
      </div>
      <div aria-live="polite" className="bt-muted">
        {inspection.state === 'checking' ? 'Checking the handle…' : ''}
      </div>
      {inspection.state === 'error' ? (
        <p className="bt-error-box" role="alert">
          {inspection.message}
        </p>
      ) : null}
      {needsCwd ? (
        <div className="bt-field">
          <label htmlFor={`${id}-cwd`}>Working directory</label>
          <input
            id={`${id}-cwd`}
            className="bt-input bt-mono"
            value={cwd}
            spellCheck={false}
            autoComplete="off"
            placeholder="/home/you/project"
            aria-invalid={cwdShownError ? true : undefined}
            aria-describedby={`${id}-cwd-hint`}
            onChange={(e) => {
              setCwd(e.target.value);
              setResumeError(null);
            }}
          />
          <span id={`${id}-cwd-hint`} className={cwdShownError ? 'bt-field-error' : 'bt-field-hint'}>
            {cwdShownError ?? `This handle carries no directory: give the one its conversation was in. ${CWD_RULE}`}
          </span>
        </div>
      ) : null}
      {preview ? <PreviewTable preview={preview} /> : null}
      {mapRoots.length > 0 ? (
        <RepoMapFields
          roots={mapRoots}
          mapped={repoPaths}
          disabled={phase !== 'edit'}
          onChange={(root, path) => {
            setRepoPaths((old) => ({ ...old, [root]: path }));
            setResumeError(null);
          }}
        />
      ) : null}
      <HostMapFields
        hosts={handleHostList}
        mapped={hostNames}
        disabled={phase !== 'edit'}
        onChange={(host, to) => {
          setHostNames((old) => ({ ...old, [host]: to }));
          setResumeError(null);
        }}
      />
      {preview ? (
        <ShellConfirmations
          preview={preview}
          confirmed={shellOk}
          disabled={phase !== 'edit'}
          onChange={(i, on) =>
            setShellOk((old) => {
              const next = new Set(old);
              if (on) next.add(i);
              else next.delete(i);
              return next;
            })
          }
        />
      ) : null}
      {blocked ? (
        <p className="bt-warn-box" role="status">
          Agent {blocked.label} cannot start in its directory (the reason is above): fix the directory, or resume that
          agent's own handle elsewhere, then paste the handle again.
        </p>
      ) : nothingToStart ? (
        <p className="bt-muted" role="status">
          Every agent of this handle is a shell agent: check the ones to start.
        </p>
      ) : null}
      {resumeError && (resumeError.field !== 'cwd' || !needsCwd) ? (
        <p className="bt-error-box" role="alert">
          {resumeError.message}
        </p>
      ) : null}
      {phase === 'resuming' ? (
        <p role="status" className="bt-muted">
          Resuming {preview?.agents.length ?? ''} agent{preview?.agents.length === 1 ? '' : 's'}…
        </p>
      ) : null}
    </Dialog>
  );
}

/** Pasting a handle anywhere outside a terminal or a text field opens Resume with it. Call once, in the App. */
export function usePasteToResume(): void {
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('.xterm, input, textarea, select, [contenteditable]:not([contenteditable="false"])')) return;
      if (target instanceof HTMLElement && target.isContentEditable) return;
      const text = e.clipboardData?.getData('text/plain').trim() ?? '';
      if (!text.startsWith('baton1.') && !text.startsWith('{')) return;
      const { dialog, openDialog } = useBaton.getState();
      // Never throw away a half-filled New run or Rename: only the page or the Resume dialog takes a paste.
      if (dialog && dialog.kind !== 'resume') return;
      e.preventDefault();
      openDialog({ kind: 'resume', handle: text });
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, []);
}
