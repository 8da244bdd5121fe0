// A small stand-in for the `electron` module, for the main-process wiring tests (there is no Electron binary
// here). It replaces Electron at its module boundary only: what `startDesktop` is handed instead of the real
// module, with fake MessagePortMains that behave like Electron's (queued until `start()`, a 'close' event on the
// other end). The relay and the core are never faked: see electron-core-fakes.ts (`realRelay`, `realSpawn`,
// `inProcessCore`); by default a started core never answers and a forked relay does nothing. Each part of the API
// is faked in its own file (electron-fake-ports, -windows, -app); this one assembles them.
import type { SpawnOptions } from 'node:child_process';
import type { CoreChild, SpawnCore } from '../../electron/app/background-core.js';
import type { DesktopApi } from '../../electron/app/desktop.js';
import { SilentChild } from './electron-core-fakes.js';
import { FakeMessageChannelMain, FakeUtilityProcess } from './electron-fake-ports.js';
import { FakeBrowserWindow } from './electron-fake-windows.js';
import { FakeApp, FakeIpcMain, FakeSession, FakeNotification } from './electron-fake-app.js';

export { inProcessCore, realRelay, realSpawn, SilentChild } from './electron-core-fakes.js';
export { FakeMessageChannelMain, FakePort, FakeUtilityProcess } from './electron-fake-ports.js';
export { FakeBrowserWindow, FakeWebContents } from './electron-fake-windows.js';
export { FakeApp, FakeIpcMain, FakeNotification, FakeSession } from './electron-fake-app.js';

export interface SpawnCall {
  command: string;
  args: readonly string[];
  options: SpawnOptions;
  child: CoreChild;
}

export interface FakeElectron {
  api: DesktopApi;
  app: FakeApp;
  ipcMain: FakeIpcMain;
  session: FakeSession;
  clipboard: { text: string; clears: number };
  dialogCalls: unknown[][];
  menu: { template: unknown[] | null };
  forks: FakeUtilityProcess[];
  /** Every background core main started, in order. */
  spawns: SpawnCall[];
  /** What the quit question was asked with, and the answers it gives, in order (default: Keep, not remembered). */
  messageBoxes: unknown[][];
  answers: { response: number; checkboxChecked: boolean }[];
}

/**
 * A fresh fake Electron. `onFork` decides what each forked relay does (run the real relay, or nothing at all); `spawn`
 * what a started background core is (a real process, one in this process, or by default one that never answers).
 */
export function fakeElectron(
  userData: string,
  onFork: (child: FakeUtilityProcess) => void = () => undefined,
  spawn: SpawnCore = () => new SilentChild(),
): FakeElectron {
  const app = new FakeApp(userData);
  const ipcMain = new FakeIpcMain();
  const session = new FakeSession();
  const clipboard = { text: '', clears: 0 };
  const dialogCalls: unknown[][] = [];
  const menu: { template: unknown[] | null } = { template: null };
  const forks: FakeUtilityProcess[] = [];
  const spawns: SpawnCall[] = [];
  const messageBoxes: unknown[][] = [];
  const answers: { response: number; checkboxChecked: boolean }[] = [];
  FakeBrowserWindow.all = [];
  FakeMessageChannelMain.created = [];
  FakeNotification.shown = [];
  FakeBrowserWindow.onCreated = (w) => app.emit('web-contents-created', {}, w.webContents);
  const api = {
    app,
    ipcMain,
    BrowserWindow: FakeBrowserWindow,
    MessageChannelMain: FakeMessageChannelMain,
    Notification: FakeNotification,
    session: { defaultSession: session },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    clipboard: {
      writeText: (text: string) => void (clipboard.text = text),
      readText: () => clipboard.text,
      clear: () => {
        clipboard.text = '';
        clipboard.clears++;
      },
    },
    dialog: {
      showOpenDialog: async (...args: unknown[]) => {
        dialogCalls.push(args);
        return { canceled: false, filePaths: ['/home/someone/project'] };
      },
      showMessageBox: async (...args: unknown[]) => {
        messageBoxes.push(args);
        return answers.shift() ?? { response: 0, checkboxChecked: false };
      },
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (built: { template: unknown[] }) => void (menu.template = built.template),
    },
    utilityProcess: {
      fork: (modulePath: string, args: string[] = [], options: unknown = {}) => {
        const child = new FakeUtilityProcess(modulePath, args, options);
        forks.push(child);
        onFork(child);
        return child;
      },
    },
    spawn: (command: string, args: readonly string[], options: SpawnOptions) => {
      const child = spawn(command, args, options);
      spawns.push({ command, args, options, child });
      return child;
    },
  };
  return {
    api: api as unknown as DesktopApi,
    app,
    ipcMain,
    session,
    clipboard,
    dialogCalls,
    menu,
    forks,
    spawns,
    messageBoxes,
    answers,
  };
}

/** Waits for `probe` to hold, polling. */
export async function until<T>(probe: () => T | undefined | null | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
