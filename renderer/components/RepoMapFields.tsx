// In the resume preview, for an agent whose worktree cannot come back because its repository is not where the handle
// says: a field for where that repository is now. Every agent of that repository follows (`repoMap`), and the preview
// is asked again with it.
import { useId } from 'react';
import { validateCwd } from './validate.js';
import './components.css';
import './worktrees.css';

interface Props {
  roots: readonly string[];
  mapped: Readonly<Record<string, string>>;
  disabled: boolean;
  onChange(root: string, path: string): void;
}

export function RepoMapFields({ roots, mapped, disabled, onChange }: Props) {
  const id = useId();
  if (roots.length === 0) return null;
  return (
    <fieldset className="bt-repo-map">
      <legend>Repositories</legend>
      <p className="bt-field-hint">
        A worktree above was not found where the handle says its repository is. If that repository moved, say where it
        is now: every agent of it follows, and the preview is checked again.
      </p>
      {roots.map((root, i) => {
        const value = mapped[root] ?? '';
        const problem = value === '' ? null : validateCwd(value)?.replace(/^Working directory/, 'Path');
        return (
          <div key={root} className="bt-field">
            <label htmlFor={`${id}-${i}`}>
              Repository <span className="bt-mono">{root}</span> is now at
            </label>
            <input
              id={`${id}-${i}`}
              className="bt-input bt-mono"
              value={value}
              disabled={disabled}
              placeholder="/home/you/project"
              spellCheck={false}
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-${i}-hint`}
              onChange={(e) => onChange(root, e.target.value)}
            />
            <span id={`${id}-${i}-hint`} className={problem ? 'bt-field-error' : 'bt-field-hint'}>
              {problem ?? 'Leave empty to resume without its worktree as the preview says.'}
            </span>
          </div>
        );
      })}
    </fieldset>
  );
}
