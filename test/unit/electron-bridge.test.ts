// The renderer's half of the desktop bridge (renderer/api/electron-bridge.ts): the same RpcClient as web mode over
// the MessagePort the preload posts into the page, a new client for each port, the core's loss said to the user;
// the menu's command ids run through the dashboard's command registry; hand-offs opening the Resume dialog and no more.
// The page is an EventTarget, the ports are real MessagePorts, and the core behind them is the real one.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort as NodePort } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { parseMenuMessage, type BatonBridge, type MenuMessage } from '../../shared/bridge-contract.js';
import { openCoreHost, type CoreHost } from '../../electron/core/host.js';
import { ClientSession } from '../../electron/core/transport/client-session.js';
import { menuTemplate } from '../../electron/app/menu.js';
import {
  DesktopConnection,
  desktopConnection,
  openResume,
  runMenuCommand,
} from '../../renderer/api/electron-bridge.js';
import type { ConnectionStatus } from '../../renderer/api/connection.js';
import { useBaton } from '../../renderer/state/store.js';
import type { BatonClient } from '../../shared/client.js';
import type { CommandId } from '../../shared/commands.js';
import type { RunView } from '../../shared/contract.js';
import { testEnv } from '../helpers/server.js';
import { until } from './electron-fake.js';

let root: string;
let core: CoreHost;

/** A selected run with one running agent: what the menu's run commands act on. */
const RUN: RunView = {
  id: 'run_menu',
  name: 'menu',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  lastSnapshot: null,
  agents: [
    {
      id: 'agt_menu',
      label: 'planner',
      vendor: 'shell',
      cwd: '/tmp',
      args: [],
      command: ['/bin/sh'],
      sessionId: null,
      sessionIds: [],
      status: 'running',
      exitCode: null,
      terminalId: 'trm_menu',
      pid: 1,
      warning: null,
      startedAt: '2025-01-01T00:00:00.000Z',
      worktree: null,
      attention: {
        state: 'idle',
        since: '2025-01-01T00:00:00.000Z',
        asks: null,
        inferred: false,
        episode: 0,
        source: 'none',
      },
    },
  ],
};
const ports: NodePort[] = [];

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-electron-bridge-')));
  core = await openCoreHost({ dataDir: join(root, 'data'), env: testEnv(join(root, 'home')), version: '0.0.0-test' });
  useBaton.setState({ dialog: null, toasts: [] });
});

afterEach(async () => {
  for (const p of ports.splice(0)) p.close();
  await core.close();
  rmSync(root, { recursive: true, force: true });
});

/** What the preload does when main hands a port: the core gets one end, the page the other, by window.postMessage. */
function handPort(page: EventTarget): void {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const session = new ClientSession(core, {
    send: (m) => port1.postMessage(JSON.stringify(m)),
    // As the relay does: each frame in its own ArrayBuffer, transferred.
    sendFrame: (frame) => {
      const buffer = frame.slice().buffer;
      port1.postMessage(buffer, [buffer]);
    },
  });
  port1.on('message', (data: unknown) => {
    if (typeof data === 'string') void session.receive(data);
    else if (data instanceof ArrayBuffer) session.receiveFrame(new Uint8Array(data));
  });
  port1.on('close', () => session.close());
  post(page, { baton: 'core-port' }, [port2]);
}

function post(page: EventTarget, data: unknown, transfer: NodePort[] = [], source: unknown = page): void {
  page.dispatchEvent(Object.assign(new Event('message'), { data, ports: transfer, source }));
}

function fakeBridge(
  page: EventTarget,
  onRequest: () => void = () => handPort(page),
): BatonBridge & { requests: number } {
  const bridge = {
    requests: 0,
    requestPort: () => {
      bridge.requests++;
      onRequest();
    },
    writeClipboard: async () => undefined,
    pickDirectory: async () => null,
    appVersion: async () => '0.1.0',
    onMenuCommand: () => () => undefined,
    onResumeHandoff: () => () => undefined,
    onFocusAgent: () => () => undefined,
  };
  return bridge;
}

function watch(connection: DesktopConnection) {
  const seen: { status: ConnectionStatus; client: BatonClient | null }[] = [];
  connection.subscribe((status, client) => seen.push({ status, client }));
  return seen;
}

