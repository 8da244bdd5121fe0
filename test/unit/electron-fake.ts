// A small stand-in for the `electron` module, for the main-process wiring tests (there is no Electron binary
// here). It replaces Electron at its module boundary only: what `startDesktop` is handed instead of the real
// module, with fake MessagePortMains that behave like Electron's (queued until `start()`, a 'close' event on the
// other end). The relay and the core are never faked: see electron-core-fakes.ts (`realRelay`, `realSpawn`,
// `inProcessCore`); by default a started core never answers and a forked relay does nothing.
import type { SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import type { CoreChild, SpawnCore } from '../../electron/app/background-core.js';
import type { DesktopApi } from '../../electron/app/desktop.js';
import { SilentChild } from './electron-core-fakes.js';

export { inProcessCore, realRelay, realSpawn, SilentChild } from './electron-core-fakes.js';

interface PortEvent {
  data: unknown;
  ports: FakePort[];
}

/** Like Electron's MessagePortMain: messages wait until start(); closing one end emits 'close' on the other. */
export class FakePort extends EventEmitter {
  other: FakePort | null = null;
  started = false;
  closed = false;
  private readonly queue: PortEvent[] = [];

  postMessage(data: unknown, ports: FakePort[] = []): void {
    const peer = this.other;
    if (this.closed || !peer || peer.closed) return;
    peer.deliver({ data, ports });
  }

  start(): void {
    this.started = true;
    for (const event of this.queue.splice(0)) setImmediate(() => this.emit('message', event));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const peer = this.other;
    if (peer && !peer.closed) {
      peer.closed = true;
      setImmediate(() => peer.emit('close'));
    }
  }

  private deliver(event: PortEvent): void {
    if (this.started) setImmediate(() => !this.closed && this.emit('message', event));
    else this.queue.push(event);
  }
}

export class FakeMessageChannelMain {
  static created: FakeMessageChannelMain[] = [];
  readonly port1 = new FakePort();
  readonly port2 = new FakePort();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
    FakeMessageChannelMain.created.push(this);
  }
}

/** The main side of a utility process: what it was sent, and 'exit' / 'message' events for the test to drive. */
export class FakeUtilityProcess extends EventEmitter {
  readonly received: { message: unknown; ports: FakePort[] }[] = [];
  killed = false;
  exitCode: number | null = null;
  pid = 4242;
  /** Where posted messages go next (the real core's parent port, when there is one). */
  inbox: ((message: unknown, ports: FakePort[]) => void) | null = null;

  constructor(
    readonly modulePath: string,
    readonly args: string[],
    readonly options: unknown,
  ) {
    super();
  }

  postMessage(message: unknown, ports: FakePort[] = []): void {
    this.received.push({ message, ports });
    this.inbox?.(message, ports);
  }

  kill(): boolean {
    this.killed = true;
    setImmediate(() => this.exit(-1));
    return true;
  }

  exit(code: number): void {
    if (this.exitCode !== null) return;
    this.exitCode = code;
    this.emit('exit', code);
  }

