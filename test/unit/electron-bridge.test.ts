// The renderer's half of the desktop bridge (renderer/api/electron-bridge.ts): the same RpcClient as web mode over
// the MessagePort the preload posts into the page, a new client for each port, the core's loss said to the user;
// the menu's actions pressed as the dashboard's own shortcuts; hand-offs opening the Resume dialog and no more.
// The page is an EventTarget, the ports are real MessagePorts, and the core behind them is the real one.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort as NodePort } from 'node:worker_threads';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BatonBridge, MenuAction } from '../../shared/bridge-contract.js';
import { openCoreHost, type CoreHost } from '../../electron/core/host.js';
import { ClientSession } from '../../electron/core/transport/client-session.js';
import { DesktopConnection, openResume, pressShortcut } from '../../renderer/api/electron-bridge.js';
import type { ConnectionStatus } from '../../renderer/api/connection.js';
import { shortcutFor } from '../../renderer/shortcuts.js';
import { useBaton } from '../../renderer/state/store.js';
import type { BatonClient } from '../../shared/client.js';
import { testEnv } from '../helpers/server.js';
import { until } from './electron-fake.js';

let root: string;
let core: CoreHost;
const ports: NodePort[] = [];

beforeAll(() => {
  // Node has no KeyboardEvent; this one carries its init the way the browser's does.
  (globalThis as { KeyboardEvent?: unknown }).KeyboardEvent ??= class extends Event {
    constructor(type: string, init: Record<string, unknown> = {}) {
      super(type, init);
      const { bubbles: _b, cancelable: _c, ...keys } = init;
      Object.assign(this, { key: '', code: '', altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, repeat: false, ...keys });
    }
  };
});

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
  const session = new ClientSession(core, { send: (m) => port1.postMessage(JSON.stringify(m)) });
  port1.on('message', (data: unknown) => typeof data === 'string' && void session.receive(data));
  port1.on('close', () => session.close());
  post(page, { baton: 'core-port' }, [port2]);
}

function post(page: EventTarget, data: unknown, transfer: NodePort[] = [], source: unknown = page): void {
  page.dispatchEvent(Object.assign(new Event('message'), { data, ports: transfer, source }));
}

function fakeBridge(page: EventTarget, onRequest: () => void = () => handPort(page)): BatonBridge & { requests: number } {
  const bridge = {
    requests: 0,
    requestPort: () => {
      bridge.requests++;
      onRequest();
    },
    writeClipboard: async () => undefined,
    pickDirectory: async () => null,
    appVersion: async () => '0.1.0',
    onMenuAction: () => () => undefined,
    onResumeHandoff: () => () => undefined,
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
    const connection = new DesktopConnection(fakeBridge(page, () => undefined), page as unknown as Window);
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
    expect(useBaton.getState().toasts.at(-1)).toMatchObject({ kind: 'error', text: 'The Baton core stopped (it exited with code 1). Restarting it.' });
    await expect(first.call('run.list', {})).rejects.toThrow(/not connected/);

    handPort(page); // Main, once the core runs again.
    await until(() => seen.at(-1)?.status === 'connected', 'connected again');
    expect(connection.client).not.toBe(first);
    expect(await connection.client!.call('run.list', {})).toEqual([]);
  });
});

describe('menu actions and hand-offs', () => {
  it('presses the shortcut the dashboard binds to each menu action', () => {
    const expected: Record<MenuAction, string> = {
      'new-run': 'New run',
      snapshot: 'Snapshot',
      'copy-handle': 'Copy handle',
      resume: 'Resume from handle',
      'stop-run': 'Stop run',
      shortcuts: 'Keyboard shortcuts',
    };
    const page = new EventTarget();
    const pressed: KeyboardEvent[] = [];
    page.addEventListener('keydown', (e) => pressed.push(e as KeyboardEvent));
    for (const [action, name] of Object.entries(expected)) {
      pressShortcut(action as MenuAction, page as unknown as Window);
      expect(shortcutFor(pressed.at(-1)!)?.action, action).toBe(name);
    }
  });

  it('opens the Resume dialog with the handed-over handle, and resumes nothing', () => {
    openResume({ handle: 'baton1.abc' });
    expect(useBaton.getState().dialog).toEqual({ kind: 'resume', handle: 'baton1.abc' });
    openResume({ notice: 'Baton does not take a handle from the command line' });
    expect(useBaton.getState().dialog).toEqual({ kind: 'resume' });
    expect(useBaton.getState().toasts.at(-1)).toMatchObject({ kind: 'warning', text: 'Baton does not take a handle from the command line' });
  });

  it('never replaces a half-filled dialog', () => {
    useBaton.setState({ dialog: { kind: 'new-run' } });
    openResume({ handle: 'baton1.abc' });
    expect(useBaton.getState().dialog).toEqual({ kind: 'new-run' });
    expect(useBaton.getState().toasts.at(-1)?.text).toMatch(/close the open dialog/);
  });
});
