// A WebSocket to a running core, whichever way it listens: a web-mode `baton serve` (its http:// address) or a
// background core (its Unix socket or named pipe). The token goes in the Authorization header. Used by the command
// line, by Electron main (to probe and watch the core) and by the relay that carries each window's port.
import { connect as netConnect } from 'node:net';
import WebSocket from 'ws';
import type { Wire } from '../../../shared/client.js';
import type { CoreAddress } from '../store/server-info.js';
import { checkCoreSocket } from './socket-path.js';

/** The same bound as the core's: a frame larger than this is not one the core sends. */
const MAX_MESSAGE_BYTES = 64 << 20;

/**
 * Opens (does not wait for) the socket. For a Unix socket the path is checked first (the user's own, mode 0600, not a
 * link) and connected to directly: a `ws+unix:` URL would mangle a path with spaces or colons (macOS's
 * "Application Support").
 */
export function openCoreSocket(address: CoreAddress): WebSocket {
  const headers = { Authorization: `Bearer ${address.token}` };
  if ('url' in address) {
    const base = new URL(address.url);
    const url = `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}${base.pathname.replace(/\/$/, '')}/ws`;
    return new WebSocket(url, { headers, maxPayload: MAX_MESSAGE_BYTES });
  }
  checkCoreSocket(address.socket);
  const path = address.socket;
  return new WebSocket('ws://localhost/ws', {
    headers,
    maxPayload: MAX_MESSAGE_BYTES,
    createConnection: () => netConnect({ path }),
  });
}

/** Resolves once the socket is open; rejects with the core's refusal or the connection error, token scrubbed. */
export function whenOpen(ws: WebSocket, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      const why = res.statusCode === 401 || res.statusCode === 403 ? 'refused the token' : 'refused the connection';
      reject(new CoreRefusal(`${why} (HTTP ${res.statusCode})`, res.statusCode ?? 0));
      ws.terminate();
    });
    ws.once('error', (err) => reject(new Error(err.message.replaceAll(token, '…'))));
  });
}

export class CoreRefusal extends Error {
  override readonly name = 'CoreRefusal';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The contract's Wire over a ws WebSocket: text messages are JSON, binary ones frames (shared/contract/frames.ts). */
export function wsWire(ws: WebSocket): Wire {
  return {
    send: (data) => ws.send(data, { binary: typeof data !== 'string' }),
    onMessage: (listener) =>
      ws.on('message', (data, isBinary) => {
        if (!isBinary) return listener(data.toString());
        listener(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : new Uint8Array(data));
      }),
    onClose: (listener) => ws.on('close', (code) => listener(`connection closed (${code})`)),
    close: () => ws.close(),
  };
}
