// The keyboard shortcuts (generated from the command list: docs/architecture.md §12) and the settings.
import { Fragment, useId } from 'react';
import { helpRows } from '../commands/help.js';
import { useBaton } from '../state/store.js';
import { CoreSettingsFields } from './CoreSettings.js';
import { Dialog } from './Dialog.js';
import './components.css';

const CLEAR_CHOICES: { value: string; seconds: number | null; text: string }[] = [
  { value: 'never', seconds: null, text: 'never' },
  { value: '15', seconds: 15, text: '15 s' },
  { value: '30', seconds: 30, text: '30 s' },
  { value: '60', seconds: 60, text: '60 s' },
];

const ROWS = helpRows();

export function HelpOverlay() {
  const open = useBaton((s) => s.dialog?.kind === 'help');
  const seconds = useBaton((s) => s.settings.clipboardClearSeconds);
  const setSettings = useBaton((s) => s.setSettings);
  const openDialog = useBaton((s) => s.openDialog);
  const id = useId();
  if (!open) return null;
  const selected = CLEAR_CHOICES.find((c) => c.seconds === seconds)?.value ?? String(seconds);

  const footer = (
    <button type="button" className="bt-button bt-primary" onClick={() => openDialog(null)}>
      Close
    </button>
  );
  return (
    <Dialog title="Keyboard shortcuts" onClose={() => openDialog(null)} footer={footer}>
      <table className="bt-table">
        <caption className="bt-visually-hidden">Keyboard shortcuts</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.title}>
              <td>
                {row.keys.map((k, i) => (
                  <Fragment key={k}>
                    {i > 0 ? ' or ' : null}
                    <kbd>{k}</kbd>
                  </Fragment>
                ))}
              </td>
              <td>{row.title}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="bt-muted">Shortcuts work while a terminal has focus; every other key goes to the agent.</p>
      <h3 className="bt-subhead">Settings</h3>
      <div className="bt-field">
        <label htmlFor={`${id}-clear`}>Clear clipboard after copying a handle</label>
        <select
          id={`${id}-clear`}
          value={selected}
          onChange={(e) => {
            const choice = CLEAR_CHOICES.find((c) => c.value === e.target.value);
            setSettings({ clipboardClearSeconds: choice ? choice.seconds : Number(e.target.value) || null });
          }}
        >
          {CLEAR_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.text}
            </option>
          ))}
          {CLEAR_CHOICES.some((c) => c.value === selected) ? null : <option value={selected}>{seconds} s</option>}
        </select>
      </div>
      <CoreSettingsFields />
    </Dialog>
  );
}
