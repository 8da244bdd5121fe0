// The renderer's one way to the core: a BatonClient over the page's WebSocket, reconnecting when it drops.
// Components never touch the transport: main.tsx hands each new client and status to the store, which owns it.
import { RpcClient, tokenProtocols, WS_PROTOCOL, type BatonClient, type Wire } from '../../shared/client.js';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting';

type Listener = (status: ConnectionStatus, client: BatonClient | null) => void;

const RETRY_MS = [250, 500, 1000, 2000, 4000];

/** Text messages are JSON; binary ones are frames, read as ArrayBuffers (no Blob, no copy to a string). */
function browserWire(ws: WebSocket): Wire {
  ws.binaryType = 'arraybuffer';
  return {
    send: (data) => ws.send(data),
    onMessage: (listener) =>
      ws.addEventListener('message', (e: MessageEvent<string | ArrayBuffer>) =>
        listener(typeof e.data === 'string' ? e.data : new Uint8Array(e.data)),
      ),
    onClose: (listener) => ws.addEventListener('close', (e) => listener(`closed (${e.code})`)),
    close: () => ws.close(),
  };
}

export class Connection {
  private current: BatonClient | null = null;
  private status: ConnectionStatus = 'connecting';
  private readonly listeners = new Set<Listener>();
  private attempt = 0;

  /** `protocols` is read at every (re)connect: a token given later (a new `#token=` link) is used by the next one. */
  constructor(
    private readonly url: string,
    private readonly protocols: () => string[] = pageProtocols,
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
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url, this.protocols());
    } catch {
      return this.lost(); // a malformed address or protocol: retried like any failed connect
    }
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      this.attempt = 0;
      const client = new RpcClient(browserWire(ws));
      client.onClose(() => this.lost());
      this.current = client;
      this.set('connected');
    });
    ws.addEventListener('close', () => {
      // After an open, the client's own close listener reports the loss.
      if (!opened) this.lost();
    });
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

/**
 * The WebSocket address of the server that served this page. Also takes the token from the address: the printed link
 * carries it in the fragment (`#token=…`), which no request sends, so the token reaches only this page's memory and,
 * through the socket's subprotocols, only this server.
 */
export function serverSocketUrl(): string {
  takeToken();
  window.addEventListener('hashchange', takeToken);
  const url = new URL(window.location.href);
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}/ws`;
}

// The token is kept in this tab's sessionStorage so that a reload, whose address no longer has the fragment,
// connects again. sessionStorage is per tab and per origin (the port included, unlike a cookie, which 127.0.0.1
// shares with every local server), is never sent over the network, and is gone when the tab closes. Only this
// page's own scripts run on this origin (the CSP allows no other), so nothing else can read it.
const TOKEN_KEY = 'baton.token';
let pageToken: string | null = null;

function pageProtocols(): string[] {
  return pageToken === null ? [WS_PROTOCOL] : tokenProtocols(pageToken);
}

function takeToken(): void {
  const fromAddress = tokenFromFragment();
  if (fromAddress !== null) {
    pageToken = fromAddress;
    try {
      window.sessionStorage.setItem(TOKEN_KEY, fromAddress);
    } catch {
      // Storage disabled: the token still works until the page is reloaded.
    }
    return;
  }
  if (pageToken !== null) return;
  try {
    pageToken = window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    pageToken = null;
  }
}

/** `token=` of the fragment, removed from the address bar and history at once; other fragment parts stay. */
function tokenFromFragment(): string | null {
  const parts = window.location.hash.replace(/^#/, '').split('&');
  const index = parts.findIndex((part) => part.startsWith('token='));
  if (index < 0) return null;
  let token: string | null;
  try {
    token = decodeURIComponent(parts[index]!.slice('token='.length));
  } catch {
    token = null;
  }
  parts.splice(index, 1);
  const url = new URL(window.location.href);
  url.hash = parts.filter((part) => part !== '').join('&');
  window.history.replaceState(window.history.state, '', url.toString());
  return token || null;
}
