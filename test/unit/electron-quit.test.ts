// Quitting the desktop app asks once what to do with running agents (docs/desktop.md §1): "Keep agents running"
// leaves the background core and every agent running, and the next launch shows them again, byte-exact; "Stop all
// agents" snapshots every run, stops every agent and ends the core; "Remember my choice" makes the next quit ask
// nothing. The core is a real `baton serve --socket` process started by the wiring, with real agent processes.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RpcClient } from '../../shared/client.js';
import { CHANNELS } from '../../shared/bridge-contract.js';
import { startDesktop, type Desktop } from '../../electron/app/desktop.js';
import { KEEP_LABEL, STOP_LABEL } from '../../electron/app/quit.js';
import { portMainWire } from '../../electron/app/main-client.js';
import { isRunning, readServerJson, stopCoreOf } from '../helpers/core.js';
import { testEnv } from '../helpers/server.js';
import { FakeBrowserWindow, fakeElectron, realRelay, realSpawn, until, type FakeElectron } from './electron-fake.js';

const ROOT = resolve(import.meta.dirname, '../..');
let root: string;
let dataDir: string;
let env: Record<string, string>;
const clients: RpcClient[] = [];
const desktops: Desktop[] = [];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-electron-quit-')));
  dataDir = join(root, 'data');
  env = { ...testEnv(join(root, 'home')), BATON_HOME: dataDir };
  mkdirSync(join(root, 'work'));
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of clients.splice(0)) c.close();
  for (const d of desktops.splice(0)) {
    d.core.close();
    d.relay.close();
  }
  await stopCoreOf(dataDir);
  rmSync(root, { recursive: true, force: true });
});

interface Launched {
  fake: FakeElectron;
  desktop: Desktop;
  win: FakeBrowserWindow;
  /** The page's client, over the port main handed it. */
  client: RpcClient;
}

async function launch(): Promise<Launched> {
  const fake = fakeElectron(join(root, 'userData'), realRelay, realSpawn);
  const desktop = startDesktop(fake.api, { packageRoot: ROOT, args: [], cwd: ROOT, platform: 'linux', env })!;
  desktops.push(desktop);
  await desktop.ready;
  await desktop.core.firstAttempt;
  const win = FakeBrowserWindow.all.at(-1)!;
  fake.ipcMain.send(CHANNELS.connect, win.webContents.event());
  const handed = win.webContents.posted.filter((p) => p.channel === CHANNELS.port).at(-1)!;
  const client = new RpcClient(portMainWire(handed.ports[0]! as never));
  clients.push(client);
  return { fake, desktop, win, client };
}

/** A run of one agent printing a numbered line every 20 ms: its pid, and its id. */
async function startCounter(client: RpcClient): Promise<{ agentId: string; pid: number }> {
  const run = await client.call('run.start', {
    name: 'counter',
    agents: [
      {
        vendor: 'shell',
        label: 'count',
        cwd: join(root, 'work'),
        command: ['/bin/sh', '-c', 'i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.02; done'],
      },
    ],
  });
  return { agentId: run.agents[0]!.id, pid: run.agents[0]!.pid! };
}

async function quit(l: Launched): Promise<void> {
  l.fake.app.quit();
  await until(() => l.fake.app.quitted, 'the app to quit', 20_000);
}

/** The message box's buttons and checkbox, as the user sees them. */
const asked = (fake: FakeElectron) =>
  fake.messageBoxes.map(
    (args) => args.at(-1) as { buttons: string[]; defaultId: number; checkboxLabel: string; message: string },
  );

