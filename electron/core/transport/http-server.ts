// The web transport: the dashboard's files over HTTP and the contract over a WebSocket (the only part behind the
// token). Every request and upgrade is answered, however malformed: a bad one gets a 4xx with a short reason, a
// failure inside one gets a 500 and one scrubbed line on stderr, and the server, with every agent, keeps running.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CoreHost } from '../host.js';
import { allowedHosts, checkAddress } from './address.js';
import { checkToken, type Refusal } from './auth.js';
import { forgetSecret, keepSecret, reportFailure } from '../log.js';
import { replyRaw, replyText, requestPath } from './replies.js';
import { serveFile } from './static-files.js';
import { SocketEndpoint } from './ws-endpoint.js';

export interface WebServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface WebServerOptions {
  core: CoreHost;
  host: string;
  port: number;
  token: string;
  /** The built renderer; a fallback page is served when it has not been built. */
  staticDir: string;
  fallbackPage: string;
}

const SOCKET_PATH = '/ws';

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const endpoint = new SocketEndpoint(options.core);
  const files = { dir: options.staticDir, fallbackPage: options.fallbackPage };
  let hosts = new Set<string>();
  keepSecret(options.token);

  /** The checks every request passes, files and upgrades alike: a path, and our own Host and Origin. */
  const admit = (req: IncomingMessage): { path: string } | Refusal => {
    const target = requestPath(req.url);
    if (!target.ok) return { status: 400, reason: target.reason };
    return checkAddress(req, hosts) ?? { path: target.path };
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const admitted = admit(req);
    if ('status' in admitted) return replyText(res, admitted.status, admitted.reason);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return replyText(res, 405, 'only GET and HEAD are served', { Allow: 'GET, HEAD' });
    if (admitted.path === SOCKET_PATH)
      return replyText(res, 426, 'this is the WebSocket endpoint', { Upgrade: 'websocket' });
    await serveFile(res, admitted.path, req.method === 'HEAD', files);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const admitted = admit(req);
    if ('status' in admitted) return replyRaw(socket, admitted.status, admitted.reason);
    if (admitted.path !== SOCKET_PATH) return replyRaw(socket, 404, `only ${SOCKET_PATH} is a WebSocket`);
    const refusal = checkToken(req, options.token);
    if (refusal) return replyRaw(socket, refusal.status, refusal.reason);
    endpoint.accept(req, socket, head);
  };

  const server = createServer((req, res) => {
    const failed = (err: unknown) => {
      reportFailure(`HTTP ${String(req.method).slice(0, 16)}`, err);
      try {
        replyText(res, 500, 'internal error in Baton (see its log)');
      } catch {
        res.destroy();
      }
    };
    try {
      onRequest(req, res).catch(failed);
    } catch (err) {
      failed(err);
    }
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgrading socket without an 'error' listener: a peer reset would otherwise be uncaught.
    socket.on('error', () => socket.destroy());
    try {
      onUpgrade(req, socket, head);
    } catch (err) {
      reportFailure('a WebSocket upgrade', err);
      replyRaw(socket, 500, 'internal error in Baton (see its log)');
    }
  });

  // What Node's parser cannot read (bad request line, header syntax, oversized headers) is answered here, the way
  // Node would by default, plus a reason; nothing is written once a response has started on that connection.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    if (err.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    replyRaw(socket, status, `malformed HTTP request${err.code ? ` (${err.code})` : ''}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // A listening server's later errors (none are expected) are logged rather than ending the process.
  server.on('error', (err) => reportFailure('the HTTP server', err));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  hosts = allowedHosts(options.host, port);
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostPart}:${port}`,
    port,
    close: async () => {
      // Replies already queued (to `core.shutdown`, say) go out before the sockets close.
      await endpoint.closeGracefully();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      forgetSecret(options.token);
    },
  };
}
