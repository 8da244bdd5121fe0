// The WebSocket at /ws: one ClientSession per socket. Text messages are JSON control messages; binary messages are
// frames (shared/contract/frames.ts): terminal output out, keystrokes in. What the protocol has no answer for (a
// malformed binary frame, text that is neither a request nor an ack, a message over the size limit) closes that
// socket with a code saying why; every request is answered by the session; nothing a peer sends reaches the process
// as an exception.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { WS_PROTOCOL } from '../../../shared/client.js';
import type { CoreHost } from '../host.js';
import { ClientSession } from './client-session.js';
import { reportFailure } from '../log.js';
import { settleWithin } from '../settle-within.js';

const MAX_MESSAGE_BYTES = 4 << 20;
/** A client that stops reading (a frozen tab, a stuck script) is cut off before its backlog eats the core's memory. */
const MAX_BACKLOG_BYTES = 64 << 20;

/** Close code of RFC 6455 §7.4.1: the message broke the protocol's rules. */
const INVALID_PAYLOAD = 1007;

export class SocketEndpoint {
  private readonly sockets = new Set<WebSocket>();
  // A page offers `baton.v1` next to its token; selecting `baton.v1` keeps the token out of the response.
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });

  constructor(private readonly core: CoreHost) {}

  /** An authorized upgrade; ws answers a malformed handshake (key, version, protocols) with a 400 itself. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws));
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
  }

  /**
   * Closes every socket with a close frame, after what is queued (a reply to `core.shutdown`), and waits for them up
   * to `graceMs`; whatever is still open then is cut.
   */
  async closeGracefully(graceMs = 1000): Promise<void> {
    const open = [...this.sockets];
    const closed = Promise.all(
      open.map(
        (ws) =>
          new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve()))),
      ),
    );
    for (const ws of open) ws.close(1001, 'the Baton core is stopping');
    await settleWithin(closed, graceMs);
    this.close();
  }

  private open(ws: WebSocket): void {
    this.sockets.add(ws);
    const session = new ClientSession(this.core, {
      send: (message) => {
        if (ws.readyState !== ws.OPEN) return;
        if (ws.bufferedAmount > MAX_BACKLOG_BYTES) return void ws.terminate();
        ws.send(JSON.stringify(message));
      },
      sendFrame: (frame) => {
        if (ws.readyState !== ws.OPEN) return;
        if (ws.bufferedAmount > MAX_BACKLOG_BYTES) return void ws.terminate();
        ws.send(frame, { binary: true });
      },
      protocolError: (reason) => {
        session.close(); // nothing after the offending message is read
        ws.close(INVALID_PAYLOAD, reason);
      },
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return session.receiveFrame(bytes(data));
      // receive answers or reports every failure itself; the catch is the last line before an unhandled rejection.
      session.receive(text(data)).catch((err: unknown) => reportFailure('a client message', err));
    });
    ws.on('close', () => {
      this.sockets.delete(ws);
      session.close();
    });
    // ws closes the socket after any error (with the protocol's close code when the peer broke a rule); this
    // listener only keeps the 'error' event from becoming an uncaught exception.
    ws.on('error', () => undefined);
  }
}

function bytes(data: RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return new Uint8Array(data);
}

function text(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
