// Electron main: hands Electron's API (and spawn, for the background core) to the desktop wiring
// (electron/app/desktop.ts) and nothing more.
import { spawn } from 'node:child_process';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  MessageChannelMain,
  Notification,
  screen,
  session,
  utilityProcess,
} from 'electron';
import { startDesktop } from './app/desktop.js';
import { packageRoot } from './core/public.js';

const desktop = startDesktop(
  {
    app,
    BrowserWindow,
    clipboard,
    dialog,
    ipcMain,
    Menu,
    MessageChannelMain,
    Notification,
    screen,
    session,
    utilityProcess,
    spawn,
  },
  {
    packageRoot: packageRoot(),
    args: process.argv.slice(1),
    cwd: process.cwd(),
    platform: process.platform,
    env: process.env,
  },
);

if (desktop) {
  // Ctrl-C in the terminal that started Baton quits the way the menu does (asking what to do with running agents).
  process.on('SIGINT', () => app.quit());
  process.on('SIGTERM', () => app.quit());
  desktop.ready.catch((err: unknown) => {
    process.stderr.write(
      `baton: could not open the window: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    app.exit(1);
  });
}
