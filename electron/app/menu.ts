// The application menu: the dashboard's own commands with their shortcuts shown. Items, labels and accelerators come
// from the shared command list (shared/commands.ts), the same list the page's help overlay and key bindings read, so
// they cannot drift (docs/architecture.md §12). The renderer owns the keys (they work while a terminal has focus, and
// in web mode), so the menu shows the accelerators without registering them: a click sends the command's id over
// the bridge and the page runs it, and a key press reaches the page as before. On Linux and Windows no menu item
// registers an accelerator at all, since a registered one would take the key from the focused terminal (Ctrl+R,
// Ctrl+Q and F11 belong to the programs running in the panes).
import type { MenuItemConstructorOptions } from 'electron';
import { commandSpec, menuLabel, type CommandId } from '../../shared/commands.js';

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Reload and developer tools, for an unpackaged (development) app only. */
  devTools: boolean;
  /** Hands the chosen command to the page. */
  send(command: CommandId): void;
  /** How many agents run in the background core, as a disabled first item of the File menu; null: none shown. */
  status?: string | null;
}

/** A dashboard command as a menu item: its id, its label, the first of its keys shown (never registered). */
export function commandItem(id: CommandId, send: (command: CommandId) => void): MenuItemConstructorOptions {
  const spec = commandSpec(id);
  const accelerator = spec.keys[0];
  return {
    id,
    label: menuLabel(spec),
    ...(accelerator ? { accelerator } : {}),
    registerAccelerator: false,
    click: () => send(id),
  };
}

export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const action = (id: CommandId) => commandItem(id, options.send);
  const quiet = (item: MenuItemConstructorOptions): MenuItemConstructorOptions =>
    mac ? item : { ...item, registerAccelerator: false };
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    {
      label: 'File',
      submenu: [
        ...(options.status ? [{ label: options.status, enabled: false }, { type: 'separator' } as const] : []),
        action('run.new'),
        action('resume.open'),
        action('search.open'),
        { type: 'separator' },
        mac ? { role: 'close' } : quiet({ role: 'quit' }),
      ],
    },
    // macOS needs the Edit menu for Cmd+C / Cmd+V in text fields; elsewhere those keys stay with the page.
    ...(mac ? [{ role: 'editMenu' } as const] : []),
    { label: 'Run', submenu: [action('run.snapshot'), action('handle.copy'), action('run.stop')] },
    {
      label: 'View',
      submenu: [
        quiet({ role: 'togglefullscreen' }),
        ...(options.devTools
          ? [{ type: 'separator' } as const, quiet({ role: 'reload' }), quiet({ role: 'toggleDevTools' })]
          : []),
      ],
    },
    { role: 'help', submenu: [action('help.open')] },
  ];
}

/** The File menu's status line: how many agents the background core runs (they keep running when Baton quits). */
export function coreStatusLabel(info: { liveAgents: number; pid: number } | null): string | null {
  if (!info) return null;
  const n = info.liveAgents;
  return `${n === 0 ? 'No' : n} agent${n === 1 ? '' : 's'} running in the background core (pid ${info.pid})`;
}
