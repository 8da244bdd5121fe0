// The run toolbar's attention controls (docs/attention.md §5): "Next agent that needs me" with how many do, and the
// notification settings: the user's opt-in (the browser asks only after this button), which states notify in this
// run, and the run's mute.
import { useEffect, useId } from 'react';
import { command, runCommand } from '../commands/registry.js';
import { needingInOrder } from '../attention/order.js';
import { useAttention } from '../state/attention-store.js';

export function NextNeedingButton() {
  const count = useAttention((s) => needingInOrder(Object.values(s.entries)).length);
  const c = command('attention.next');
  return (
    <button
      type="button"
      className="bt-attn-next"
      disabled={count === 0}
      aria-label={`${c.title} (${count} waiting)`}
      title={`${c.title} (${c.keys[0] ?? ''})`}
      onClick={() => runCommand('attention.next')}
    >
      {c.short ?? c.title}
      {count > 0 ? <span className="bt-attn-count">{count}</span> : null}
    </button>
  );
}

export function NotificationSettings({ runId }: { runId: string }) {
  const settings = useAttention((s) => s.settings[runId]);
  const optedIn = useAttention((s) => s.optedIn);
  const permission = useAttention((s) => s.permission);
  const id = useId();
  useEffect(() => {
    void useAttention
      .getState()
      .loadSettings(runId)
      .catch(() => undefined);
  }, [runId]);
  const configure = (change: { notifyOn?: ('waiting' | 'asking')[]; muted?: boolean }) =>
    void useAttention
      .getState()
      .configure({ run: runId, ...change })
      .catch(() => undefined);
  const toggleState = (state: 'waiting' | 'asking', on: boolean) => {
    const now = settings?.notifyOn ?? [];
    configure({ notifyOn: on ? [...now, state] : now.filter((s) => s !== state) });
  };
  return (
    <details className="bt-attn-settings">
      <summary>Notifications</summary>
      <div className="bt-attn-panel" role="group" aria-labelledby={`${id}-title`}>
        <p id={`${id}-title`} className="bt-muted">
          When an agent of this run needs you and its pane is not in view:
        </p>
        {permission === 'unsupported' ? (
          <p>This browser cannot show notifications.</p>
        ) : optedIn ? (
          <button type="button" onClick={() => useAttention.getState().disableNotifications()}>
            Turn off notifications on this device
          </button>
        ) : (
          <button type="button" onClick={() => void useAttention.getState().enableNotifications()}>
            Turn on notifications
          </button>
        )}
        <label>
          <input
            type="checkbox"
            checked={settings?.notifyOn.includes('waiting') ?? true}
            onChange={(e) => toggleState('waiting', e.target.checked)}
          />{' '}
          when it waits for input
        </label>
        <label>
          <input
            type="checkbox"
            checked={settings?.notifyOn.includes('asking') ?? true}
            onChange={(e) => toggleState('asking', e.target.checked)}
          />{' '}
          when it asks permission
        </label>
        <label>
          <input
            type="checkbox"
            checked={settings?.muted ?? false}
            onChange={(e) => configure({ muted: e.target.checked })}
          />{' '}
          mute this run
        </label>
      </div>
    </details>
  );
}
