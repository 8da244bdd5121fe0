// The shared modal: focus moves in on open and back on close, Tab stays inside, Escape and the backdrop close it.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './components.css';

export interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  /** While true (a request in flight), Escape and the backdrop do not close the dialog. */
  busy?: boolean;
  wide?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
}

export function Dialog({ title, onClose, children, footer, busy = false, wide = false }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const pressedOnBackdrop = useRef(false);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    const body = bodyRef.current;
    if (dialog && body) {
      const first =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        focusables(body)[0] ??
        focusables(dialog).find((el) => !el.dataset.dialogClose) ??
        dialog;
      first.focus();
    }
    // Focus that leaves the dialog (a click on the page behind it) comes back in.
    const onFocusIn = (e: FocusEvent) => {
      if (dialog && e.target instanceof Node && !dialog.contains(e.target)) (focusables(dialog)[0] ?? dialog).focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // A pressed button that becomes disabled while a request runs drops focus to <body>, silently: take it back,
  // so Escape and Tab keep working.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const timer = setInterval(() => {
      if (document.activeElement === document.body || document.activeElement === null) dialog.focus();
    }, 250);
    return () => clearInterval(timer);
  }, []);

  // Escape pressed while focus sits on <body> (in the moment before the timer above takes it back) still closes the
  // topmost dialog: pressed right after a request ends, it was lost.
  const latest = useRef({ busy, onClose });
  useEffect(() => {
    latest.current = { busy, onClose };
  });
  useEffect(() => {
    const onBodyKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target !== document.body && e.target !== document.documentElement) return;
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (dialogs[dialogs.length - 1] !== ref.current) return;
      e.preventDefault();
      if (!latest.current.busy) latest.current.onClose();
    };
    document.addEventListener('keydown', onBodyKey);
    return () => document.removeEventListener('keydown', onBodyKey);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      if (!busy) onClose();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = focusables(ref.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === ref.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className="bt-backdrop"
      onMouseDown={(e) => (pressedOnBackdrop.current = e.target === e.currentTarget)}
      onClick={(e) => {
        if (e.target === e.currentTarget && pressedOnBackdrop.current && !busy) onClose();
        pressedOnBackdrop.current = false;
      }}
    >
      <div
        ref={ref}
        className={`bt-dialog${wide ? ' bt-dialog-wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="bt-dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button
            type="button"
            className="bt-icon-button"
            aria-label="Close dialog"
            data-dialog-close="true"
            onClick={onClose}
            disabled={busy}
          >
            ×
          </button>
        </header>
        <div ref={bodyRef} className="bt-dialog-body">
          {children}
        </div>
        {footer ? <footer className="bt-dialog-foot">{footer}</footer> : null}
      </div>
    </div>,
    document.body,
  );
}
