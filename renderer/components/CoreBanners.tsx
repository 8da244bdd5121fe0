// The background core in the window: the topbar's count of running agents, the offer to resume the runs a killed
// core interrupted (with each agent's outcome after), and the banner when this app is newer than the core it found.
import { useId, useState } from 'react';
import type { RecoveryState } from '../../shared/contract.js';
import { olderCoreReason, useCore } from '../state/core-store.js';
import { OutcomeTable } from './OutcomeTable.js';
import './core.css';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 agents running in the background core": they keep running when the window (or the app) closes. */
export function CoreIndicator() {
  const info = useCore((s) => s.info);
  if (!info) return null;
  const desktop = typeof window !== 'undefined' && window.baton !== undefined;
  const where = desktop ? 'the background core' : 'the core';
  const title = desktop
    ? `Baton core ${info.version}, pid ${info.pid}. Agents keep running there when this window closes or the app quits.`
    : `Baton core ${info.version}, pid ${info.pid} (baton serve). Agents keep running there when this page closes.`;
  return (
    <span className="bt-core-indicator" role="status" title={title}>
      <span className={info.liveAgents > 0 ? 'bt-core-dot bt-core-live' : 'bt-core-dot'} aria-hidden="true" />
      {`${plural(info.liveAgents, 'agent')} running in ${where}`}
    </span>
  );
}

export function CoreBanners() {
  return (
    <>
      <OlderCoreBanner />
      <RecoveryBanner />
    </>
  );
}

function useAction(): [boolean, string | null, (work: () => Promise<void>) => void] {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    work()
      .catch((err: Error) => setError(err.message))
      .finally(() => setBusy(false));
  };
  return [busy, error, run];
}

function OlderCoreBanner() {
  const reason = useCore(olderCoreReason);
  const restarting = useCore((s) => s.restarting);
  const restartCore = useCore((s) => s.restartCore);
  const [busy, error, run] = useAction();
  if (!reason && !restarting) return null;
  const desktop = window.baton !== undefined;
  return (
    <section className="bt-core-banner" aria-label="Older background core">
      {restarting ? (
        <p>Restarting the core: every run is snapshotted and stopped, then resumed by the new core…</p>
      ) : (
        <>
          <p>
            {reason}{' '}
            {desktop
              ? 'Restart it to use this version: every running agent is snapshotted and stopped, and the new core resumes each from its handle.'
              : 'Stop `baton serve` and start it again with this version.'}
          </p>
          {desktop && (
            <button type="button" className="bt-button bt-primary" disabled={busy} onClick={() => run(restartCore)}>
              Restart the core
            </button>
          )}
        </>
      )}
      {error && <p className="bt-error-box">{error}</p>}
    </section>
  );
}

function RecoveryBanner() {
  const recovery = useCore((s) => s.recovery);
  const settings = useCore((s) => s.settings);
  const { resumeInterrupted, dismissRecovery, setSettings } = useCore.getState();
  const [busy, error, run] = useAction();
  const id = useId();
  if (!recovery) return null;
  const { interrupted, resuming, last } = recovery;
  if (!interrupted && !resuming && !last) return null;
  return (
    <section className="bt-core-banner" aria-label="Interrupted runs">
      {resuming ? (
        <p>Resuming the runs that were running when the core stopped…</p>
      ) : interrupted ? (
        <Offer
          interrupted={interrupted}
          busy={busy}
          onResume={() => run(resumeInterrupted)}
          onDismiss={() => run(dismissRecovery)}
        />
      ) : null}
      {!resuming && !interrupted && last && (
        <>
          <p>{resultSummary(last)}</p>
          {last.runs.map((r) => (
            <div key={r.runId}>
              {r.error && <p className="bt-error-box">{`${r.name}: ${r.error}`}</p>}
              {r.outcomes.length > 0 && (
                <OutcomeTable outcomes={r.outcomes} caption={`Run ${r.name}: outcome per agent`} />
              )}
            </div>
          ))}
          <button type="button" className="bt-button" disabled={busy} onClick={() => run(dismissRecovery)}>
            Dismiss
          </button>
        </>
      )}
      {interrupted && settings && (
        <label className="bt-check" htmlFor={`${id}-auto`}>
          <input
            id={`${id}-auto`}
            type="checkbox"
            checked={settings.resumeInterruptedOnStart}
            onChange={(e) => run(() => setSettings({ resumeInterruptedOnStart: e.target.checked }))}
          />
          Resume interrupted runs automatically when the core starts
        </label>
      )}
      {error && <p className="bt-error-box">{error}</p>}
    </section>
  );
}

function Offer(props: {
  interrupted: NonNullable<RecoveryState['interrupted']>;
  busy: boolean;
  onResume(): void;
  onDismiss(): void;
}) {
  const { interrupted } = props;
  const n = interrupted.runs.length;
  const why =
    interrupted.reason === 'crash'
      ? 'The Baton core stopped without stopping its agents (it was killed, or the machine restarted).'
      : 'The Baton core was restarted.';
  return (
    <>
      <p>
        {why} {n === 1 ? 'This run was' : 'These runs were'} running:{' '}
        {interrupted.runs.map((r) => `${r.name} (${plural(r.agents, 'agent')})`).join(', ')}.
      </p>
      <div className="bt-row bt-gap">
        <button type="button" className="bt-button bt-primary" disabled={props.busy} onClick={props.onResume}>
          {`Resume the ${n} run${n === 1 ? ' that was' : 's that were'} running`}
        </button>
        <button type="button" className="bt-button" disabled={props.busy} onClick={props.onDismiss}>
          Not now
        </button>
      </div>
    </>
  );
}

function resultSummary(last: NonNullable<RecoveryState['last']>): string {
  const outcomes = last.runs.flatMap((r) => r.outcomes);
  const count = (o: string) => outcomes.filter((x) => x.outcome === o).length;
  const failedRuns = last.runs.filter((r) => r.error).length;
  return (
    `Resumed ${plural(last.runs.length, 'run')} that ${last.runs.length === 1 ? 'was' : 'were'} running: ` +
    `${count('resumed')} resumed, ${count('fresh')} started fresh, ${count('failed') + failedRuns} failed.`
  );
}
