// The keyboard shortcuts: one table for the help overlay, one window listener for the App.
// Bound in the capture phase so they work while a terminal has focus, and only for Alt+Shift, Alt+digit and F1
// combinations: plain keys always reach the terminal. Not Ctrl+Shift: browsers keep some of those (Ctrl+Shift+N
// opens a private window) and terminals use Ctrl+Shift+C / V to copy and paste. Escape is handled by each dialog, not here.
import { useEffect, useRef } from 'react';

export const SHORTCUTS = [
  { keys: 'Alt+Shift+N', action: 'New run' },
  { keys: 'Alt+Shift+S', action: 'Snapshot' },
  { keys: 'Alt+Shift+H', action: 'Copy handle' },
  { keys: 'Alt+Shift+R', action: 'Resume from handle' },
  { keys: 'Alt+Shift+X', action: 'Stop run' },
  { keys: 'Alt+Shift+L', action: 'Grid / tabs' },
  { keys: 'Alt+1…9', action: 'Focus pane N' },
  { keys: 'Alt+Shift+] / [', action: 'Next / previous pane' },
  { keys: 'Alt+Shift+F', action: 'Search in the focused pane' },
  { keys: 'Ctrl+Shift+C / V', action: 'Copy selection / paste in a pane' },
  { keys: 'F1 or Ctrl+/', action: 'Keyboard shortcuts' },
  { keys: 'Escape', action: 'Close dialog' },
] as const;

/** What a handler can be bound to: the table's actions, with "Focus pane N" and "Next / previous pane" split. */
export type ShortcutAction =
  | 'New run'
  | 'Snapshot'
  | 'Copy handle'
  | 'Resume from handle'
  | 'Stop run'
  | 'Grid / tabs'
  | 'Focus pane'
  | 'Next pane'
  | 'Previous pane'
  | 'Search in the focused pane'
  | 'Keyboard shortcuts';

/** "Focus pane" receives the pane's number, 1 to 9; every other handler takes nothing. */
export type ShortcutHandlers = { [A in ShortcutAction]?: A extends 'Focus pane' ? (pane: number) => void : () => void };

const ALT_SHIFT: Record<string, ShortcutAction> = {
  KeyN: 'New run',
  KeyS: 'Snapshot',
  KeyH: 'Copy handle',
  KeyR: 'Resume from handle',
  KeyX: 'Stop run',
  KeyL: 'Grid / tabs',
  BracketRight: 'Next pane',
  BracketLeft: 'Previous pane',
  KeyF: 'Search in the focused pane',
};

/** The action a key press means, with the pane number for Alt+digit; null for anything else. */
export function shortcutFor(e: KeyboardEvent): { action: ShortcutAction; pane?: number } | null {
  const { ctrlKey: ctrl, shiftKey: shift, altKey: alt, metaKey: meta } = e;
  if (meta) return null;
  if (alt && shift && !ctrl) {
    const action = ALT_SHIFT[e.code];
    return action ? { action } : null;
  }
  if (alt && !ctrl && !shift) {
    const digit = /^Digit([1-9])$/.exec(e.code);
    return digit ? { action: 'Focus pane', pane: Number(digit[1]) } : null;
  }
  if (e.key === 'F1' && !ctrl && !shift && !alt) return { action: 'Keyboard shortcuts' };
  if (ctrl && !alt && (e.code === 'Slash' || e.key === '/')) return { action: 'Keyboard shortcuts' };
  return null;
}

export function useGlobalShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const hit = shortcutFor(e);
      if (!hit) return;
      const h = latest.current;
      let run: (() => void) | undefined;
      if (hit.action === 'Focus pane') {
        const focus = h['Focus pane'];
        const pane = hit.pane ?? 1;
        if (focus) run = () => focus(pane);
      } else {
        run = h[hit.action];
      }
      if (!run) return;
      e.preventDefault();
      e.stopPropagation();
      // Holding a key repeats pane moves only; a held Alt+Shift+N opens one dialog.
      if (e.repeat && hit.action !== 'Next pane' && hit.action !== 'Previous pane') return;
      run();
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, []);
}
