// Each window gets a MessagePort to the background core: main starts the core (detached, with the app's own runtime)
// only when none answers, forks the relay, makes a MessageChannelMain per page, sends one end to the relay and the
// other to the page, and never sees a terminal byte. The relay behind the fake utility process is the real one
// (core-relay-entry.ts), and so is the core: a real `baton serve --socket` process, with real PTYs.
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RpcClient } from '../../shared/client.js';
import { CHANNELS } from '../../shared/bridge-contract.js';
import { startDesktop, type Desktop } from '../../electron/app/desktop.js';
import { portMainWire } from '../../electron/app/main-client.js';
import { RelayProcess } from '../../electron/app/relay-process.js';
import { isRunning, readServerJson, startCore, stopCore, stopCoreOf, type CoreProcess } from '../helpers/core.js';
import { testEnv } from '../helpers/server.js';
import {
  FakeBrowserWindow,
  FakeMessageChannelMain,
  fakeElectron,
  realRelay,
  realSpawn,
  until,
  type FakeElectron,
  type FakePort,
  type FakeUtilityProcess,
  type FakeWebContents,
} from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
let root: string;
let dataDir: string;
let env: Record<string, string>;
const clients: RpcClient[] = [];
const cores: CoreProcess[] = [];
const desktops: Desktop[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-electron-ports-')));
  dataDir = join(root, 'data');
  env = { ...testEnv(join(root, 'home')), BATON_HOME: dataDir };
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of clients.splice(0)) c.close();
  for (const d of desktops.splice(0)) {
    d.core.close();
    d.relay.close();
  }
  await Promise.all(cores.splice(0).map(stopCore));
  await stopCoreOf(dataDir);
  rmSync(root, { recursive: true, force: true });
});

async function launch(): Promise<{ fake: FakeElectron; desktop: Desktop; page: FakeWebContents }> {
  const fake = fakeElectron(join(root, 'userData'), realRelay, realSpawn);
  const desktop = startDesktop(fake.api, { packageRoot: ROOT, args: [], cwd: ROOT, platform: 'linux', env })!;
  desktops.push(desktop);
  await desktop.ready;
  await desktop.core.firstAttempt;
  return { fake, desktop, page: FakeBrowserWindow.all.at(-1)!.webContents };
}

/** The page's end of the latest port main handed it, as the renderer would use it. */
function pageClient(page: FakeWebContents): RpcClient {
  const handed = page.posted.filter((p) => p.channel === CHANNELS.port).at(-1)!;
  expect(handed.message).toEqual({ state: 'ready' });
  const client = new RpcClient(portMainWire(handed.ports[0]! as never));
  clients.push(client);
  return client;
}

describe('the background core at launch', () => {
  it('is started detached, with the app’s own runtime as Node, when none answers; its output goes to core.log', async () => {
    const { fake, desktop } = await launch();
    expect(fake.spawns).toHaveLength(1);
    const [call] = fake.spawns;
    expect(call!.command).toBe(process.execPath);
    expect(call!.args).toEqual([join(ROOT, 'bin', 'baton.js'), 'serve', '--socket', '--data-dir', dataDir]);
    expect(call!.options).toMatchObject({ detached: true, env: { ELECTRON_RUN_AS_NODE: '1', BATON_HOME: dataDir } });
    expect(call!.options.stdio).toEqual(['ignore', expect.any(Number), expect.any(Number)]);
    const info = readServerJson(dataDir)!;
    expect(info.pid).toBe(call!.child.pid);
    expect(desktop.core.info?.pid).toBe(info.pid);
    expect(statSync(join(dataDir, 'core.log')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'core.log'), 'utf8')).toContain(`is serving ${dataDir}`);
    expect(readFileSync(join(dataDir, 'core.log'), 'utf8')).not.toContain(info.token);
    // The relay was told where the core is; the token went to it over the parent port, never on a command line.
    const relay = fake.forks[0]!;
    expect(relay.args).toEqual([]);
    expect(relay.received[0]!.message).toEqual({ type: 'core', address: { socket: info.socket, token: info.token } });
  });

  it('is not started again when one already answers: main connects to it', async () => {
    const running = await startCore(dataDir, env);
    cores.push(running);
    const { fake, desktop } = await launch();
    expect(fake.spawns).toEqual([]);
    expect(desktop.core.info).toMatchObject({ pid: running.info.pid, liveAgents: 0 });
  });
});

/** The File menu's first item: how many agents the background core runs. */
function menuStatus(fake: FakeElectron): { label: string; enabled: boolean } | undefined {
  const file = (fake.menu.template as { label?: string; submenu?: { label?: string; enabled?: boolean }[] }[]).find(
    (m) => m.label === 'File',
  );
  const first = file?.submenu?.[0];
  return first?.label ? { label: first.label, enabled: first.enabled ?? true } : undefined;
}

