// The store's toasts: errors as alerts, the rest as status messages; each can be dismissed.
import { useBaton } from '../state/store.js';
import './components.css';

export function Toasts() {
  const toasts = useBaton((s) => s.toasts);
  const dismiss = useBaton((s) => s.dismissToast);
  return (
    <section className="bt-toasts" aria-label="Notifications">
      {toasts.map((t) => (
        <div key={t.id} className={`bt-toast bt-toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <span className="bt-toast-text">{t.text}</span>
          <button
            type="button"
            className="bt-icon-button"
            aria-label="Dismiss"
            title="Dismiss"
            onClick={() => dismiss(t.id)}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
