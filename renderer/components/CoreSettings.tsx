// The settings the core keeps in the data directory (settings.json), in Help → Settings: what quitting the desktop
// app does with running agents (the quit question's remembered answer), and resuming interrupted runs by themselves.
import { useId } from 'react';
import type { CoreSettings } from '../../shared/contract.js';
import { useCore } from '../state/core-store.js';

const QUIT_CHOICES: { value: CoreSettings['quitAction']; text: string }[] = [
  { value: 'ask', text: 'ask every time' },
  { value: 'keep', text: 'keep agents running' },
  { value: 'stop', text: 'stop all agents' },
];

export function CoreSettingsFields() {
  const settings = useCore((s) => s.settings);
  const setSettings = useCore((s) => s.setSettings);
  const id = useId();
  if (!settings) return null;
  const change = (next: Partial<CoreSettings>) => void setSettings(next).catch(() => undefined);
  return (
    <>
      {window.baton && (
        <div className="bt-field">
          <label htmlFor={`${id}-quit`}>When Baton quits with agents running</label>
          <select
            id={`${id}-quit`}
            value={settings.quitAction}
            onChange={(e) => change({ quitAction: e.target.value as CoreSettings['quitAction'] })}
          >
            {QUIT_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.text}
              </option>
            ))}
          </select>
        </div>
      )}
      <label className="bt-check" htmlFor={`${id}-auto`}>
        <input
          id={`${id}-auto`}
          type="checkbox"
          checked={settings.resumeInterruptedOnStart}
          onChange={(e) => change({ resumeInterruptedOnStart: e.target.checked })}
        />
        Resume interrupted runs automatically when the core starts
      </label>
    </>
  );
}
