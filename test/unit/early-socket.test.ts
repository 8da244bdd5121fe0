// The page's early socket (renderer/api/early-socket.ts): opened by the page's first module, it asks for the newest
// runs as soon as it is open, and the dashboard's Connection takes it over later with what came meanwhile: the early
// list's reply is read and checked by the client as any reply is; a socket still opening is used as is; one that
// closed before the takeover is retried like any failed connect. The page's WebSocket and window are fakes here.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  binaryType = 'blob';
  readonly sent: unknown[] = [];
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    super();
    FakeSocket.made.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closed(1000);
  }
  opened(): void {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  closed(code: number): void {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(Object.assign(new Event('close'), { code }));
  }
  reply(message: object): void {
    this.dispatchEvent(Object.assign(new Event('message'), { data: JSON.stringify(message) }));
  }
}

/** The page's modules, loaded afresh on a page at `href` (the early socket opens when its module is first run). */
async function loadPage(href = 'http://127.0.0.1:4321/#token=secret') {
  FakeSocket.made = [];
  const storage = new Map<string, string>();
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('window', {
    location: new URL(href),
    history: { state: null, replaceState: () => undefined },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
    },
    addEventListener: () => undefined,
  });
  vi.resetModules();
  const early = await import('../../renderer/api/early-socket.js');
  const connection = await import('../../renderer/api/connection.js');
  const { pageProtocols } = await import('../../renderer/api/page-token.js');
  const { FIRST_SCREEN } = await import('../../renderer/state/first-screen.js');
  return { early: early.earlySocket!, ...connection, pageProtocols, FIRST_SCREEN };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the early socket', () => {
  it('asks for the newest runs once open; the client that takes it over reads that reply as its first list', async () => {
    const page = await loadPage();
    const socket = FakeSocket.made[0]!;
    expect(socket.url).toBe('ws://127.0.0.1:4321/ws');
    expect(socket.protocols).toEqual(page.pageProtocols());
    socket.opened();
    expect(socket.sent).toEqual([
      { t: 'req', id: 0, method: 'run.list', params: { limit: page.FIRST_SCREEN, states: false } },
    ]);
    // The reply comes before the dashboard has loaded: kept for it.
    socket.reply({ t: 'res', id: 0, ok: true, result: [] });

    const connection = new page.Connection(page.early.url, page.pageProtocols, page.early);
    const seen: string[] = [];
    connection.subscribe((status) => seen.push(status));
    connection.start();
    expect(seen).toEqual(['connecting', 'connected']);
    const client = connection.client!;
    await expect(page.takeEarlyFirstList(client)).resolves.toEqual([]);
    expect(page.takeEarlyFirstList(client)).toBeUndefined(); // once
    expect(FakeSocket.made).toHaveLength(1);

    // The client's own requests number from 1 and are answered on the same socket.
    const info = client.call('run.list', { limit: 5 });
    expect(socket.sent.at(-1)).toMatchObject({ t: 'req', id: 1, method: 'run.list' });
    socket.reply({ t: 'res', id: 1, ok: true, result: [] });
    await expect(info).resolves.toEqual([]);
  });

  it('an event that came before the takeover reaches the listeners the page sets up once connected', async () => {
    const page = await loadPage();
    const socket = FakeSocket.made[0]!;
    socket.opened();
    socket.reply({ t: 'res', id: 0, ok: true, result: [] });
    // A run started while the page's script was still loading.
    socket.reply({ t: 'evt', name: 'run.changed', payload: { runId: 'run_0123456789abcdef' } });
    const connection = new page.Connection(page.early.url, page.pageProtocols, page.early);
    const changed: string[] = [];
    connection.subscribe((status, client) => {
      if (status === 'connected') client!.on('run.changed', (e) => changed.push(e.runId));
    });
    connection.start();
    expect(changed).toEqual(['run_0123456789abcdef']);
    await expect(page.takeEarlyFirstList(connection.client!)).resolves.toEqual([]);
  });

  it('a malformed early reply is refused as any reply is', async () => {
    const page = await loadPage();
    const socket = FakeSocket.made[0]!;
    socket.opened();
    const connection = new page.Connection(page.early.url, page.pageProtocols, page.early);
    connection.start();
    socket.reply({ t: 'res', id: 0, ok: true, result: [{ id: 42 }] });
    await expect(page.takeEarlyFirstList(connection.client!)).rejects.toThrow(/malformed reply to run.list/);
  });

  it('a socket still opening at the takeover is used as is, and the page asks for its list itself', async () => {
    const page = await loadPage();
    const socket = FakeSocket.made[0]!;
    const connection = new page.Connection(page.early.url, page.pageProtocols, page.early);
    const seen: string[] = [];
    connection.subscribe((status) => seen.push(status));
    connection.start();
    expect(seen).toEqual(['connecting']);
    socket.opened();
    expect(seen).toEqual(['connecting', 'connected']);
    expect(socket.sent).toEqual([]); // no early request: the store's first list asks as it always did
    expect(page.takeEarlyFirstList(connection.client!)).toBeUndefined();
    expect(FakeSocket.made).toHaveLength(1);
  });

  it('a socket that closed before the takeover is retried like any failed connect', async () => {
    const page = await loadPage();
    FakeSocket.made[0]!.closed(1006);
    const connection = new page.Connection(page.early.url, page.pageProtocols, page.early);
    const seen: string[] = [];
    connection.subscribe((status) => seen.push(status));
    connection.start();
    expect(seen).toEqual(['connecting', 'reconnecting']);
    await vi.advanceTimersByTimeAsync(300);
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.opened();
    expect(seen.at(-1)).toBe('connected');
    expect(FakeSocket.made[1]!.sent).toEqual([]);
  });

  it('the desktop app opens no socket', async () => {
    FakeSocket.made = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('window', { baton: {} });
    vi.resetModules();
    const { earlySocket } = await import('../../renderer/api/early-socket.js');
    expect(earlySocket).toBeNull();
    expect(FakeSocket.made).toEqual([]);
  });
});
