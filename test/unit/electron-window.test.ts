// The desktop window as main opens it: its security-relevant web preferences, the one page it loads, its placement
// kept across launches, and the menu that sends the dashboard's commands over the bridge. Electron is the small fake
// of electron-fake.ts, handed to the real wiring (startDesktop) in place of the module.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS, parseMenuMessage } from '../../shared/bridge-contract.js';
import { startDesktop } from '../../electron/app/desktop.js';
import { menuTemplate } from '../../electron/app/menu.js';
import { helpRows } from '../../renderer/commands/help.js';
import { FakeBrowserWindow, fakeElectron, until, type FakeElectron } from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
let userData: string;
let fake: FakeElectron;

beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'baton-electron-window-'));
});
afterEach(() => {
  rmSync(userData, { recursive: true, force: true });
});

async function launch(platform: NodeJS.Platform = 'linux') {
  fake = fakeElectron(userData);
  const desktop = startDesktop(fake.api, {
    packageRoot: ROOT,
    args: [],
    cwd: ROOT,
    platform,
    env: { BATON_HOME: join(userData, 'data') },
  })!;
  await desktop.ready;
  const win = FakeBrowserWindow.all[0]!;
  return { desktop, win };
}

describe('the dashboard window', () => {
  it('is isolated, sandboxed, without Node, with web security, and preloads only the bridge bundle', async () => {
    const { win } = await launch();
    const prefs = win.options.webPreferences!;
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.spellcheck).toBe(false);
    expect(prefs.preload).toBe(join(ROOT, 'dist', 'preload', 'preload.cjs'));
    expect(win.loadedFile).toBe(join(ROOT, 'dist', 'renderer', 'index.html'));
    expect(FakeBrowserWindow.all).toHaveLength(1);
  });

  it('turns developer tools off in a packaged app', async () => {
    fake = fakeElectron(userData);
    fake.app.isPackaged = true;
    await startDesktop(fake.api, {
      packageRoot: ROOT,
      args: [],
      cwd: ROOT,
      platform: 'linux',
      env: { BATON_HOME: join(userData, 'data') },
    })!.ready;
    expect(FakeBrowserWindow.all[0]!.options.webPreferences!.devTools).toBe(false);
  });

  it('comes back where the user left it, from a JSON file in userData written atomically', async () => {
    const first = await launch();
    first.win.moveTo({ x: 300, y: 200, width: 1000, height: 700 });
    first.win.maximize();
    first.win.close();
    const file = join(userData, 'window-state.json');
    const saved = await until(
      () => existsSync(file) && JSON.parse(readFileSync(file, 'utf8')),
      'the saved window state',
    );
    expect(saved).toEqual({ x: 300, y: 200, width: 1000, height: 700, maximized: true });
    // Written through a temp file and renamed: no temp file is left beside it.
    expect(readdirSync(userData).filter((n) => n.includes('.tmp-'))).toEqual([]);

    const second = await launch();
    expect(second.win.options).toMatchObject({ x: 300, y: 200, width: 1000, height: 700 });
    expect(second.win.maximized).toBe(true);
  });

  it('opens at the default size when the saved state is torn or off every screen', async () => {
    writeFileSync(join(userData, 'window-state.json'), '{"x": 10, "y"');
    const torn = await launch();
    expect(torn.win.options).toMatchObject({ width: 1280, height: 820 });
    expect(torn.win.options.x).toBeUndefined();

    writeFileSync(
      join(userData, 'window-state.json'),
      JSON.stringify({ x: 9000, y: 9000, width: 900, height: 600, maximized: false }),
    );
    const offScreen = await launch();
    expect(offScreen.win.options).toMatchObject({ width: 900, height: 600 });
    expect(offScreen.win.options.x).toBeUndefined();
  });
});

describe('the application menu', () => {
  const items = (template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
    template.flatMap((m) => [m, ...(Array.isArray(m.submenu) ? items(m.submenu) : [])]);

  it("shows the dashboard's shortcuts, the same as the help overlay lists", () => {
    const rows = helpRows();
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const commands = items(menuTemplate({ platform, devTools: false, send: () => undefined })).filter(
        (i) => i.id !== undefined,
      );
      const shown = new Map(commands.map((i) => [i.label, i.accelerator]));
      expect(shown, platform).toEqual(
        new Map([
          ['New run…', 'Alt+Shift+N'],
          ['Resume from handle…', 'Alt+Shift+R'],
          ['Search every conversation', 'Alt+Shift+G'],
          ['Snapshot', 'Alt+Shift+S'],
          ['Copy handle', 'Alt+Shift+H'],
          ['Stop run', 'Alt+Shift+X'],
          ['Keyboard shortcuts', 'F1'],
        ]),
      );
      // Each item's command has a row in the help overlay, with the same title and the item's key among its keys.
      for (const item of commands) {
        const row = rows.find((r) => (r.ids as readonly string[]).includes(String(item.id)));
        expect(row, item.id).toBeDefined();
        expect(String(item.label).replace(/…$/, '')).toBe(row!.title);
        expect(row!.keys).toContain(item.accelerator);
      }
    }
  });

  it('registers no accelerator on Linux, so every key reaches the focused terminal', () => {
    const all = items(menuTemplate({ platform: 'linux', devTools: true, send: () => undefined }));
    const withKeys = all.filter(
      (i) =>
        i.accelerator ||
        i.role === 'quit' ||
        i.role === 'reload' ||
        i.role === 'toggleDevTools' ||
        i.role === 'togglefullscreen',
    );
    expect(withKeys.length).toBeGreaterThanOrEqual(9);
    for (const item of withKeys) expect(item.registerAccelerator, String(item.label ?? item.role)).toBe(false);
    expect(all.some((i) => i.role === 'editMenu')).toBe(false);
  });

  it("sends the chosen item's command id to the page over the bridge once the page listens", async () => {
    const { win } = await launch();
    const click = (label: string) => {
      const item = items(fake.menu.template as MenuItemConstructorOptions[]).find((i) => i.label === label)!;
      (item.click as () => void)();
    };
    click('Snapshot');
    expect(win.webContents.sent).toEqual([]); // The page has not asked for its port yet: nothing listens.
    fake.ipcMain.send(CHANNELS.connect, win.webContents.event());
    click('Snapshot');
    click('Resume from handle…');
    click('Keyboard shortcuts');
    expect(win.webContents.sent.filter((s) => s.channel === CHANNELS.menu).map((s) => s.args)).toEqual([
      [{ command: 'run.snapshot' }],
      [{ command: 'resume.open' }],
      [{ command: 'help.open' }],
    ]);
    // What main sends passes the schema check the page applies (the preload's parseMenuMessage).
    for (const sent of win.webContents.sent.filter((m) => m.channel === CHANNELS.menu))
      expect(parseMenuMessage(sent.args[0])).toEqual(sent.args[0]);
  });
});
