// docs/architecture.md §10 as main enforces it: IPC only from our own page's top frame and only in the bridge's schema; a strict
// CSP and nothing loaded but the app's own files; no permission but the clipboard, for our page; no navigation, no
// new window. Electron is the fake of electron-fake.ts; the policy code is the real one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../shared/bridge-contract.js';
import { startDesktop, type Desktop } from '../../electron/app/desktop.js';
import { testEnv } from '../helpers/server.js';
import {
  FakeBrowserWindow,
  fakeElectron,
  inProcessCore,
  realRelay,
  type FakeElectron,
  type FakeWebContents,
} from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
const INDEX = pathToFileURL(join(ROOT, 'dist', 'renderer', 'index.html')).href;
let userData: string;
let fake: FakeElectron;
let page: FakeWebContents;

let core: ReturnType<typeof inProcessCore>;
let desktop: Desktop;

beforeEach(async () => {
  userData = mkdtempSync(join(tmpdir(), 'baton-electron-security-'));
  // A real core (in this process) and the real relay: a page the checks let through gets a working port.
  core = inProcessCore(testEnv(join(userData, 'home')));
  fake = fakeElectron(userData, realRelay, core.spawn);
  desktop = startDesktop(fake.api, {
    packageRoot: ROOT,
    args: [],
    cwd: ROOT,
    platform: 'linux',
    env: { BATON_HOME: join(userData, 'data') },
  })!;
  await desktop.ready;
  await desktop.core.firstAttempt;
  page = FakeBrowserWindow.all[0]!.webContents;
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  vi.restoreAllMocks();
  desktop.core.close();
  desktop.relay.close();
  await core.closeAll();
  rmSync(userData, { recursive: true, force: true });
});