describe('the desktop connection', () => {
  it('asks for a port and talks to the core over it with the same client as web mode', async () => {
    const page = new EventTarget();
    const bridge = fakeBridge(page);
    const connection = new DesktopConnection(bridge, page as unknown as Window);
    const seen = watch(connection);
    connection.start();
    expect(bridge.requests).toBe(1);
    await until(() => seen.at(-1)?.status === 'connected', 'connected');
    expect(seen.map((s) => s.status)).toEqual(['connecting', 'connected']);
    expect(await connection.client!.call('run.list', {})).toEqual([]);
    expect((await connection.client!.call('host.info', {})).dataDir).toBe(join(root, 'data'));
  });

  it('ignores a port posted by any other window', async () => {
    const page = new EventTarget();
    const connection = new DesktopConnection(
      fakeBridge(page, () => undefined),
      page as unknown as Window,
    );
    const seen = watch(connection);
    connection.start();
    const { port2 } = new MessageChannel();
    ports.push(port2);
    post(page, { baton: 'core-port' }, [port2], { other: 'window' });
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.map((s) => s.status)).toEqual(['connecting']);
    expect(connection.client).toBeNull();
  });

  it('when main says the core is gone, shows why and waits; a new port gives a new client', async () => {
    const page = new EventTarget();
    const connection = new DesktopConnection(fakeBridge(page), page as unknown as Window);
    const seen = watch(connection);
    connection.start();
    await until(() => connection.client, 'the first client');
    const first = connection.client!;

    post(page, { baton: 'core-lost', reason: 'The Baton core stopped (it exited with code 1). Restarting it.' });
    expect(seen.at(-1)).toEqual({ status: 'reconnecting', client: null });
    expect(useBaton.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'The Baton core stopped (it exited with code 1). Restarting it.',
    });
    await expect(first.call('run.list', {})).rejects.toThrow(/not connected/);

    handPort(page); // Main, once the core runs again.
    await until(() => seen.at(-1)?.status === 'connected', 'connected again');
    expect(connection.client).not.toBe(first);
    expect(await connection.client!.call('run.list', {})).toEqual([]);
  });
});

describe('menu actions and hand-offs', () => {
  it('runs the command each menu item sends, as its key or button would', async () => {
    // The page as main's menu reaches it: the listener desktopConnection registers on the bridge.
    let deliver: (message: MenuMessage) => void = () => undefined;
    const onMenuCommand = (listener: (message: MenuMessage) => void) => {
      deliver = listener;
      return () => undefined;
    };
    const page = new EventTarget();
    desktopConnection({ ...fakeBridge(page), onMenuCommand }, page as unknown as Window);
    const calls: string[] = [];
    const record = (name: string) => async (runId: string) => void calls.push(`${name} ${runId}`);
    const { snapshot, copyHandle, stopRun } = useBaton.getState();
    onTestFinished(() => useBaton.setState({ snapshot, copyHandle, stopRun, selectedRunId: null, runDetails: {} }));
    useBaton.setState({
      selectedRunId: RUN.id,
      runDetails: { [RUN.id]: RUN },
      pending: null,
      snapshot: record('snapshot'),
      copyHandle: record('copyHandle'),
      stopRun: record('stopRun'),
    });
    // What each menu command does on the page: a dialog opens, or the store's action runs on the selected run.
    const expected: Partial<Record<CommandId, { dialog: unknown; call?: string }>> = {
      'run.new': { dialog: { kind: 'new-run' } },
      'resume.open': { dialog: { kind: 'resume' } },
      'search.open': { dialog: { kind: 'search' } },
      'help.open': { dialog: { kind: 'help' } },
      'run.snapshot': { dialog: null, call: `snapshot ${RUN.id}` },
      'handle.copy': { dialog: null, call: `copyHandle ${RUN.id}` },
      'run.stop': { dialog: null, call: `stopRun ${RUN.id}` },
    };
    const sent: CommandId[] = [];
    const all = (t: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
      t.flatMap((m) => [m, ...(Array.isArray(m.submenu) ? all(m.submenu) : [])]);
    for (const item of all(menuTemplate({ platform: 'linux', devTools: false, send: (command) => sent.push(command) })))
      (item.click as (() => void) | undefined)?.();
    expect(sent.sort()).toEqual(Object.keys(expected).sort());
    for (const command of sent) {
      useBaton.setState({ dialog: null });
      calls.length = 0;
      deliver({ command });
      await new Promise((r) => setTimeout(r, 0)); // A command with progress settles its `pending` state.
      expect({ dialog: useBaton.getState().dialog, ...(calls[0] ? { call: calls[0] } : {}) }, command).toEqual(
        expected[command],
      );
    }
  });

  it('runs nothing for a menu message that is not exactly a known command id', () => {
    for (const bad of [
      'run.new',
      { command: 'run.delete' },
      { command: 'run.new', extra: 1 },
      { command: ['run.new'] },
      null,
    ]) {
      expect(parseMenuMessage(bad), JSON.stringify(bad)).toBeNull();
      runMenuCommand(bad as MenuMessage);
    }
    expect(useBaton.getState().dialog).toBeNull();
    expect(parseMenuMessage({ command: 'help.open' })).toEqual({ command: 'help.open' });
  });

  it('opens the Resume dialog with the handed-over handle, and resumes nothing', () => {
    openResume({ handle: 'baton1.abc' });
    expect(useBaton.getState().dialog).toEqual({ kind: 'resume', handle: 'baton1.abc' });
    openResume({ notice: 'Baton does not take a handle from the command line' });
    expect(useBaton.getState().dialog).toEqual({ kind: 'resume' });
    expect(useBaton.getState().toasts.at(-1)).toMatchObject({
      kind: 'warning',
      text: 'Baton does not take a handle from the command line',
    });
  });

  it('never replaces a half-filled dialog', () => {
    useBaton.setState({ dialog: { kind: 'new-run' } });
    openResume({ handle: 'baton1.abc' });
    expect(useBaton.getState().dialog).toEqual({ kind: 'new-run' });
    expect(useBaton.getState().toasts.at(-1)?.text).toMatch(/close the open dialog/);
  });
});
