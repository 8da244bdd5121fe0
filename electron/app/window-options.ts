// The dashboard window: its web preferences are the security boundary (docs/architecture.md §10), so they live here, alone.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindow as ElectronBrowserWindow, BrowserWindowConstructorOptions, Rectangle } from 'electron';

/** Where the built app's pieces are, all under the package root (inside app.asar once packaged). */
export interface AppFiles {
  /** dist/renderer/index.html: the only page any window loads. */
  indexFile: string;
  /** The preload bundle (CommonJS: a sandboxed preload cannot be an ES module). */
  preload: string;
  /** The relay's utility process entry (a port per page, piped to the background core's socket). */
  relayEntry: string;
  /** The command line that runs the background core (`baton serve --socket`), run by the app's own binary as Node. */
  coreScript: string;
}

export function appFiles(packageRoot: string): AppFiles {
  return {
    indexFile: join(packageRoot, 'dist', 'renderer', 'index.html'),
    preload: join(packageRoot, 'dist', 'preload', 'preload.cjs'),
    relayEntry: join(packageRoot, 'dist', 'electron', 'core-relay-entry.js'),
    coreScript: join(packageRoot, 'bin', 'baton.js'),
  };
}

/** The file:// URL every trusted frame has; IPC from any other URL is refused. */
export function indexUrl(files: Pick<AppFiles, 'indexFile'>): string {
  return pathToFileURL(files.indexFile).href;
}

export interface WindowPlacement {
  bounds: Partial<Rectangle> & { width: number; height: number };
}

/**
 * Opens the dashboard window. The options are written out here, in the `new BrowserWindow` call itself, so that a
 * reader and Electronegativity both see every web preference where it takes effect.
 */
export function createWindow(
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => ElectronBrowserWindow,
  files: Pick<AppFiles, 'preload'>,
  placement: WindowPlacement,
  options: { devTools: boolean },
): ElectronBrowserWindow {
  return new BrowserWindow({
    ...placement.bounds,
    minWidth: 720,
    minHeight: 480,
    title: 'Baton',
    show: false,
    backgroundColor: '#14161a',
    webPreferences: {
      preload: files.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // A middle click would open a link in a new window: denied anyway, and off at the source.
      disableBlinkFeatures: 'Auxclick',
      // The spellchecker downloads dictionaries from the network: no remote content, and no typing here is prose.
      spellcheck: false,
      devTools: options.devTools,
    },
  });
}
