// The background core's transport (docs/architecture.md §2, §10): the same WebSocket protocol as web mode, on a Unix
// socket (a named pipe on Windows) instead of a TCP port. No static files, no page: only the upgrade at /ws, with the
// token. The socket is mode 0600 in the 0700 data directory, so the operating system already keeps other users out;
// the token and the refusal of any browser (an Origin header) are a second lock.
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CoreHost } from '../host.js';
import { checkToken } from './auth.js';
import { forgetSecret, keepSecret, reportFailure } from '../log.js';
import { replyRaw, replyText, requestPath } from './replies.js';
import { claimSocketPath, isPipePath } from './socket-path.js';
import { SocketEndpoint } from './ws-endpoint.js';

export interface SocketServer {
  readonly socketPath: string;
  /** Closes every connection (letting replies in flight go out first) and removes the socket file. */
  close(): Promise<void>;
}

const SOCKET_PATH = '/ws';

export async function startSocketServer(options: {
  core: CoreHost;
  socketPath: string;
  token: string;
}): Promise<SocketServer> {
  const { socketPath, token } = options;
  await claimSocketPath(socketPath);
  const endpoint = new SocketEndpoint(options.core);
  keepSecret(token);

  const server = createServer((req, res) => {
    try {
      replyText(res, 404, `the Baton core serves only its WebSocket at ${SOCKET_PATH}`);
    } catch (err) {
      reportFailure('a request on the core socket', err);
      res.destroy();
    }
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const target = requestPath(req.url);
      if (!target.ok) return replyRaw(socket, 400, target.reason);
      if (target.path !== SOCKET_PATH) return replyRaw(socket, 404, `only ${SOCKET_PATH} is a WebSocket`);
      // No page ever talks to the core's socket (a browser cannot open one); anything sending an Origin is refused.
      if (req.headers.origin !== undefined) return replyRaw(socket, 403, 'no browser origin may use the core socket');
      const refusal = checkToken(req, token);
      if (refusal) return replyRaw(socket, refusal.status, refusal.reason);
      endpoint.accept(req, socket, head);
    } catch (err) {
      reportFailure('a WebSocket upgrade on the core socket', err);
      replyRaw(socket, 500, 'internal error in Baton (see its log)');
    }
  });
  server.on('clientError', (_err, socket: Duplex) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  server.on('error', (err) => reportFailure('the core socket', err));
  // The directory is 0700 already; the socket itself is made the owner's alone as well.
  if (!isPipePath(socketPath)) chmodSync(socketPath, 0o600);

  return {
    socketPath,
    close: async () => {
      await endpoint.closeGracefully();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // server.close removes the socket file; a core ended by a signal between the two steps leaves it, and the next
      // core removes it once nothing answers there.
      if (!isPipePath(socketPath)) rmSync(socketPath, { force: true });
      forgetSecret(token);
    },
  };
}
