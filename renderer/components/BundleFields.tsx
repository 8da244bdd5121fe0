// The pieces the Fork, Export and Import dialogs share (docs/bundles.md): a footer that is "Done" once the work is
// done and Cancel + the dialog's own actions before, a passphrase field, and the choice of "now or a snapshot".
import type { ReactNode } from 'react';
import { relativeTime } from './format.js';

export function DoneOrActions({
  done,
  busy,
  onClose,
  children,
}: {
  done: boolean;
  busy: boolean;
  onClose: () => void;
  /** The dialog's own buttons, after Cancel. */
  children: ReactNode;
}) {
  if (done)
    return (
      <button type="button" className="bt-button bt-primary" onClick={onClose}>
        Done
      </button>
    );
  return (
    <>
      <button type="button" className="bt-button" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      {children}
    </>
  );
}

export function PassphraseField({
  id,
  label,
  value,
  onChange,
  disabled,
  autoComplete,
  autoFocus = false,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  /** `new-password` where a passphrase is chosen, `off` where one is typed to open a bundle. */
  autoComplete: 'new-password' | 'off';
  autoFocus?: boolean;
  /** A line under the field (what is wrong with it, or that it is ready). */
  hint?: string;
}) {
  return (
    <div className="bt-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        className="bt-input"
        autoComplete={autoComplete}
        value={value}
        disabled={disabled}
        {...(autoFocus ? { 'data-autofocus': true } : {})}
        {...(hint !== undefined ? { 'aria-describedby': `${id}-hint` } : {})}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint !== undefined && (
        <span id={`${id}-hint`} className="bt-field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}

/** "The run as it is now" or one of its snapshots, newest first as the core lists them. */
export function SnapshotChoice({
  id,
  label,
  nowText,
  snapshots,
  value,
  onChange,
  disabled,
  autoFocus = false,
  hint,
}: {
  id: string;
  label: string;
  nowText: string;
  snapshots: readonly { id: string; at: string }[];
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  autoFocus?: boolean;
  hint?: string;
}) {
  return (
    <div className="bt-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="bt-input"
        value={value}
        disabled={disabled}
        {...(autoFocus ? { 'data-autofocus': true } : {})}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="now">{nowText}</option>
        {snapshots.map((s) => (
          <option key={s.id} value={s.id}>
            Snapshot {relativeTime(s.at, Date.now())} ({new Date(s.at).toLocaleString()})
          </option>
        ))}
      </select>
      {hint !== undefined && <span className="bt-field-hint">{hint}</span>}
    </div>
  );
}
