// Quitting the desktop app stops every agent (design §6): the quit is held back, the core host is asked to close,
// main waits for it to exit, then quits. A core that does not exit in time is killed. The core is the real one
// behind a fake utility process, with a real agent process that must be gone afterwards.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RpcClient } from '../../shared/client.js';
import { CHANNELS } from '../../shared/bridge-contract.js';
import { startDesktop } from '../../electron/app/desktop.js';
import { portMainWire } from '../../electron/app/main-client.js';
import type { CoreHost } from '../../electron/core/host.js';
import { isAlive, killMarks, markOf, readProc, waitAllGone, type ProcMark } from '../helpers/processes.js';
import { testEnv } from '../helpers/server.js';
import { FakeBrowserWindow, fakeElectron, realCore, until, type FakeElectron } from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
let root: string;
let fake: FakeElectron;
const cores: Promise<CoreHost>[] = [];
const leftovers: ProcMark[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-electron-quit-')));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const core of cores.splice(0)) await (await core).close().catch(() => undefined);
  killMarks(leftovers.splice(0));
  rmSync(root, { recursive: true, force: true });
});

async function launch(withRealCore: boolean, quitTimeoutMs: number) {
  const env = testEnv(join(root, 'home'));
  fake = fakeElectron(join(root, 'userData'), (child) => {
    if (withRealCore) cores.push(realCore(child, env));
  });
  await startDesktop(fake.api, { packageRoot: ROOT, args: [], cwd: ROOT, platform: 'linux', env: { BATON_HOME: join(root, 'data') }, quitTimeoutMs })!.ready;
  return FakeBrowserWindow.all[0]!;
}

describe('quitting the desktop app', () => {
  it('asks the core to stop every agent, waits for it to exit, then quits; no agent outlives it', async () => {
    const win = await launch(true, 15_000);
    fake.ipcMain.send(CHANNELS.connect, win.webContents.event());
    const port = win.webContents.posted.at(-1)!.ports[0]!;
    const client = new RpcClient(portMainWire(port as never));
    const cwd = join(root, 'work');
    mkdirSync(cwd);
    const run = await client.call('run.start', { name: 'long', agents: [{ vendor: 'shell', label: 'sleeper', cwd, command: ['/bin/sleep', '600'] }] });
    const agent = markOf(readProc(run.agents[0]!.pid!)!);
    leftovers.push(agent);
    expect(isAlive(agent)).toBe(true);
    win.visible = true;

    fake.app.quit();

    // The first quit is held back while the core works; the window is out of the way at once.
    expect(fake.app.quitted).toBe(false);
    expect(win.visible).toBe(false);
    const core = fake.forks[0]!;
    await until(() => core.types().at(-1) === 'close', 'the core to be asked to close');
    await until(() => fake.app.quitted, 'the app to quit', 15_000);
    expect(core.exitCode).toBe(0);
    expect(core.killed).toBe(false);
    expect(fake.app.quitRequests).toBe(2);
    expect(await waitAllGone([agent], 2000)).toEqual([]);
    cores.length = 0; // The core closed itself on the way out: nothing left for afterEach to close.
  });

  it('kills a core that does not exit within the timeout, then quits', async () => {
    await launch(false, 300);
    const core = fake.forks[0]!;
    const started = Date.now();
    fake.app.quit();
    fake.app.quit(); // A second quit while stopping changes nothing.
    await until(() => fake.app.quitted, 'the app to quit');
    expect(core.types().filter((t) => t === 'close')).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(core.killed).toBe(true);
  });

  it('saves the window placement before the agents are stopped', async () => {
    const win = await launch(false, 50);
    win.moveTo({ x: 40, y: 50, width: 1100, height: 750 });
    fake.app.quit();
    await until(() => fake.app.quitted, 'the app to quit');
    expect(JSON.parse(readFileSync(join(root, 'userData', 'window-state.json'), 'utf8'))).toEqual({ x: 40, y: 50, width: 1100, height: 750, maximized: false });
  });
});
