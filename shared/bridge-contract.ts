// The desktop bridge, declared once: the IPC channels between a window and Electron main, the menu actions, and the
// `window.baton` object the preload exposes. In shared/ because main, the preload bundle and the renderer all read it;
// no imports, so the preload bundle inlines it whole.

export const CHANNELS = {
  /** renderer → main (send, no arguments): "hand this window a port to the core". */
  connect: 'baton:connect',
  /** main → renderer: a port to the core (`ports[0]`, message `{ state: 'ready' }`), or `{ state: 'lost' }`. */
  port: 'baton:port',
  /** renderer → main (invoke): put text on the clipboard, optionally clearing it again later. */
  clipboardWrite: 'baton:clipboard-write',
  /** renderer → main (invoke): the native directory picker; resolves to a path or null. */
  pickDirectory: 'baton:pick-directory',
  /** renderer → main (invoke): the app's version. */
  appVersion: 'baton:app-version',
  /** main → renderer: a menu item was chosen (a `MenuAction`). */
  menu: 'baton:menu',
  /** main → renderer: open the Resume dialog (a `ResumeHandoff`); the user still sees the preview first. */
  resume: 'baton:resume',
} as const;

/** The menu's actions: the dashboard's own shortcuts, which the renderer carries out. */
export const MENU_ACTIONS = ['new-run', 'snapshot', 'copy-handle', 'resume', 'stop-run', 'shortcuts'] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

/** What main says on the port channel. */
export type PortMessage = { state: 'ready' } | { state: 'lost'; reason: string };

/** A `baton://resume` link or a handle file, on its way to the Resume dialog. Never resumed without the preview. */
export interface ResumeHandoff {
  /** The handle to put in the dialog's field, when it came from a place other users cannot read. */
  handle?: string;
  /** Something to tell the user (why a handle was not taken, why a file could not be read). */
  notice?: string;
}

/** Limits main enforces on what crosses the bridge. */
export const BRIDGE_LIMITS = {
  clipboardMaxChars: 256 * 1024,
  clipboardClearMaxSeconds: 3600,
  pathMaxChars: 4096,
  handoffMaxChars: 128 * 1024,
} as const;

/** Posted by the preload into the page (window.postMessage), since a MessagePort cannot cross the context bridge. */
export type PageMessage = { baton: 'core-port' } | { baton: 'core-lost'; reason: string };

/** `window.baton`: everything the page can ask of Electron, and nothing else. */
export interface BatonBridge {
  /** Ask main for a port to the core; it arrives as a `PageMessage` on the window, with the port attached. */
  requestPort(): void;
  writeClipboard(text: string, options?: { clearAfterSeconds?: number }): Promise<void>;
  pickDirectory(defaultPath?: string): Promise<string | null>;
  appVersion(): Promise<string>;
  /** Returns a function that stops listening. */
  onMenuAction(listener: (action: MenuAction) => void): () => void;
  onResumeHandoff(listener: (handoff: ResumeHandoff) => void): () => void;
}
