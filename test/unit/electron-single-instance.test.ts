// One Baton at a time: a second launch focuses the first and hands over a `baton://resume` link or a handle file,
// which open the Resume dialog (with its preview) and resume nothing by themselves. A handle is never taken from
// the command line, where other users of the machine can read it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../shared/bridge-contract.js';
import { startDesktop } from '../../electron/app/desktop.js';
import { NOT_FROM_COMMAND_LINE, handoffFromLink, launchItems } from '../../electron/app/single-instance.js';
import {
  FakeBrowserWindow,
  fakeElectron,
  until,
  type FakeBrowserWindow as Win,
  type FakeElectron,
} from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HANDLE = `baton1.${Buffer.from('{"v":1,"run":{"name":"secret-run"}}').toString('base64url')}`;
let root: string;
let fake: FakeElectron;
let win: Win;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'baton-electron-single-'));
  fake = fakeElectron(join(root, 'userData'));
  await startDesktop(fake.api, {
    packageRoot: ROOT,
    args: [],
    cwd: ROOT,
    platform: 'linux',
    env: { BATON_HOME: join(root, 'data') },
  })!.ready;
  win = FakeBrowserWindow.all[0]!;
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const pageListens = () => fake.ipcMain.send(CHANNELS.connect, win.webContents.event());
const handoffs = () => win.webContents.sent.filter((s) => s.channel === CHANNELS.resume).map((s) => s.args[0]);
const secondLaunch = (...args: string[]) =>
  fake.app.emit('second-instance', { preventDefault() {} }, ['/opt/Baton/baton', ...args], root, {});

describe('a second launch', () => {
  it('with a baton://resume link focuses the window and opens the Resume dialog, resuming nothing', async () => {
    pageListens();
    win.minimized = true;
    win.focused = false;
    const before = fake.forks[0]!.received.length;

    secondLaunch('--no-sandbox', 'baton://resume');

    await until(() => handoffs().length === 1, 'the hand-off to the page');
    expect(handoffs()).toEqual([{}]);
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(true);
    expect(win.visible).toBe(true);
    // Main sent the core nothing: resuming is the dialog's, after its preview and the user's click.
    expect(fake.forks[0]!.received.length).toBe(before);
    expect(win.webContents.sent.map((s) => s.channel)).toEqual([CHANNELS.resume]);
    expect(FakeBrowserWindow.all).toHaveLength(1);
  });

  it('with a handle in the link or as an argument opens the dialog empty and says why; the handle goes nowhere', async () => {
    pageListens();
    secondLaunch(`baton://resume?handle=${HANDLE}`);
    secondLaunch(HANDLE);
    await until(() => handoffs().length === 2, 'two hand-offs');
    expect(handoffs()).toEqual([{ notice: NOT_FROM_COMMAND_LINE }, { notice: NOT_FROM_COMMAND_LINE }]);
    expect(JSON.stringify(win.webContents.sent)).not.toContain(HANDLE.slice(7, 30));
    expect(JSON.stringify(fake.forks[0]!.received.map((r) => r.message))).not.toContain(HANDLE.slice(7, 30));
  });

  it('with a handle file puts its content in the dialog (the path came from the command line, not the handle)', async () => {
    pageListens();
    const dir = join(root, 'downloads');
    mkdirSync(dir);
    writeFileSync(join(dir, 'demo.handle'), `${HANDLE}\n`, { mode: 0o600 });
    secondLaunch('downloads/demo.handle');
    await until(() => handoffs().length === 1, 'the hand-off');
    expect(handoffs()).toEqual([{ handle: HANDLE }]);
  });

  it('with a handle file that cannot be read says so, without its content', async () => {
    pageListens();
    secondLaunch(join(root, 'missing.baton'));
    await until(() => handoffs().length === 1, 'the hand-off');
    expect(handoffs()).toEqual([{ notice: 'Could not read the handle file missing.baton (ENOENT).' }]);
  });

  it('before the page listens, is kept and delivered once the page asks for its port', async () => {
    secondLaunch('baton://resume');
    await new Promise((r) => setTimeout(r, 20));
    expect(handoffs()).toEqual([]);
    pageListens();
    expect(handoffs()).toEqual([{}]);
  });
});

describe('links and arguments', () => {
  it('macOS hands a link over as an event, not an argument: there the handle may fill the dialog', () => {
    pageListens();
    const event = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    fake.app.emit('open-url', event, `baton://resume?handle=${HANDLE}`);
    expect(event.prevented).toBe(true);
    expect(handoffs()).toEqual([{ handle: HANDLE }]);
  });

  it('takes only baton: links and .baton / .handle files from the arguments', () => {
    expect(
      launchItems(
        ['.', '--inspect', 'dist/electron/main.js', 'notes.txt', 'baton://resume', 'x.baton', 'y.HANDLE', '{"v":1}'],
        '/home/u',
      ),
    ).toEqual([
      { kind: 'link', url: 'baton://resume' },
      { kind: 'file', path: '/home/u/x.baton' },
      { kind: 'file', path: '/home/u/y.HANDLE' },
      { kind: 'handle-refused' },
    ]);
  });

  it('opens baton://resume links only, and never repeats a foreign link', () => {
    expect(handoffFromLink('baton://resume/', 'command-line')).toEqual({});
    expect(handoffFromLink('baton://run?cmd=rm%20-rf', 'open-url')).toEqual({
      notice: 'Baton opens baton://resume links only, not baton://run.',
    });
    expect(handoffFromLink('baton://%%%', 'open-url')).toEqual({ notice: 'Baton opens baton://resume links only.' });
    expect(handoffFromLink('baton://[', 'open-url')).toBeNull();
  });
});

describe('the first launch', () => {
  it('quits at once when another Baton holds the lock, opening no window and no core', () => {
    const other = fakeElectron(join(root, 'userData2'));
    other.app.hasLock = false;
    const desktop = startDesktop(other.api, {
      packageRoot: ROOT,
      args: ['baton://resume'],
      cwd: ROOT,
      platform: 'linux',
      env: {},
    });
    expect(desktop).toBeNull();
    expect(other.app.quitRequests).toBe(1);
    expect(other.forks).toEqual([]);
    expect(FakeBrowserWindow.all).toEqual([]);
  });

  it('with its own link argument opens the Resume dialog once its page listens', async () => {
    const first = fakeElectron(join(root, 'userData3'));
    await startDesktop(first.api, {
      packageRoot: ROOT,
      args: ['baton://resume'],
      cwd: ROOT,
      platform: 'linux',
      env: { BATON_HOME: join(root, 'd3') },
    })!.ready;
    const page = FakeBrowserWindow.all[0]!.webContents;
    expect(page.sent).toEqual([]);
    first.ipcMain.send(CHANNELS.connect, page.event());
    expect(page.sent).toEqual([{ channel: CHANNELS.resume, args: [{}] }]);
  });
});