describe('IPC from a window', () => {
  it('is handled from the top frame of our own index page', async () => {
    expect(page.mainFrame.url).toBe(INDEX);
    await fake.ipcMain.invoke(CHANNELS.clipboardWrite, page.event(), 'baton1.abc');
    expect(fake.clipboard.text).toBe('baton1.abc');
    expect(await fake.ipcMain.invoke(CHANNELS.appVersion, page.event())).toBe('0.1.0');
    expect(await fake.ipcMain.invoke(CHANNELS.pickDirectory, page.event())).toBe('/home/someone/project');
    fake.ipcMain.send(CHANNELS.connect, page.event());
    expect(page.posted.filter((p) => p.channel === CHANNELS.port)).toHaveLength(1);
  });

  it('is refused from a frame at any other URL, or from a subframe of our page', async () => {
    const foreign = [
      page.event({ url: 'https://attacker.example/index.html' }),
      page.event({ url: pathToFileURL('/tmp/evil/index.html').href }),
      page.event({ url: `${INDEX}?x=1` }),
      page.event({ parent: { url: INDEX } }),
      { sender: page, senderFrame: null },
    ];
    for (const event of foreign) {
      await expect(fake.ipcMain.invoke(CHANNELS.clipboardWrite, event, 'stolen')).rejects.toThrow(
        /refused: not from the Baton window/,
      );
      await expect(fake.ipcMain.invoke(CHANNELS.pickDirectory, event)).rejects.toThrow(/refused/);
      await expect(fake.ipcMain.invoke(CHANNELS.appVersion, event)).rejects.toThrow(/refused/);
      fake.ipcMain.send(CHANNELS.connect, event);
    }
    expect(fake.clipboard.text).toBe('');
    expect(fake.dialogCalls).toEqual([]);
    expect(page.posted).toEqual([]); // No port was handed to any of them.
    expect(fake.forks[0]!.types()).toEqual(['core']); // The relay was told where the core is, and given no port.
  });

  it('is refused from web contents that are not our window, even at our URL', async () => {
    const other = new (FakeBrowserWindow.all[0]!.webContents.constructor as new () => FakeWebContents)();
    other.mainFrame.url = INDEX;
    await expect(fake.ipcMain.invoke(CHANNELS.clipboardWrite, other.event(), 'x')).rejects.toThrow(/refused/);
  });

  it('is refused when malformed, and nothing is done', async () => {
    const malformed: [string, unknown[]][] = [
      [CHANNELS.clipboardWrite, []],
      [CHANNELS.clipboardWrite, [42]],
      [CHANNELS.clipboardWrite, ['x'.repeat(256 * 1024 + 1)]],
      [CHANNELS.clipboardWrite, ['text', { clearAfterSeconds: -1 }]],
      [CHANNELS.clipboardWrite, ['text', { clearAfterSeconds: 5, run: 'rm -rf' }]],
      [CHANNELS.clipboardWrite, ['text', {}, 'extra']],
      [CHANNELS.pickDirectory, [{ path: '/' }]],
      [CHANNELS.appVersion, ['please']],
    ];
    for (const [channel, args] of malformed) {
      await expect(
        fake.ipcMain.invoke(channel, page.event(), ...args),
        `${channel} ${JSON.stringify(args).slice(0, 60)}`,
      ).rejects.toThrow(/refused: malformed/);
    }
    fake.ipcMain.send(CHANNELS.connect, page.event(), { port: 'mine' });
    expect(fake.clipboard.text).toBe('');
    expect(fake.dialogCalls).toEqual([]);
    expect(page.posted).toEqual([]);
  });

  it('clears the clipboard after the asked delay, unless the user copied something else meanwhile', async () => {
    vi.useFakeTimers();
    try {
      await fake.ipcMain.invoke(CHANNELS.clipboardWrite, page.event(), 'baton1.secret', { clearAfterSeconds: 30 });
      vi.advanceTimersByTime(29_000);
      expect(fake.clipboard.text).toBe('baton1.secret');
      vi.advanceTimersByTime(1_000);
      expect(fake.clipboard.text).toBe('');

      await fake.ipcMain.invoke(CHANNELS.clipboardWrite, page.event(), 'baton1.other', { clearAfterSeconds: 10 });
      fake.clipboard.text = 'something the user copied';
      vi.advanceTimersByTime(10_000);
      expect(fake.clipboard.text).toBe('something the user copied');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what a window may load and ask for', () => {
  it('sends a strict Content-Security-Policy with every response', () => {
    let headers: Record<string, string[]> | undefined;
    fake.session.headersReceived!(
      { url: INDEX, responseHeaders: { 'Content-Type': ['text/html'] } },
      (r) => (headers = r.responseHeaders),
    );
    const csp = headers!['Content-Security-Policy']![0]!;
    expect(headers!['Content-Type']).toEqual(['text/html']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toMatch(/connect-src 'none'/);
    expect(csp).toMatch(/object-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:|\*/);
  });

  it("loads the built renderer's own files and nothing remote or elsewhere on disk", () => {
    const cancelled = (url: string) => {
      let cancel: boolean | undefined;
      fake.session.beforeRequest!({ url }, (r) => (cancel = r.cancel));
      return cancel;
    };
    expect(cancelled(INDEX)).toBe(false);
    expect(cancelled(INDEX.replace('index.html', 'assets/index-abc.js'))).toBe(false);
    expect(cancelled('data:,')).toBe(false);
    expect(cancelled('https://cdn.example.com/x.js')).toBe(true);
    expect(cancelled('http://127.0.0.1:8080/ws')).toBe(true);
    expect(cancelled('ws://127.0.0.1:8080/ws')).toBe(true);
    expect(cancelled(pathToFileURL('/etc/passwd').href)).toBe(true);
    expect(cancelled(pathToFileURL(join(ROOT, 'dist', 'renderer-evil', 'x.js')).href)).toBe(true);
    expect(cancelled(pathToFileURL(join(ROOT, 'dist', 'electron', 'main.js')).href)).toBe(true);
  });

  it('denies every permission request except the clipboard, and that only to our page', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'display-capture',
      'openExternal',
      'fullscreen',
      'pointerLock',
      'unknown',
    ]) {
      expect(fake.session.request(permission, INDEX), permission).toBe(false);
    }
    expect(fake.session.request('clipboard-sanitized-write', INDEX)).toBe(true);
    expect(fake.session.request('clipboard-read', INDEX)).toBe(true);
    expect(fake.session.request('clipboard-read', 'https://attacker.example/')).toBe(false);
    expect(fake.session.permissionCheck!(null, 'media', 'file://', { requestingUrl: INDEX })).toBe(false);
    expect(
      fake.session.permissionCheck!(null, 'clipboard-read', 'file://', { requestingUrl: 'https://attacker.example/' }),
    ).toBe(false);
  });

  it('denies window.open and every navigation, redirect and <webview> of any web contents', () => {
    expect(page.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const e = {
        prevented: false,
        preventDefault() {
          this.prevented = true;
        },
      };
      page.emit(event, e, 'https://example.com/');
      expect(e.prevented, event).toBe(true);
    }
  });

  it('refuses downloads', () => {
    const e = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    fake.session.emit('will-download', e, {}, page);
    expect(e.prevented).toBe(true);
  });
});
