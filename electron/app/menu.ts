// The application menu: the dashboard's own actions with their shortcuts shown. The renderer owns the keys (they
// work while a terminal has focus, and in web mode), so the menu shows the accelerators without registering them:
// a click sends the action over the bridge, and a key press reaches the page as before. On Linux and Windows no
// menu item registers an accelerator at all, since a registered one would take the key from the focused terminal
// (Ctrl+R, Ctrl+Q and F11 belong to the programs running in the panes).
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuAction } from '../../shared/bridge-contract.js';

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Reload and developer tools, for an unpackaged (development) app only. */
  devTools: boolean;
  send(action: MenuAction): void;
  /** How many agents run in the background core, as a disabled first item of the File menu; null: none shown. */
  status?: string | null;
}

/** Every action of the menu with the shortcut the renderer binds to it (renderer/shortcuts.ts). */
export const MENU_SHORTCUTS: Readonly<Record<MenuAction, { label: string; accelerator: string }>> = {
  'new-run': { label: 'New run…', accelerator: 'Alt+Shift+N' },
  resume: { label: 'Resume from handle…', accelerator: 'Alt+Shift+R' },
  snapshot: { label: 'Snapshot', accelerator: 'Alt+Shift+S' },
  'copy-handle': { label: 'Copy handle', accelerator: 'Alt+Shift+H' },
  'stop-run': { label: 'Stop run', accelerator: 'Alt+Shift+X' },
  shortcuts: { label: 'Keyboard shortcuts', accelerator: 'F1' },
};

export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const action = (name: MenuAction): MenuItemConstructorOptions => ({
    ...MENU_SHORTCUTS[name],
    registerAccelerator: false,
    click: () => options.send(name),
  });
  const quiet = (item: MenuItemConstructorOptions): MenuItemConstructorOptions => (mac ? item : { ...item, registerAccelerator: false });
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    {
      label: 'File',
      submenu: [
        ...(options.status ? [{ label: options.status, enabled: false }, { type: 'separator' } as const] : []),
        action('new-run'),
        action('resume'),
        { type: 'separator' },
        mac ? { role: 'close' } : quiet({ role: 'quit' }),
      ],
    },
    // macOS needs the Edit menu for Cmd+C / Cmd+V in text fields; elsewhere those keys stay with the page.
    ...(mac ? [{ role: 'editMenu' } as const] : []),
    { label: 'Run', submenu: [action('snapshot'), action('copy-handle'), action('stop-run')] },
    {
      label: 'View',
      submenu: [
        quiet({ role: 'togglefullscreen' }),
        ...(options.devTools ? [{ type: 'separator' } as const, quiet({ role: 'reload' }), quiet({ role: 'toggleDevTools' })] : []),
      ],
    },
    { role: 'help', submenu: [action('shortcuts')] },
  ];
}

/** The File menu's status line: how many agents the background core runs (they keep running when Baton quits). */
export function coreStatusLabel(info: { liveAgents: number; pid: number } | null): string | null {
  if (!info) return null;
  const n = info.liveAgents;
  return `${n === 0 ? 'No' : n} agent${n === 1 ? '' : 's'} running in the background core (pid ${info.pid})`;
}
