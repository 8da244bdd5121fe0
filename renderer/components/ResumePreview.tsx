// What resuming a pasted handle will do, per agent, before anything runs: where each agent will really run (and
// whether this Baton has used that directory before), whether that directory may be used, what will be run, and
// for each shell agent a confirmation of its own, since a handle chooses the directory its command runs in; and, for
// agents that had a worktree (docs/worktrees.md), whether it is still there, will be re-created from its branch, or
// cannot come back (why).
import { useId } from 'react';
import type { HandlePreview, SessionCheck } from '../../shared/contract.js';
import { shellQuote } from '../state/shell-quote.js';
import { shortId } from './format.js';

const CHECK_TEXT: Record<SessionCheck, string> = {
  found: 'found',
  missing: 'missing → will start fresh',
  'cwd-missing': 'directory missing → cannot start',
  'cwd-unsafe': 'directory refused → cannot start',
  'no-session': 'no conversation (starts anew)',
  remote: 'checked on its host when it starts',
};

type PreviewAgent = HandlePreview['agents'][number];

function WorktreeCell({ worktree }: { worktree: PreviewAgent['worktree'] }) {
  if (!worktree) return <td className="bt-muted">—</td>;
  const state =
    worktree.state === 'existing' ? (
      <span className="bt-ok-text">existing</span>
    ) : worktree.state === 'recreate' ? (
      <span className="bt-warn-text">will be re-created from its branch</span>
    ) : worktree.state === 'unknown' ? (
      <span className="bt-muted">not checked{worktree.reason ? `: ${worktree.reason}` : ''}</span>
    ) : (
      <span className="bt-danger-text">failed{worktree.reason ? `: ${worktree.reason}` : ''}</span>
    );
  return (
    <td>
      <span className="bt-mono">{worktree.branch}</span>
      <span className="bt-block">{state}</span>
    </td>
  );
}

/** The command as the user would read it, with the session id shortened (it is a secret). */
function commandText(a: PreviewAgent): string {
  return a.command
    .map((word) =>
      a.sessionId && word.includes(a.sessionId) ? word.replace(a.sessionId, shortId(a.sessionId)) : shellQuote(word),
    )
    .join(' ');
}

export function PreviewTable({ preview }: { preview: HandlePreview }) {
  // The column only when an agent had a worktree, so a run without any reads as before.
  const worktrees = preview.agents.some((a) => a.worktree !== null);
  const hosts = preview.agents.some((a) => a.host !== undefined);
  return (
    <>
      <p>
        Run <strong>{preview.runName}</strong>:{' '}
        {preview.knownRun
          ? 'known here — its history and screens come back with it.'
          : 'not in this Baton store — a new run is created from the handle.'}
      </p>
      <div className="bt-table-wrap">
        <table className="bt-table">
          <caption className="bt-visually-hidden">What resume will do per agent</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Vendor</th>
              {hosts ? <th scope="col">Host</th> : null}
              <th scope="col">Directory</th>
              <th scope="col">Session</th>
              <th scope="col">Check</th>
              {worktrees ? <th scope="col">Worktree</th> : null}
              <th scope="col">Command</th>
            </tr>
          </thead>
          <tbody>
            {preview.agents.map((a, i) => (
              <tr key={`${a.label}-${i}`}>
                <th scope="row">{a.label}</th>
                <td>{a.vendor}</td>
                {hosts ? <td className="bt-mono">{a.host ?? 'this machine'}</td> : null}
                <td>
                  <span className="bt-mono">{a.cwd ?? '—'}</span>
                  {a.newDirectory && a.cwd !== null ? (
                    <>
                      {' '}
                      <span
                        className="bt-badge bt-warn-text"
                        title="No run in this Baton has used this directory: the handle chose it. Make sure it is yours."
                      >
                        new directory
                      </span>
                    </>
                  ) : null}
                  {a.cwdProblem ? <span className="bt-field-error bt-block">{a.cwdProblem}</span> : null}
                </td>
                <td className="bt-mono">{shortId(a.sessionId)}</td>
                <td
                  className={
                    a.check === 'found'
                      ? 'bt-ok-text'
                      : a.check === 'cwd-missing' || a.check === 'cwd-unsafe'
                        ? 'bt-danger-text'
                        : 'bt-warn-text'
                  }
                >
                  {CHECK_TEXT[a.check]}
                </td>
                {worktrees ? <WorktreeCell worktree={a.worktree} /> : null}
                <td>
                  <code className="bt-mono">{commandText(a)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The handle indexes of its shell agents. */
export function shellIndexes(preview: HandlePreview): number[] {
  return preview.agents.flatMap((a, i) => (a.vendor === 'shell' ? [i] : []));
}

/** One checkbox per shell agent, unchecked until the user has read what it will run and where. */
export function ShellConfirmations({
  preview,
  confirmed,
  disabled,
  onChange,
}: {
  preview: HandlePreview;
  confirmed: ReadonlySet<number>;
  disabled: boolean;
  onChange(index: number, on: boolean): void;
}) {
  const id = useId();
  const shells = shellIndexes(preview);
  if (shells.length === 0) return null;
  return (
    <fieldset className="bt-shell-confirm" aria-describedby={`${id}-why`}>
      <legend>Shell agents</legend>
      <p id={`${id}-why`} className="bt-field-hint">
        A shell agent runs a command in the directory the handle names. Check each one you trust; an unchecked one is
        not started.
      </p>
      {shells.map((i) => {
        const a = preview.agents[i]!;
        const usable = a.cwdProblem === null;
        return (
          <label key={i} className="bt-check">
            <input
              type="checkbox"
              checked={confirmed.has(i)}
              disabled={disabled || !usable}
              onChange={(e) => onChange(i, e.target.checked)}
            />
            <span>
              Start shell agent <strong>{a.label}</strong>: runs{' '}
              <code className="bt-mono">{commandText(a) || '(nothing)'}</code> in{' '}
              <span className="bt-mono">{a.cwd ?? '—'}</span>
              {a.newDirectory ? ' (a new directory)' : ''}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
