// An agent's isolation in the New run dialog, shown once its directory is known to be in a git repository
// (docs/worktrees.md): its own worktree (the default) or the shared directory; for its own worktree the base branch,
// or an existing branch or worktree; and the repository's setup command with its approval, when it has one.
import { useId } from 'react';
import { shellQuote } from '../state/shell-quote.js';
import { makesNewWorktree, worktreeError, type RepoState, type WorktreeChoice } from './worktree-spec.js';
import './components.css';
import './worktrees.css';

interface Props {
  /** "Agent 2": names the fields apart from the other agents' ones. */
  agentName: string;
  choice: WorktreeChoice;
  state: RepoState | undefined;
  disabled: boolean;
  showErrors: boolean;
  setupApproved: boolean;
  onChange(patch: Partial<WorktreeChoice>): void;
  onApproveSetup(on: boolean): void;
}

export function WorktreeFields({
  agentName,
  choice,
  state,
  disabled,
  showErrors,
  setupApproved,
  onChange,
  onApproveSetup,
}: Props) {
  const id = useId();
  if (state?.state === 'checking')
    return (
      <p className="bt-worktree-note bt-muted" role="status">
        Checking for a git repository…
      </p>
    );
  if (state?.state === 'error')
    return (
      <p className="bt-worktree-note bt-warn-text" role="status">
        Could not tell whether this directory is in a git repository ({state.message}): the agent works in the directory
        itself.
      </p>
    );
  if (state?.state !== 'repo') return null;
  const { repo } = state;
  const own = choice.isolation === 'own';
  const error = showErrors ? worktreeError(choice, state) : null;
  const current = repo.currentBranch ?? `the current commit ${repo.headCommit.slice(0, 8)}`;
  const setup = repo.setup && !repo.setup.approved && makesNewWorktree(choice, state) ? repo.setup : null;

  return (
    <fieldset className="bt-worktree" aria-describedby={`${id}-repo`}>
      <legend>Isolation</legend>
      <p id={`${id}-repo`} className="bt-field-hint">
        In the git repository <span className="bt-mono">{repo.repoRoot}</span>, on{' '}
        {repo.currentBranch ? <strong>{repo.currentBranch}</strong> : current}.
      </p>
      <div className="bt-row bt-gap" role="radiogroup" aria-label={`Isolation of ${agentName}`}>
        <label className="bt-check">
          <input
            type="radio"
            name={`${id}-isolation`}
            checked={own}
            disabled={disabled}
            onChange={() => onChange({ isolation: 'own' })}
          />
          <span>Own worktree</span>
        </label>
        <label className="bt-check">
          <input
            type="radio"
            name={`${id}-isolation`}
            checked={!own}
            disabled={disabled}
            onChange={() => onChange({ isolation: 'share' })}
          />
          <span>Share the directory</span>
        </label>
      </div>
      <p className="bt-field-hint">
        {own
          ? 'A branch and a directory of its own: agents never see each other’s half-written files, and you merge what you keep.'
          : 'The agent works in the directory itself, beside anyone else working there.'}
      </p>
      {own ? (
        <div className="bt-row bt-gap bt-worktree-options">
          {choice.reuse === 'none' ? (
            <div className="bt-field">
              <label htmlFor={`${id}-base`}>Base branch</label>
              <select
                id={`${id}-base`}
                value={choice.base || (repo.currentBranch ?? '')}
                disabled={disabled}
                onChange={(e) => onChange({ base: e.target.value })}
              >
                {repo.currentBranch ? null : <option value="">{current}</option>}
                {repo.branches.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <label className="bt-check">
            <input
              type="checkbox"
              checked={choice.reuse !== 'none'}
              disabled={disabled}
              onChange={(e) => onChange({ reuse: e.target.checked ? 'branch' : 'none' })}
            />
            <span>Use an existing branch or worktree</span>
          </label>
          {choice.reuse !== 'none' ? (
            <ReuseFields
              id={id}
              choice={choice}
              branches={repo.branches}
              disabled={disabled}
              error={error}
              onChange={onChange}
            />
          ) : null}
        </div>
      ) : null}
      {setup ? (
        <div className="bt-setup">
          <p className="bt-field-hint">
            This repository asks to run a setup command in each new worktree:{' '}
            <code className="bt-mono">{setup.command.map(shellQuote).join(' ')}</code>
          </p>
          <label className="bt-check">
            <input
              type="checkbox"
              checked={setupApproved}
              disabled={disabled}
              onChange={(e) => onApproveSetup(e.target.checked)}
            />
            <span>Approve and run it in new worktrees</span>
          </label>
          <p className="bt-field-hint">
            Without your approval the agent starts without it. Baton asks again if the command changes.
          </p>
        </div>
      ) : null}
    </fieldset>
  );
}

function ReuseFields({
  id,
  choice,
  branches,
  disabled,
  error,
  onChange,
}: {
  id: string;
  choice: WorktreeChoice;
  branches: string[];
  disabled: boolean;
  error: string | null;
  onChange(patch: Partial<WorktreeChoice>): void;
}) {
  return (
    <>
      <div className="bt-field">
        <label htmlFor={`${id}-reuse`}>Use</label>
        <select
          id={`${id}-reuse`}
          value={choice.reuse}
          disabled={disabled}
          onChange={(e) => onChange({ reuse: e.target.value as WorktreeChoice['reuse'] })}
        >
          <option value="branch">a branch, in a new worktree</option>
          <option value="worktree">a worktree, as it is</option>
        </select>
      </div>
      {choice.reuse === 'branch' ? (
        <div className="bt-field">
          <label htmlFor={`${id}-branch`}>Existing branch</label>
          <select
            id={`${id}-branch`}
            value={choice.existingBranch}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-reuse-hint`}
            onChange={(e) => onChange({ existingBranch: e.target.value })}
          >
            <option value="">Choose a branch</option>
            {branches.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div className="bt-field bt-field-grow">
          <label htmlFor={`${id}-path`}>Existing worktree path</label>
          <input
            id={`${id}-path`}
            className="bt-input bt-mono"
            value={choice.existingWorktree}
            disabled={disabled}
            placeholder="/home/you/project-feature"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-reuse-hint`}
            onChange={(e) => onChange({ existingWorktree: e.target.value })}
          />
        </div>
      )}
      <span id={`${id}-reuse-hint`} className={error ? 'bt-field-error bt-block' : 'bt-field-hint bt-block'}>
        {error ??
          (choice.reuse === 'branch'
            ? 'Checked out in a new worktree; not one checked out elsewhere.'
            : 'A worktree of this repository, used as it is: Baton never removes it.')}
      </span>
    </>
  );
}