describe('the count of running agents in the menu', () => {
  it('shows, as a disabled File menu item, how many agents run in the background core, and follows them', async () => {
    const { fake, page } = await launch();
    const pid = readServerJson(dataDir)!.pid;
    expect(menuStatus(fake)).toEqual({
      label: `No agents running in the background core (pid ${pid})`,
      enabled: false,
    });
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const client = pageClient(page);
    await client.call('run.start', {
      name: 'two',
      agents: [1, 2].map((n) => ({
        vendor: 'shell' as const,
        label: `s${n}`,
        cwd: root,
        command: ['/bin/sleep', '600'],
      })),
    });
    await until(
      () => menuStatus(fake)?.label === `2 agents running in the background core (pid ${pid})`,
      'the menu to count 2 agents',
    );
    await client.call('run.stop', { run: 'two' });
    await until(() => menuStatus(fake)?.label.startsWith('No agents running'), 'the menu to count none');
  });
});

describe('port hand-off through the relay', () => {
  it('leads each page to the core: requests answered, terminal bytes arrive on the port, none through main', async () => {
    const { fake, page } = await launch();
    const channelsBefore = FakeMessageChannelMain.created.length;
    fake.ipcMain.send(CHANNELS.connect, page.event());
    expect(FakeMessageChannelMain.created).toHaveLength(channelsBefore + 1);
    const { port1, port2 } = FakeMessageChannelMain.created.at(-1)!;
    expect(fake.forks[0]!.received.at(-1)).toEqual({ message: { type: 'connect' }, ports: [port1] });
    expect((port2 as FakePort).other).toBe(port1);

    const client = pageClient(page);
    expect((await client.call('host.info', {})).dataDir).toBe(dataDir);
    const run = await client.call('run.start', {
      name: 'ported',
      agents: [
        { vendor: 'shell', label: 'echo', cwd: root, command: ['/bin/sh', '-c', 'echo hello-over-the-port; sleep 30'] },
      ],
    });
    let text = '';
    const stream = await client.attach(
      run.agents[0]!.id,
      { autoAck: true },
      {
        onData: (data) => (text += Buffer.from(data).toString('utf8')),
        onReset: (screen) => (text += screen),
      },
    );
    await until(() => text.includes('hello-over-the-port'), 'the agent output on the page port');
    // Typing goes the other way, through the same port and relay, as an input frame (the terminal echoes it).
    stream.input('typed-through-the-relay');
    await until(() => text.includes('typed-through-the-relay'), 'the typed text echoed on the page port');
    expect(page.sent).toEqual([]);
    expect(JSON.stringify(page.posted.map((p) => p.message))).not.toContain('hello-over-the-port');
    await client.call('run.stop', { run: 'ported' });
  });

  it('hands a reloaded page a new port; the old one closing leaves the agent running', async () => {
    const { fake, page } = await launch();
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const first = pageClient(page);
    const run = await first.call('run.start', {
      name: 'stays',
      agents: [{ vendor: 'shell', label: 'sleeper', cwd: root, command: ['/bin/sleep', '600'] }],
    });
    fake.ipcMain.send(CHANNELS.connect, page.event());
    const second = pageClient(page);
    first.close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await second.call('run.get', { run: 'stays' });
    expect(again.agents[0]!.status).toBe('running');
    expect(isRunning(run.agents[0]!.pid!)).toBe(true);
  });

  it('tells the page when the core dies, starts a new one, and hands the page a port to it', async () => {
    const { fake, page } = await launch();
    fake.ipcMain.send(CHANNELS.connect, page.event());
    await pageClient(page).call('run.start', {
      name: 'victim',
      agents: [{ vendor: 'shell', label: 'sh', cwd: root, command: ['/bin/sleep', '600'] }],
    });
    const first = readServerJson(dataDir)!.pid;
    process.kill(first, 'SIGKILL');

    await until(
      () => page.posted.some((p) => (p.message as { state: string }).state === 'lost'),
      'the page to be told the core stopped',
    );
    const lost = page.posted.find((p) => (p.message as { state: string }).state === 'lost')!;
    expect((lost.message as { reason: string }).reason).toMatch(/The Baton core stopped\. Baton is starting it again/);
    await until(() => fake.spawns.length === 2, 'a new core to be started');
    await until(
      () => (page.posted.at(-1)?.message as { state?: string })?.state === 'ready',
      'a new port for the page',
    );
    const client = pageClient(page);
    expect((await client.call('core.info', {})).pid).not.toBe(first);
    // The run the killed core was running is offered back.
    expect((await client.call('recovery.get', {})).interrupted?.runs.map((r) => r.name)).toEqual(['victim']);
  });
});

describe('the relay supervisor', () => {
  it('forks the relay again when it dies, and every page gets a new port', async () => {
    const forks: FakeUtilityProcess[] = [];
    const local = fakeElectron(join(root, 'u2'), (child) => forks.push(child));
    let restarted = 0;
    const relay = new RelayProcess(local.api, {
      entry: '/x/core-relay-entry.js',
      restartDelaysMs: [5],
      onRestarted: () => restarted++,
    });
    relay.start();
    relay.setCore({ socket: '/x/core.sock', token: 't' });
    expect(relay.openPort()).not.toBeNull();
    forks[0]!.exit(1);
    await until(() => restarted === 1, 'the relay to be forked again');
    expect(forks[1]!.received[0]!.message).toEqual({ type: 'core', address: { socket: '/x/core.sock', token: 't' } });
    forks[1]!.exit(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(forks).toHaveLength(2); // Given up after its restarts.
    relay.close();
  });
});
