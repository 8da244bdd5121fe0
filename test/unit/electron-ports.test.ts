// Each window gets a MessagePort straight to the core host: main makes a MessageChannelMain, sends one end to the
// utility process and the other to the window, and never sees a terminal byte. The core behind the fake utility
// process is the real one (core-host-entry.ts's serveParentPort over openCoreHost), with real PTYs.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RpcClient } from '../../shared/client.js';
import { CHANNELS } from '../../shared/bridge-contract.js';
import { CoreProcess } from '../../electron/app/core-process.js';
import { startDesktop } from '../../electron/app/desktop.js';
import { portMainWire } from '../../electron/app/main-client.js';
import { dataDirFromArgs } from '../../electron/core-host-entry.js';
import type { CoreHost } from '../../electron/core/host.js';
import { testEnv } from '../helpers/server.js';
import {
  FakeBrowserWindow,
  FakeMessageChannelMain,
  fakeElectron,
  realCore,
  until,
  type FakeElectron,
  type FakePort,
  type FakeUtilityProcess,
  type FakeWebContents,
} from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
let root: string;
let fake: FakeElectron;
let page: FakeWebContents;
let env: Record<string, string>;
const cores: Promise<CoreHost>[] = [];
const clients: RpcClient[] = [];

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-electron-ports-')));
  env = testEnv(join(root, 'home'));
  fake = fakeElectron(join(root, 'userData'), (child) => cores.push(realCore(child, env)));
  await startDesktop(fake.api, { packageRoot: ROOT, args: [], cwd: ROOT, platform: 'linux', env: { BATON_HOME: join(root, 'data') } })!.ready;
  page = FakeBrowserWindow.all[0]!.webContents;
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of clients.splice(0)) c.close();
  for (const core of cores.splice(0)) await (await core).close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

/** The page's end of the latest port main handed it, as the renderer would use it. */
function pageClient(): RpcClient {
  const handed = page.posted.filter((p) => p.channel === CHANNELS.port).at(-1)!;
  expect(handed.message).toEqual({ state: 'ready' });
  const client = new RpcClient(portMainWire(handed.ports[0]! as never));
  clients.push(client);
  return client;
}