describe('quitting the desktop app', () => {
  it('“Keep agents running” leaves the core and the agent running; the next launch reattaches byte-exact from its offset', async () => {
    const first = await launch();
    const { agentId, pid } = await startCounter(first.client);
    const corePid = readServerJson(dataDir)!.pid;
    first.win.visible = true;
    first.fake.answers.push({ response: 0, checkboxChecked: false });

    await quit(first);

    const [question] = asked(first.fake);
    expect(question).toMatchObject({
      buttons: [KEEP_LABEL, STOP_LABEL],
      defaultId: 0,
      checkboxLabel: 'Remember my choice',
      message: '1 agent is running. Keep it running after Baton quits?',
    });
    expect(first.win.visible).toBe(false);
    expect(first.fake.forks[0]!.killed).toBe(true); // The relay goes with the app…
    expect(isRunning(corePid)).toBe(true); // …the core and its agent do not.
    expect(isRunning(pid)).toBe(true);
    expect(first.fake.app.quitRequests).toBe(2);

    // Next launch: the same core, the same terminal, and the bytes continue exactly where a pane left them.
    const second = await launch();
    expect(second.fake.spawns).toEqual([]);
    const run = await second.client.call('run.get', { run: 'counter' });
    expect(run.agents[0]).toMatchObject({ status: 'running', pid });
    let seen = Buffer.alloc(0);
    const stream = await second.client.attach(
      agentId,
      { fromOffset: 0, autoAck: true },
      { onData: (d) => (seen = Buffer.concat([seen, Buffer.from(d)])), onReset: () => undefined },
    );
    await until(() => seen.includes('tick 50\r\n'), 'the counter output from its start');
    const offset = seen.length;
    stream.detach();
    let rest = Buffer.alloc(0);
    await second.client.attach(
      agentId,
      { terminalId: stream.terminalId, fromOffset: offset, autoAck: true },
      {
        onData: (d, at) => {
          expect(at).toBe(offset + rest.length);
          rest = Buffer.concat([rest, Buffer.from(d)]);
        },
        onReset: () => {
          throw new Error('a reset instead of the missed bytes');
        },
      },
    );
    await until(() => rest.length > 100, 'more output after the offset');
    const text = Buffer.concat([seen, rest]).toString();
    const ticks = [...text.matchAll(/tick (\d+)\r\n/g)].map((m) => Number(m[1]));
    expect(ticks).toEqual(ticks.map((_, i) => i + 1)); // every line once, in order: nothing lost, nothing twice
  });

  it('“Stop all agents” snapshots every run, stops every agent, and ends the core', async () => {
    const l = await launch();
    const { pid } = await startCounter(l.client);
    const corePid = readServerJson(dataDir)!.pid;
    l.fake.answers.push({ response: 1, checkboxChecked: false });

    await quit(l);

    expect(asked(l.fake)).toHaveLength(1);
    await until(() => !isRunning(corePid), 'the core to end');
    expect(isRunning(pid)).toBe(false);
    const runDir = readdirSync(join(dataDir, 'runs')).find((d) => d.startsWith('run_'))!;
    const events = readFileSync(join(dataDir, 'runs', runDir, 'events.jsonl'), 'utf8');
    expect(events).toMatch(/"type":"snapshot".*snapshot \(quit\)/);
    expect(events).toMatch(/"type":"stopped"/);
    // Nothing to resume later: the user stopped them.
    expect(readdirSync(dataDir)).not.toContain('interrupted.json');
  });

  it('a remembered choice is used without asking', async () => {
    const first = await launch();
    await startCounter(first.client);
    first.fake.answers.push({ response: 0, checkboxChecked: true });
    await quit(first);
    expect(asked(first.fake)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ quitAction: 'keep' });

    const second = await launch();
    const corePid = readServerJson(dataDir)!.pid;
    await quit(second);
    expect(asked(second.fake)).toEqual([]); // Not asked again…
    expect(isRunning(corePid)).toBe(true); // …and kept, as remembered.
  });

  it('with no agent running, asks nothing and stops the idle core', async () => {
    const l = await launch();
    const corePid = readServerJson(dataDir)!.pid;
    await quit(l);
    expect(asked(l.fake)).toEqual([]);
    await until(() => !isRunning(corePid), 'the idle core to end');
  });

  it('saves the window placement before quitting, even with no core to ask', async () => {
    const fake = fakeElectron(join(root, 'userData'));
    const desktop = startDesktop(fake.api, {
      packageRoot: ROOT,
      args: [],
      cwd: ROOT,
      platform: 'linux',
      env: { BATON_HOME: dataDir },
    })!;
    desktops.push(desktop);
    await desktop.ready;
    FakeBrowserWindow.all[0]!.moveTo({ x: 40, y: 50, width: 1100, height: 750 });
    fake.app.quit();
    await until(() => fake.app.quitted, 'the app to quit');
    expect(fake.messageBoxes).toEqual([]);
    expect(JSON.parse(readFileSync(join(root, 'userData', 'window-state.json'), 'utf8'))).toEqual({
      x: 40,
      y: 50,
      width: 1100,
      height: 750,
      maximized: false,
    });
  });
});
