// A conversation found by search, opened at the hit (docs/search.md §6): its user and assistant turns, the hit
// scrolled into view and marked, and "Resume this conversation": its own run's agent when Baton holds it, otherwise
// into a new run or as a new agent of an existing run (search.resume).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ResumeOutcome, Result } from '../../shared/contract.js';
import { useSearch } from '../state/search-store.js';
import { useBaton } from '../state/store.js';
import { Dialog } from './Dialog.js';
import { errorMessage, relativeTime } from './format.js';
import { OutcomeTable } from './OutcomeTable.js';
import { MarkedLine, whereOf, wordRanges, type Opened } from './search-format.js';
import { RUN_NAME_RULE, suggestRunName, validateRunName } from './validate.js';

type Loaded =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'ok'; t: Result<'search.transcript'> };

export function SearchTranscript({ opened, onBack, onClose }: { opened: Opened; onBack(): void; onClose(): void }) {
  const transcript = useSearch((s) => s.transcript);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const focusRef = useRef<HTMLLIElement>(null);
  const { result, hit } = opened;

  useEffect(() => {
    let current = true;
    transcript({ vendor: result.vendor, sessionId: result.sessionId, ...(hit ? { messageId: hit.messageId } : {}) })
      .then((t) => current && setLoaded({ state: 'ok', t }))
      .catch((err: unknown) => current && setLoaded({ state: 'error', message: errorMessage(err) }));
    return () => {
      current = false;
    };
  }, [transcript, result.vendor, result.sessionId, hit]);

  useEffect(() => {
    if (loaded.state === 'ok') focusRef.current?.scrollIntoView({ block: 'center' });
  }, [loaded]);

  const t = loaded.state === 'ok' ? loaded.t : null;
  return (
    <Dialog
      title={`${result.vendor} conversation · ${whereOf(t ?? result)}`}
      onClose={onClose}
      wide
      footer={
        <>
          <button type="button" className="bt-button" onClick={onBack}>
            Back to results
          </button>
          <button type="button" className="bt-button" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <p className="bt-muted">
        <span className="bt-mono">{result.cwd ?? 'directory unknown'}</span> · last activity{' '}
        {relativeTime(result.lastActivity)}
      </p>
      {loaded.state === 'loading' ? <p role="status">Reading the conversation…</p> : null}
      {loaded.state === 'error' ? (
        <p className="bt-error-box" role="alert">
          Could not read the conversation: {loaded.message}
        </p>
      ) : null}
      {t ? (
        <>
          {t.skipped > 0 ? <p className="bt-muted">{t.skipped} earlier messages are not shown.</p> : null}
          <ol className="bt-transcript" aria-label="The conversation, oldest first">
            {t.messages.map((m, i) => (
              <li
                key={i}
                ref={i === t.focus ? focusRef : undefined}
                className={`bt-turn bt-turn-${m.role}${i === t.focus ? ' bt-turn-hit' : ''}`}
                aria-current={i === t.focus ? 'true' : undefined}
              >
                <span className="bt-turn-role">
                  {m.role === 'user' ? 'User' : 'Assistant'}
                  {m.time ? <time dateTime={m.time}> · {new Date(m.time).toLocaleString()}</time> : null}
                  {i === t.focus ? <span className="bt-visually-hidden"> (the match)</span> : null}
                </span>
                <div className="bt-turn-text">
                  {i === t.focus ? (
                    <MarkedLine line={{ text: m.text, match: wordRanges(m.text, opened.text) }} />
                  ) : (
                    m.text
                  )}
                </div>
              </li>
            ))}
          </ol>
          <ResumeFound transcript={t} onDone={onClose} />
        </>
      ) : null}
    </Dialog>
  );
}

function ResumeFound({ transcript: t, onDone }: { transcript: Result<'search.transcript'>; onDone(): void }) {
  const runs = useBaton((s) => s.runs);
  const resumeAgent = useBaton((s) => s.resumeAgent);
  const selectRun = useBaton((s) => s.selectRun);
  const resume = useSearch((s) => s.resume);
  const id = useId();
  const taken = runs.map((r) => r.name);
  const [into, setInto] = useState<string>('new');
  const [name, setName] = useState(() => suggestRunName(t.cwd ?? '', taken));
  const [phase, setPhase] = useState<'edit' | 'resuming'>('edit');
  const [error, setError] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<{ runName: string; list: ResumeOutcome[] } | null>(null);

  if (outcomes)
    return (
      <section className="bt-search-resume" aria-label="Resumed">
        <p>
          Run <strong>{outcomes.runName}</strong> now continues this conversation and is selected.
        </p>
        <OutcomeTable outcomes={outcomes.list} caption="Outcome of the resume" />
        <button type="button" className="bt-button bt-primary" onClick={onDone}>
          Show the run
        </button>
      </section>
    );

  const run = async (fn: () => Promise<void>) => {
    setError(null);
    setPhase('resuming');
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
      setPhase('edit');
    }
  };

  if (t.holder) {
    const { runId, runName, label } = t.holder;
    return (
      <section className="bt-search-resume" aria-label="Resume this conversation">
        <p>
          This conversation is agent <strong>{label}</strong> of run <strong>{runName}</strong>.
        </p>
        <div className="bt-row bt-gap">
          <button
            type="button"
            className="bt-button bt-primary"
            disabled={phase !== 'edit'}
            onClick={() =>
              void run(async () => {
                await resumeAgent(runId, label);
                onDone();
              })
            }
          >
            {phase === 'resuming' ? 'Resuming…' : 'Resume this conversation'}
          </button>
          <button
            type="button"
            className="bt-button"
            onClick={() => {
              selectRun(runId);
              onDone();
            }}
          >
            Show run {runName}
          </button>
        </div>
        {error ? (
          <p className="bt-error-box" role="alert">
            {error}
          </p>
        ) : null}
      </section>
    );
  }

  const cwd = t.cwd;
  const nameError = into === 'new' ? validateRunName(name, taken) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!cwd || nameError) return;
    void run(async () => {
      const result = await resume({
        vendor: t.vendor,
        sessionId: t.sessionId,
        cwd,
        into: into === 'new' ? { newRun: name } : { run: into },
      });
      setOutcomes({ runName: result.run.name, list: result.outcomes });
    });
  };
  return (
    <form className="bt-search-resume" aria-label="Resume this conversation" onSubmit={submit} noValidate>
      {cwd === null ? (
        <p className="bt-warn-text">
          The transcript does not say which directory it was in, so it cannot be resumed from here.
        </p>
      ) : null}
      <div className="bt-row bt-gap">
        <div className="bt-field">
          <label htmlFor={`${id}-into`}>Resume into</label>
          <select id={`${id}-into`} value={into} onChange={(e) => setInto(e.target.value)}>
            <option value="new">a new run</option>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                run {r.name}
              </option>
            ))}
          </select>
        </div>
        {into === 'new' ? (
          <div className="bt-field bt-field-grow">
            <label htmlFor={`${id}-name`}>Run name</label>
            <input
              id={`${id}-name`}
              className="bt-input"
              value={name}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={`${id}-name-hint`}
              onChange={(e) => setName(e.target.value)}
            />
            <span id={`${id}-name-hint`} className={nameError ? 'bt-field-error' : 'bt-field-hint'}>
              {nameError ?? RUN_NAME_RULE}
            </span>
          </div>
        ) : null}
      </div>
      <button type="submit" className="bt-button bt-primary" disabled={phase !== 'edit' || !cwd || nameError !== null}>
        {phase === 'resuming' ? 'Resuming…' : 'Resume this conversation'}
      </button>
      {error ? (
        <p className="bt-error-box" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
