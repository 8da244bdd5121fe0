// Sessions found on this machine: conversations in the vendor CLIs' own stores (started outside Baton too), searched,
// chosen with checkboxes and adopted into a new run, which resumes each of them as any resume by handle would.
import { OutcomeTable } from './OutcomeTable.js';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { AdoptSession, FoundSession, ResumeOutcome, Result } from '../../shared/contract.js';
import { LIMITS, type VendorName } from '../../shared/words.js';
import { useBaton } from '../state/store.js';
import { ConversationFilters } from './ConversationFilters.js';
import { Dialog } from './Dialog.js';
import { errorField, errorMessage, messageForField, relativeTime, shortId } from './format.js';
import { RUN_NAME_RULE, suggestRunName, validateRunName } from './validate.js';
import './components.css';

const TITLE = 'Sessions found on this machine';
/** Rows asked for per listing; the search narrows the rest. */
const PAGE = 200;

type Listing =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'ok'; result: Result<'sessions.list'> };

const keyOf = (s: Pick<FoundSession, 'vendor' | 'sessionId'>) => `${s.vendor}\n${s.sessionId}`;

/** The directory's last part, for a short accessible name. */
const dirName = (cwd: string | null) => (cwd ? (cwd.split('/').filter(Boolean).pop() ?? '/') : 'an unknown directory');

export function SessionsFound() {
  const dialog = useBaton((s) => s.dialog);
  return dialog?.kind === 'sessions' ? <SessionsFoundDialog /> : null;
}