  /** Message types the relay was sent, in order ('core', 'connect'). */
  types(): string[] {
    return this.received.map((r) => (r.message as { type: string }).type);
  }
}

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly posted: { channel: string; message: unknown; ports: FakePort[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  mainFrame = { url: '', parent: null as unknown };
  reloads = 0;

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  postMessage(channel: string, message: unknown, ports: FakePort[] = []): void {
    this.posted.push({ channel, message, ports });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  reload(): void {
    this.reloads++;
  }
  isDestroyed(): boolean {
    return false;
  }
  /** An IPC event from this page's top frame, or from a frame at another URL / a subframe. */
  event(frame: { url?: string; parent?: unknown } = {}): {
    sender: FakeWebContents;
    senderFrame: { url: string; parent: unknown };
  } {
    return { sender: this, senderFrame: { url: frame.url ?? this.mainFrame.url, parent: frame.parent ?? null } };
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static all: FakeBrowserWindow[] = [];
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.all.filter((w) => !w.destroyed);
  }
  static fromWebContents(contents: FakeWebContents): FakeBrowserWindow | null {
    return FakeBrowserWindow.all.find((w) => w.webContents === contents) ?? null;
  }

  readonly webContents = new FakeWebContents();
  loadedFile: string | null = null;
  visible = false;
  focused = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  flashing = false;
  bounds: { x: number; y: number; width: number; height: number };

  constructor(
    readonly options: {
      x?: number;
      y?: number;
      width: number;
      height: number;
      webPreferences?: Record<string, unknown>;
    },
  ) {
    super();
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
    FakeBrowserWindow.all.push(this);
    // Electron tells 'web-contents-created' for every new page; the fake app hears it through this hook.
    FakeBrowserWindow.onCreated?.(this);
  }
  static onCreated: ((w: FakeBrowserWindow) => void) | null = null;

  async loadFile(path: string): Promise<void> {
    this.loadedFile = path;
    this.webContents.mainFrame.url = pathToFileURL(path).href;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused = true;
    this.emit('focus');
  }
  blur(): void {
    this.focused = false;
    this.emit('blur');
  }
  isFocused(): boolean {
    return this.focused;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  flashFrame(flag: boolean): void {
    this.flashing = flag;
  }
  reload(): void {
    this.webContents.reload();
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  /** The user moves the window. */
  moveTo(bounds: Partial<FakeBrowserWindow['bounds']>): void {
    this.bounds = { ...this.bounds, ...bounds };
    this.emit('move');
  }
  close(): void {
    this.emit('close', { preventDefault() {} });
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeApp extends EventEmitter {
  isPackaged = false;
  hasLock = true;
  private readyNow = false;
  quitRequests = 0;
  /** True once a quit went through (no before-quit handler held it back). */
  quitted = false;
  exitCode: number | null = null;
  badge = 0;

  constructor(private readonly userData: string) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.hasLock;
  }
  whenReady(): Promise<void> {
    this.readyNow = true;
    return Promise.resolve();
  }
  isReady(): boolean {
    return this.readyNow;
  }
  getPath(): string {
    return this.userData;
  }
  getVersion(): string {
    return '0.1.0';
  }
  setBadgeCount(count: number): boolean {
    this.badge = count;
    return true;
  }
  quit(): void {
    this.quitRequests++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.quitted = true;
  }
  exit(code: number): void {
    this.exitCode = code;
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export class FakeIpcMain {
  readonly listeners = new Map<string, Handler>();
  readonly handlers = new Map<string, Handler>();
  on(channel: string, listener: Handler): void {
    this.listeners.set(channel, listener);
  }
  handle(channel: string, handler: Handler): void {
    this.handlers.set(channel, handler);
  }
  /** ipcRenderer.send from a page. */
  send(channel: string, event: unknown, ...args: unknown[]): void {
    this.listeners.get(channel)!(event, ...args);
  }
  /** ipcRenderer.invoke from a page: a rejection when the handler throws, as in Electron. */
  async invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    return this.handlers.get(channel)!(event, ...args);
  }
}

export class FakeSession extends EventEmitter {
  beforeRequest: ((details: { url: string }, callback: (r: { cancel: boolean }) => void) => void) | null = null;
  headersReceived:
    | ((
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (r: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void)
    | null = null;
  permissionRequest:
    | ((
        contents: unknown,
        permission: string,
        callback: (granted: boolean) => void,
        details: { requestingUrl: string },
      ) => void)
    | null = null;
  permissionCheck:
    ((contents: unknown, permission: string, origin: string, details: { requestingUrl?: string }) => boolean) | null =
    null;
  readonly webRequest = {
    onBeforeRequest: (listener: FakeSession['beforeRequest']) => void (this.beforeRequest = listener),
    onHeadersReceived: (listener: FakeSession['headersReceived']) => void (this.headersReceived = listener),
  };
  setPermissionRequestHandler(handler: FakeSession['permissionRequest']): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheck']): void {
    this.permissionCheck = handler;
  }
  /** What the request handler answers for `permission` asked by a page at `url`. */
  request(permission: string, url: string): boolean {
    let granted: boolean | null = null;
    this.permissionRequest!(null, permission, (g) => (granted = g), { requestingUrl: url });
    return granted === true;
  }
}

export class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static isSupported(): boolean {
    return true;
  }
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show(): void {
    FakeNotification.shown.push(this);
  }
}

/** What main spawned: the command, its arguments and options, as given. */
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
