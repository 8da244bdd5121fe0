// The desktop app, put together: one window on our own index page; the background core found or started
// (core-link.ts), with a relay utility process giving each page a port to it; the menu, the single-instance hand-over,
// the quit question and the attention badge. Electron's API comes in as one object (the real module from main.ts, a
// small fake in the tests), with `spawn` for the background core beside it, so this wiring is tested as is.
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { BrowserWindow, WebContents } from 'electron';
import {
  CHANNELS,
  type FocusAgentMessage,
  type MenuMessage,
  type PortMessage,
  type ResumeHandoff,
} from '../../shared/bridge-contract.js';
import type { CommandId } from '../../shared/commands.js';
import type { CoreInfo } from '../../shared/contract.js';
import { reportFailure } from '../core/public.js';
import { Attention } from './attention.js';
import type { SpawnCore } from './background-core.js';
import { CoreLink } from './core-link.js';
import { registerIpc } from './ipc.js';
import { watchAgents } from './main-client.js';
import { coreStatusLabel, menuTemplate } from './menu.js';
import { askWithDialog, installQuitSequence, shutdownCore } from './quit.js';
import { RelayProcess } from './relay-process.js';
import { hardenContents, installSessionPolicy } from './security.js';
import { claimSingleInstance, handoffFromFile, handoffFromLink, handoffsFromArgs } from './single-instance.js';
import { appFiles, createWindow, indexUrl } from './window-options.js';
import { loadWindowState, trackWindowState, windowStateFile } from './window-state.js';

export type ElectronApi = Pick<
  typeof import('electron'),
  | 'app'
  | 'BrowserWindow'
  | 'ipcMain'
  | 'utilityProcess'
  | 'MessageChannelMain'
  | 'dialog'
  | 'clipboard'
  | 'Menu'
  | 'Notification'
  | 'session'
  | 'screen'
>;

/** Electron's API plus the one thing main does to the system outside Electron: starting the background core. */
export type DesktopApi = ElectronApi & { spawn: SpawnCore };

export interface DesktopOptions {
  packageRoot: string;
  /** The launch's own arguments (after the executable): links and handle files in them go to the Resume dialog. */
  args: string[];
  cwd: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The binary that runs the background core as Node (Electron itself, with ELECTRON_RUN_AS_NODE); default process.execPath. */
  execPath?: string;
  /** How long "Stop all agents" waits for the core before the app quits anyway (the core finishes on its own). */
  quitTimeoutMs?: number;
  /** How long a new background core may take to answer. */
  coreStartTimeoutMs?: number;
}

export interface Desktop {
  /** Settles once the window is open; the core is connected in the background (`core.firstAttempt`). */
  readonly ready: Promise<void>;
  readonly core: CoreLink;
  readonly relay: RelayProcess;
  readonly attention: Attention;
  window(): BrowserWindow | null;
}