function SessionsFoundDialog() {
  const connected = useBaton((s) => s.status === 'connected');
  const listSessions = useBaton((s) => s.listSessions);
  const runs = useBaton((s) => s.runs);
  const adoptSessions = useBaton((s) => s.adoptSessions);
  const openDialog = useBaton((s) => s.openDialog);
  const selectRun = useBaton((s) => s.selectRun);
  const id = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const adoptRef = useRef<HTMLButtonElement>(null);

  const [query, setQuery] = useState('');
  const [vendor, setVendor] = useState<VendorName | 'all'>('all');
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [scanning, setScanning] = useState(true);
  const [scan, setScan] = useState(0);
  const [selected, setSelected] = useState<ReadonlyMap<string, FoundSession>>(new Map());
  const [nameDraft, setNameDraft] = useState<string | null>(null);
  const [phase, setPhase] = useState<'edit' | 'adopting' | 'done'>('edit');
  const [serverError, setServerError] = useState<{ message: string; field: string | undefined } | null>(null);
  const [outcomes, setOutcomes] = useState<{ runName: string; list: ResumeOutcome[] } | null>(null);

  // List (again) as the search and filter change, a moment after the last keystroke.
  useEffect(() => {
    if (!connected)
      return setListing({ state: 'error', message: 'Not connected to the Baton core; waiting to reconnect.' });
    let current = true;
    setScanning(true);
    const q = query.trim();
    const timer = setTimeout(
      () => {
        listSessions({ limit: PAGE, ...(q ? { query: q.slice(0, 200) } : {}), ...(vendor !== 'all' ? { vendor } : {}) })
          .then((result) => current && setListing({ state: 'ok', result }))
          .catch((err: unknown) => current && setListing({ state: 'error', message: errorMessage(err) }))
          .finally(() => current && setScanning(false));
      },
      q ? 200 : 0,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [connected, listSessions, query, vendor, scan]);

  useEffect(() => {
    if (phase === 'done') closeRef.current?.focus();
  }, [phase]);

  const takenNames = useMemo(() => runs.map((r) => r.name), [runs]);
  const chosen = [...selected.values()];
  const name = nameDraft ?? suggestRunName(chosen[0]?.cwd ?? '', takenNames);
  const nameError = validateRunName(name, takenNames);
  const serverName = serverError?.field === 'name' ? messageForField(serverError.message, 'name') : null;
  const nameShownError = serverName ?? (nameDraft !== null ? nameError : null);
  const full = selected.size >= LIMITS.agentsPerRun;
  const ready = phase === 'edit' && selected.size > 0 && nameError === null;

  const toggle = (s: FoundSession, on: boolean) => {
    setServerError(null);
    setSelected((m) => {
      const next = new Map(m);
      if (on) next.set(keyOf(s), s);
      else next.delete(keyOf(s));
      return next;
    });
  };

  const close = () => openDialog(null);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!ready) {
      if (nameError) {
        setNameDraft(name);
        nameRef.current?.focus();
      }
      return;
    }
    const sessions: AdoptSession[] = chosen.map((s) => ({ vendor: s.vendor, sessionId: s.sessionId, cwd: s.cwd! }));
    setServerError(null);
    setPhase('adopting');
    try {
      const result = await adoptSessions(name, sessions);
      setOutcomes({ runName: result.run.name, list: result.outcomes });
      setPhase('done');
    } catch (err) {
      setServerError({ message: describeError(errorMessage(err), errorField(err), chosen), field: errorField(err) });
      setPhase('edit');
      // The button was disabled while adopting, which dropped focus out of the dialog: bring it back.
      requestAnimationFrame(() => (errorField(err) === 'name' ? nameRef.current : adoptRef.current)?.focus());
    }
  };

  if (phase === 'done' && outcomes) {
    return (
      <Dialog
        title={TITLE}
        onClose={close}
        wide
        footer={
          <button ref={closeRef} type="button" className="bt-button bt-primary" onClick={close}>
            Close
          </button>
        }
      >
        <p>
          Run <strong>{outcomes.runName}</strong> was created and is selected.
        </p>
        <OutcomeTable outcomes={outcomes.list} caption="Outcome per adopted session" />
      </Dialog>
    );
  }

  const result = listing.state === 'ok' ? listing.result : null;
  const footer = (
    <>
      <span className="bt-muted bt-sessions-count" aria-live="polite">
        {selected.size === 0 ? 'No session chosen' : `${selected.size} session${selected.size === 1 ? '' : 's'} chosen`}
        {full ? ` (at most ${LIMITS.agentsPerRun} per run)` : ''}
      </span>
      {selected.size > 0 ? (
        <button type="button" className="bt-button" onClick={() => setSelected(new Map())} disabled={phase !== 'edit'}>
          Clear choice
        </button>
      ) : null}
      <button type="button" className="bt-button" onClick={close} disabled={phase === 'adopting'}>
        Cancel
      </button>
      <button ref={adoptRef} type="submit" form={`${id}-form`} className="bt-button bt-primary" disabled={!ready}>
        {phase === 'adopting' ? 'Adopting…' : 'Adopt into a run'}
      </button>
    </>
  );

  return (
    <Dialog title={TITLE} onClose={close} footer={footer} busy={phase === 'adopting'} wide>
      <p className="bt-muted">
        Conversations the vendor CLIs keep on this machine, including ones started outside Baton. Choose some and adopt
        them into a new run: each becomes an agent that resumes its conversation in its directory.
      </p>
      <ConversationFilters
        className="bt-sessions-filters"
        label="Search"
        placeholder="Directory, first prompt, title or session id"
        maxLength={200}
        text={query}
        onText={setQuery}
        vendor={vendor}
        onVendor={setVendor}
      >
        <button
          type="button"
          className="bt-button bt-sessions-rescan"
          onClick={() => setScan((n) => n + 1)}
          disabled={scanning}
        >
          Rescan
        </button>
      </ConversationFilters>
      <p className="bt-muted bt-sessions-status" role="status">
        {scanning
          ? 'Looking for sessions…'
          : result
            ? result.total === 0
              ? query.trim() || vendor !== 'all'
                ? 'No session matches.'
                : 'No sessions found on this machine.'
              : `${result.total > result.sessions.length ? `Showing the newest ${result.sessions.length} of ${result.total}` : `${result.total}`} session${result.total === 1 ? '' : 's'}${result.total > result.sessions.length ? ': search to narrow' : ''} (scanned in ${Math.round(result.scannedMs)} ms)`
            : ''}
      </p>
      {listing.state === 'error' ? (
        <p className="bt-error-box" role="alert">
          Could not list sessions: {listing.message}
        </p>
      ) : null}
      {result && result.sessions.length > 0 ? (
        <div className="bt-table-wrap bt-sessions-wrap">
          <table className="bt-table bt-sessions-table">
            <caption className="bt-visually-hidden">{TITLE}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span className="bt-visually-hidden">Chosen</span>
                </th>
                <th scope="col">Vendor</th>
                <th scope="col">Directory</th>
                <th scope="col">First prompt</th>
                <th scope="col">Last activity</th>
                <th scope="col">
                  <span className="bt-visually-hidden">In a run</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {result.sessions.map((s) => (
                <SessionRow
                  key={keyOf(s)}
                  session={s}
                  checked={selected.has(keyOf(s))}
                  disabled={phase !== 'edit' || (full && !selected.has(keyOf(s)))}
                  onToggle={(on) => toggle(s, on)}
                  onShowRun={(runId) => {
                    selectRun(runId);
                    close();
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <form id={`${id}-form`} className="bt-form bt-sessions-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="bt-field">
          <label htmlFor={`${id}-name`}>Run name</label>
          <input
            ref={nameRef}
            id={`${id}-name`}
            className="bt-input"
            value={name}
            disabled={phase !== 'edit'}
            autoComplete="off"
            aria-invalid={nameShownError ? true : undefined}
            aria-describedby={`${id}-name-hint`}
            onChange={(e) => {
              setNameDraft(e.target.value);
              setServerError(null);
            }}
          />
          <span id={`${id}-name-hint`} className={nameShownError ? 'bt-field-error' : 'bt-field-hint'}>
            {nameShownError ?? RUN_NAME_RULE}
          </span>
        </div>
      </form>
      {serverError && serverError.field !== 'name' ? (
        <p className="bt-error-box" role="alert">
          {serverError.message}
        </p>
      ) : null}
      {phase === 'adopting' ? (
        <p role="status" className="bt-muted">
          Adopting {selected.size} session{selected.size === 1 ? '' : 's'}…
        </p>
      ) : null}
    </Dialog>
  );
}

function SessionRow({
  session: s,
  checked,
  disabled,
  onToggle,
  onShowRun,
}: {
  session: FoundSession;
  checked: boolean;
  disabled: boolean;
  onToggle(on: boolean): void;
  onShowRun(runId: string): void;
}) {
  const why = s.adoptedBy
    ? `already in run ${s.adoptedBy.runName}`
    : s.cwd === null
      ? 'its directory is unknown'
      : null;
  const prompt = s.firstPrompt ?? s.title ?? '';
  const described = `${s.vendor} session in ${dirName(s.cwd)}${prompt ? `: ${prompt.slice(0, 80)}` : ''}`;
  return (
    <tr className={checked ? 'bt-selected' : undefined}>
      <td>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled || why !== null}
          aria-label={`Choose ${described}`}
          title={why ? `Cannot adopt: ${why}` : undefined}
          onChange={(e) => onToggle(e.target.checked)}
        />
      </td>
      <td>{s.vendor}</td>
      <td className="bt-mono bt-sessions-dir" title={s.cwd ?? undefined}>
        {s.cwd ?? <span className="bt-muted">unknown</span>}
      </td>
      <td className="bt-sessions-prompt" title={[s.title, s.firstPrompt].filter(Boolean).join('\n') || undefined}>
        {s.title && s.title !== s.firstPrompt ? <strong className="bt-sessions-title">{s.title}</strong> : null}
        <span>{s.firstPrompt ?? <span className="bt-muted">(no prompt)</span>}</span>
        <span className="bt-visually-hidden"> — session {shortId(s.sessionId)}</span>
      </td>
      <td>
        <time dateTime={s.lastActivity} title={new Date(s.lastActivity).toLocaleString()}>
          {relativeTime(s.lastActivity)}
        </time>
      </td>
      <td>
        {s.adoptedBy ? (
          <button
            type="button"
            className="bt-small-button"
            aria-label={`In run ${s.adoptedBy.runName}: show that run`}
            onClick={() => onShowRun(s.adoptedBy!.runId)}
          >
            in run {s.adoptedBy.runName}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** `sessions[1].cwd: directory does not exist` → the session it is about, in the user's words. */
function describeError(message: string, field: string | undefined, chosen: readonly FoundSession[]): string {
  const m = field ? /^sessions\[(\d+)\](?:\.(\w+))?$/.exec(field) : null;
  const s = m ? chosen[Number(m[1])] : undefined;
  if (!m || !s) return message;
  const rule = messageForField(message, field);
  return `${s.vendor} session in ${s.cwd ?? 'an unknown directory'}${m[2] ? ` (${m[2]})` : ''}: ${rule}`;
}