describe('port hand-off', () => {
  it('gives the window one end of a new MessageChannelMain and the core host the other', async () => {
    const core = fake.forks[0]!;
    expect(core.modulePath).toBe(join(ROOT, 'dist', 'electron', 'core-host-entry.js'));
    expect(core.args).toEqual([`--data-dir=${join(root, 'data')}`]);
    const channelsBefore = FakeMessageChannelMain.created.length;
    const connectsBefore = core.types().filter((t) => t === 'connect').length;

    fake.ipcMain.send(CHANNELS.connect, page.event());

    expect(FakeMessageChannelMain.created).toHaveLength(channelsBefore + 1);
    const { port1, port2 } = FakeMessageChannelMain.created.at(-1)!;
    const toCore = core.received.at(-1)!;
    expect(toCore.message).toEqual({ type: 'connect' });
    expect(toCore.ports).toEqual([port1]);
    expect(core.types().filter((t) => t === 'connect')).toHaveLength(connectsBefore + 1);
    expect(page.posted).toEqual([{ channel: CHANNELS.port, message: { state: 'ready' }, ports: [port2] }]);
    expect((port2 as FakePort).other).toBe(port1);
  });

  it('leads straight to the real core: requests answered, terminal bytes arrive on the port, none through main', async () => {
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const client = pageClient();
    const info = await client.call('host.info', {});
    expect(info.dataDir).toBe(join(root, 'data'));
    expect(await client.call('run.list', {})).toEqual([]);

    const cwd = join(root, 'home');
    const run = await client.call('run.start', { name: 'ported', agents: [{ vendor: 'shell', label: 'echo', cwd, command: ['/bin/sh', '-c', 'echo hello-over-the-port; sleep 30'] }] });
    let text = '';
    const stream = await client.attach(run.agents[0]!.id, { autoAck: true }, {
      onData: (data) => (text += Buffer.from(data).toString('utf8')),
      onReset: (screen) => (text += screen),
    });
    await until(() => text.includes('hello-over-the-port'), 'the agent output on the window port');
    stream.detach();
    // Main sent the page only its port: no output, no event went through main's own channels.
    expect(page.sent).toEqual([]);
    expect(JSON.stringify(page.posted.map((p) => p.message))).not.toContain('hello-over-the-port');
    await client.call('run.stop', { run: 'ported' });
  });

  it('hands a reloaded page a new port, which keeps working when the old one closes', async () => {
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const first = pageClient();
    await first.call('run.list', {});
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const second = pageClient();
    expect(await second.call('run.list', {})).toEqual([]);
    first.close(); // The reloaded page's old port is gone.
    expect(await second.call('run.list', {})).toEqual([]);
  });

  it('tells the window when the core dies, restarts it, and hands the window a port to the new one', async () => {
    fake.ipcMain.send(CHANNELS.connect, page.event());
    await pageClient().call('run.list', {});
    const first = fake.forks[0]!;
    // The core dies on its own (its store released first, as a crashed process's would be).
    await (await cores[0]!).close();
    first.exit(1);

    const lost = page.posted.filter((p) => p.channel === CHANNELS.port).at(-1)!;
    expect(lost.message).toMatchObject({ state: 'lost' });
    expect((lost.message as { reason: string }).reason).toMatch(/The Baton core stopped \(it exited with code 1\)\. Restarting it/);
    expect(lost.ports).toEqual([]);

    const second = await until(() => fake.forks[1], 'a restarted core');
    expect(second.args).toEqual(first.args);
    await until(() => (page.posted.at(-1)?.message as { state?: string })?.state === 'ready', 'a new port for the window');
    expect(second.types()).toContain('connect');
    expect(await pageClient().call('run.list', {})).toEqual([]);
  });
});

describe('the core process supervisor', () => {
  it('passes the core its data directory as the one argument it reads', () => {
    expect(dataDirFromArgs(['/opt/Baton/baton', '/app/dist/electron/core-host-entry.js', '--data-dir=/home/u/.config/Baton/data'])).toBe('/home/u/.config/Baton/data');
    expect(() => dataDirFromArgs(['--data-dir=relative/dir'])).toThrow(/absolute --data-dir/);
    expect(() => dataDirFromArgs([])).toThrow(/absolute --data-dir/);
  });

  it('gives up after its restarts and says so, instead of restarting forever', async () => {
    const forks: FakeUtilityProcess[] = [];
    const lost: string[] = [];
    const local = fakeElectron(join(root, 'u2'), (child) => forks.push(child));
    const core = new CoreProcess(local.api, {
      entry: '/x/core-host-entry.js',
      dataDir: '/x/data',
      restartDelaysMs: [5, 5],
      onLost: (reason) => lost.push(reason),
      onStarted: () => undefined,
    });
    core.start();
    forks[0]!.exit(1);
    await until(() => forks[1], 'the first restart');
    forks[1]!.exit(1);
    await until(() => forks[2], 'the second restart');
    forks[2]!.exit(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(forks).toHaveLength(3);
    expect(lost.at(-1)).toMatch(/stopped again .* not restarted any more/);
    expect(core.running).toBe(false);
  });

  it("reports a core that could not open its data directory with the core's own reason", async () => {
    const forks: FakeUtilityProcess[] = [];
    const lost: string[] = [];
    const local = fakeElectron(join(root, 'u3'), (child) => forks.push(child));
    const core = new CoreProcess(local.api, { entry: '/x/e.js', dataDir: '/x/d', restartDelaysMs: [], onLost: (r) => lost.push(r), onStarted: () => undefined });
    core.start();
    forks[0]!.emit('message', { type: 'failed', message: 'EACCES: permission denied, mkdir /x/d' });
    forks[0]!.exit(1);
    expect(lost).toEqual([expect.stringContaining('it could not start: EACCES: permission denied, mkdir /x/d')]);
  });
});