/** Starts the app; null when another Baton already runs (it was handed our arguments, and this one quits). */
export function startDesktop(electron: DesktopApi, options: DesktopOptions): Desktop | null {
  const { app } = electron;
  const files = appFiles(options.packageRoot);
  const index = indexUrl(files);
  const devTools = !app.isPackaged;
  let win: BrowserWindow | null = null;
  /** The page has its bridge listening (it asked for a port since it last loaded). */
  let pageReady = false;
  const pending: ResumeHandoff[] = [];
  /** The agent of the last notification clicked before the page listened: it goes there once the page does. */
  let pendingFocus: FocusAgentMessage | null = null;
  let saveState: (() => Promise<void>) | null = null;

  /** To the Resume dialog now, or once the page is listening. Only the dialog acts on it, after its preview. */
  const forward = (handoff: ResumeHandoff) => {
    if (!win || !pageReady) return void pending.push(handoff);
    win.webContents.send(CHANNELS.resume, handoff);
    showWindow();
  };
  const forwardAll = (handoffs: ResumeHandoff[]) => handoffs.forEach(forward);

  const onSecondLaunch = (args: string[], cwd: string) => {
    showWindow();
    handoffsFromArgs(args, cwd)
      .then(forwardAll)
      .catch((err: unknown) => reportFailure('handing a second launch to the Resume dialog', err));
  };
  if (!claimSingleInstance(app, onSecondLaunch)) return null;
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const handoff = handoffFromLink(url, 'open-url');
    if (handoff) forward(handoff);
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    handoffFromFile(path)
      .then(forward)
      .catch((err: unknown) => reportFailure('opening a handle file', err));
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  // macOS and Linux packages declare the baton: scheme themselves (electron-builder.yml); Windows' installer does not.
  if (app.isPackaged && options.platform === 'win32') app.setAsDefaultProtocolClient('baton');

  const dataDir = options.env.BATON_HOME ? resolve(options.env.BATON_HOME) : join(app.getPath('userData'), 'data');
  const attention = new Attention({
    isFocused: () => win !== null && !win.isDestroyed() && win.isFocused(),
    notify: (title, body, onClick) => {
      if (!electron.Notification.isSupported()) return;
      const note = new electron.Notification({ title, body });
      note.on('click', () => (onClick ?? showWindow)());
      note.show();
    },
    setBadge: (count) => {
      app.setBadgeCount(count);
      if (options.platform === 'win32' && win && !win.isDestroyed()) win.flashFrame(count > 0);
    },
  });

  const relay = new RelayProcess(electron, {
    entry: files.relayEntry,
    onRestarted: () => win && pageReady && handPort(win.webContents),
  });
  let status: string | null = null;
  const showStatus = (info: CoreInfo | null) => {
    const next = coreStatusLabel(info);
    if (next === status || !app.isReady()) return;
    status = next;
    setMenu();
  };
  const core = new CoreLink({
    launch: {
      dataDir,
      script: files.coreScript,
      execPath: options.execPath ?? process.execPath,
      env: options.env,
      spawn: electron.spawn,
      ...(options.coreStartTimeoutMs ? { startTimeoutMs: options.coreStartTimeoutMs } : {}),
    },
    relay,
    onConnected: (client) => {
      // A click on a "needs you" notification: the window, then the page goes to exactly the agent it named.
      watchAgents(client, attention, (agent) => {
        showWindow();
        focusInPage(agent);
      });
      if (win && pageReady) handPort(win.webContents);
    },
    onLost: (reason) => tellPage({ state: 'lost', reason }),
    onInfo: showStatus,
  });

  installQuitSequence(app, {
    survey: async () => {
      const client = core.client;
      const info = await core.refresh();
      if (!client || !info) return null;
      const { quitAction } = await client.call('settings.get', {});
      return { liveAgents: info.liveAgents, remembered: quitAction === 'ask' ? null : quitAction };
    },
    ask: (liveAgents) => askWithDialog(electron.dialog, win && !win.isDestroyed() ? win : null, liveAgents),
    remember: async (choice) => {
      await core.client?.call('settings.set', { quitAction: choice });
    },
    before: async () => {
      // Out of the way at once; stopping the agents may take a few seconds.
      for (const w of electron.BrowserWindow.getAllWindows()) w.hide();
      await saveState?.();
    },
    stopCore: async () => {
      const client = core.client;
      core.stopReconnecting();
      if (client) await shutdownCore(client, options.quitTimeoutMs ?? 15_000);
    },
    detach: () => {
      core.close();
      relay.close();
    },
  });
  app.on('window-all-closed', () => {
    // macOS keeps the app (and its agents) in the dock; a new window reattaches.
    if (options.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => showWindow());

  function tellPage(message: PortMessage): void {
    if (win && !win.isDestroyed() && pageReady) win.webContents.postMessage(CHANNELS.port, message);
  }

  /**
   * One MessageChannelMain per page load: one end to the relay (which opens the page's own connection to the core),
   * the other to the page. Before the core answers the page gets nothing yet; it gets its port once the core does.
   */
  function handPort(contents: WebContents): void {
    const port = relay.openPort();
    if (port) return contents.postMessage(CHANNELS.port, { state: 'ready' } satisfies PortMessage, [port]);
    if (core.givenUp)
      contents.postMessage(CHANNELS.port, { state: 'lost', reason: core.givenUp } satisfies PortMessage, []);
  }

  function setMenu(): void {
    electron.Menu.setApplicationMenu(
      electron.Menu.buildFromTemplate(menuTemplate({ platform: options.platform, devTools, send, status })),
    );
  }

  function showWindow(): void {
    if (!app.isReady()) return;
    if (!win || win.isDestroyed()) return openWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  function openWindow(): void {
    const stateFile = windowStateFile(app.getPath('userData'));
    const placement = loadWindowState(
      stateFile,
      electron.screen.getAllDisplays().map((d) => d.workArea),
    );
    const w = createWindow(electron.BrowserWindow, files, placement, { devTools });
    win = w;
    pageReady = false;
    saveState = trackWindowState(w, stateFile).flush;
    if (placement.maximized) w.maximize();
    w.once('ready-to-show', () => w.show());
    w.on('focus', () => attention.seen());
    w.on('closed', () => {
      if (win === w) win = null;
      pageReady = false;
    });
    w.webContents.on('did-start-loading', () => {
      pageReady = false;
    });
    // The page crashed: the agents live in the core and keep running; a reloaded page reattaches to them.
    w.webContents.on('render-process-gone', (_event, details) => {
      if (details.reason === 'clean-exit') return;
      process.stderr.write(
        `baton: the window's page stopped (${details.reason}); reloading it. The agents keep running.\n`,
      );
      setTimeout(() => !w.isDestroyed() && w.reload(), 500);
    });
    // Rejects when the load fails or a reload cuts it short: the window stays open either way, so it is only reported.
    w.loadFile(files.indexFile).catch((err: unknown) => reportFailure("loading the window's page", err));
  }

  registerIpc(
    electron.ipcMain,
    { index, isOurWindow: (contents) => win !== null && !win.isDestroyed() && contents === win.webContents },
    {
      connect: (contents) => {
        pageReady = true;
        handPort(contents);
        for (const handoff of pending.splice(0)) contents.send(CHANNELS.resume, handoff);
        if (pendingFocus) contents.send(CHANNELS.focusAgent, pendingFocus);
        pendingFocus = null;
      },
      writeClipboard: (text, clearAfterSeconds) => {
        electron.clipboard.writeText(text);
        if (!clearAfterSeconds) return;
        // Clear only what we wrote: a later copy by the user stays.
        setTimeout(
          () => electron.clipboard.readText() === text && electron.clipboard.clear(),
          clearAfterSeconds * 1000,
        );
      },
      pickDirectory: async (contents, defaultPath) => {
        const owner = electron.BrowserWindow.fromWebContents(contents);
        const dialogOptions = {
          title: 'Working directory',
          properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
          ...(defaultPath && isAbsolute(defaultPath) ? { defaultPath } : {}),
        };
        const result = owner
          ? await electron.dialog.showOpenDialog(owner, dialogOptions)
          : await electron.dialog.showOpenDialog(dialogOptions);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      appVersion: () => app.getVersion(),
    },
  );

  /** A menu click: the command's id to the page, which runs it through its registry (never a synthetic key press). */
  const send = (command: CommandId) => {
    if (win && !win.isDestroyed() && pageReady) win.webContents.send(CHANNELS.menu, { command } satisfies MenuMessage);
  };

  /** A notification's agent to the page now, or once it listens (a page still loading would miss it). */
  const focusInPage = (agent: FocusAgentMessage) => {
    if (win && !win.isDestroyed() && pageReady) win.webContents.send(CHANNELS.focusAgent, agent);
    else pendingFocus = agent;
  };

  const ready = app.whenReady().then(async () => {
    installSessionPolicy(electron.session.defaultSession, { index, rendererDir: dirname(files.indexFile) });
    status = coreStatusLabel(core.info);
    setMenu();
    relay.start();
    openWindow();
    forwardAll(await handoffsFromArgs(options.args, options.cwd));
  });

  return { ready, core, relay, attention, window: () => win };
}
