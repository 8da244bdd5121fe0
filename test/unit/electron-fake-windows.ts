// Part of the stand-in for the `electron` module (electron-fake.ts, which assembles it): BrowserWindow and
// its webContents.
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { FakePort } from './electron-fake-ports.js';

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
