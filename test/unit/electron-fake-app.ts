// Part of the stand-in for the `electron` module (electron-fake.ts, which assembles it): app, ipcMain,
// session and Notification.
import { EventEmitter } from 'node:events';

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
