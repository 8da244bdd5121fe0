// The renderer's one way to the core: a BatonClient over the page's WebSocket, reconnecting when it drops.
// Components never touch the transport; they use `connection.client` and the status it reports.
import { RpcClient, type BatonClient, type Wire } from '../../shared/client.js';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting';

type Listener = (status: ConnectionStatus, client: BatonClient | null) => void;

const RETRY_MS = [250, 500, 1000, 2000, 4000];

function browserWire(ws: WebSocket): Wire {
  return {
    send: (text) => ws.send(text),
    onMessage: (listener) => ws.addEventListener('message', (e) => listener(String(e.data))),
    onClose: (listener) => ws.addEventListener('close', (e) => listener(`closed (${e.code})`)),
    close: () => ws.close(),
  };
}

export class Connection {
  private current: BatonClient | null = null;
  private status: ConnectionStatus = 'connecting';
  private readonly listeners = new Set<Listener>();
  private attempt = 0;

  constructor(private readonly url: string) {}

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
    const ws = new WebSocket(this.url);
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

/** The WebSocket address of the server that served this page; the token travels as the page's cookie. */
export function serverSocketUrl(): string {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token) {
    // Keep the token out of the address bar and history; the server set a cookie with it.
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.toString());
  }
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}/ws`;
}
