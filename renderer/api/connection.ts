// The renderer's one way to the core: a BatonClient over the page's WebSocket, reconnecting when it drops.
// Components never touch the transport: main.tsx hands each new client and status to the store, which owns it.
import { RpcClient, type BatonClient, type Wire } from '../../shared/client.js';
import type { Result } from '../../shared/contract.js';
import { EARLY_LIST_ID, type EarlySocket } from './early-socket.js';
import { pageProtocols } from './page-token.js';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting';

type Listener = (status: ConnectionStatus, client: BatonClient | null) => void;

const RETRY_MS = [250, 500, 1000, 2000, 4000];

type Received = string | ArrayBuffer;
const read = (data: Received) => (typeof data === 'string' ? data : new Uint8Array(data));

/**
 * Text messages are JSON; binary ones are frames, read as ArrayBuffers (no Blob, no copy to a string). `replay` hands
 * the listeners messages that came before they were there (an early socket's), ahead of any that come later.
 */
function browserWire(ws: WebSocket): Wire & { replay(messages: readonly Received[]): void } {
  ws.binaryType = 'arraybuffer';
  const listeners: ((data: string | Uint8Array) => void)[] = [];
  return {
    send: (data) => ws.send(data),
    onMessage: (listener) => {
      listeners.push(listener);
      ws.addEventListener('message', (e: MessageEvent<Received>) => listener(read(e.data)));
    },
    onClose: (listener) => ws.addEventListener('close', (e) => listener(`closed (${e.code})`)),
    close: () => ws.close(),
    replay: (messages) => messages.forEach((data) => listeners.forEach((listener) => listener(read(data)))),
  };
}

/** The first list an early socket asked for, by the client that took the socket over; taken once. */
const earlyLists = new WeakMap<BatonClient, Promise<Result<'run.list'>>>();

/** The reply to the first list the page asked for before its script had loaded, if this client has one not taken. */
export function takeEarlyFirstList(client: BatonClient): Promise<Result<'run.list'>> | undefined {
  const list = earlyLists.get(client);
  earlyLists.delete(client);
  return list;
}

export class Connection {
  private current: BatonClient | null = null;
  private status: ConnectionStatus = 'connecting';
  private readonly listeners = new Set<Listener>();
  private attempt = 0;

  /**
   * `protocols` is read at every (re)connect: a token given later (a new `#token=` link) is used by the next one.
   * `first`: a socket the page opened before its script had loaded (early-socket.ts), to `url`, used by the first
   * connect with whatever it received meanwhile. Reconnects open their own.
   */
  constructor(
    private readonly url: string,
    private readonly protocols: () => string[] = pageProtocols,
    private first: EarlySocket | undefined = undefined,
  ) {}

  get client(): BatonClient | null {
    return this.current;
  }

  /** Called now and on every change; a new client after a reconnect means panes must reattach. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.status, this.current);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    const first = this.first;
    this.first = undefined;
    let ws: WebSocket;
    try {
      ws = first?.socket ?? new WebSocket(this.url, this.protocols());
    } catch {
      return this.lost(); // a malformed address or protocol: retried like any failed connect
    }
    const before = first?.socket ? first.adopt() : { opened: false, listAsked: false, received: [] };
    // An early socket that closed before it was taken over has had its close event: retried as any failed connect.
    if (ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED) return this.lost();
    let opened = false;
    const onOpen = () => {
      opened = true;
      this.attempt = 0;
      const wire = browserWire(ws);
      const client = new RpcClient(wire);
      if (before.listAsked) {
        const list = client.expectReply(EARLY_LIST_ID, 'run.list');
        list.catch(() => undefined); // a connection lost before the list is taken: its taker (if any) sees why
        earlyLists.set(client, list);
      }
      client.onClose(() => this.lost());
      this.current = client;
      this.set('connected');
      // Replayed once the page's listeners have the client: an event that came before the takeover (a run started
      // while the page's script was loading) would otherwise reach no listener, and the history never show that run.
      wire.replay(before.received);
    };
    ws.addEventListener('close', () => {
      // After an open, the client's own close listener reports the loss.
      if (!opened) this.lost();
    });
    if (before.opened) onOpen();
    else ws.addEventListener('open', onOpen);
  }

  private lost(): void {
    this.current = null;
    this.set('reconnecting');
    const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)]!;
    setTimeout(() => this.start(), delay);
  }

  private set(status: ConnectionStatus): void {
    this.status = status;
    for (const l of this.listeners) l(status, this.current);
  }
}
