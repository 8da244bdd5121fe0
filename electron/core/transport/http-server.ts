// The web transport: the renderer over HTTP and the contract over a WebSocket, both behind the token.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreHost } from '../host.js';
import { allowedHosts, checkRequest, TOKEN_COOKIE, tokensEqual } from './auth.js';
import { ClientSession } from './client-session.js';

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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 << 20 });
  let hosts = new Set<string>();

  const server = createServer((req, res) => {
    const refusal = checkRequest(req, options.token, hosts);
    if (refusal) return refuse(res, refusal.status, refusal.reason);
    void serveFile(req, res, options);
  });

  server.on('upgrade', (req, socket, head) => {
    const refusal = checkRequest(req, options.token, hosts);
    if (refusal || new URL(req.url ?? '/', 'http://x').pathname !== '/ws') {
      const status = refusal?.status ?? 404;
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      const session = new ClientSession(options.core, { send: (m) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m)) });
      ws.on('message', (data, isBinary) => {
        if (!isBinary) void session.receive(data.toString());
      });
      ws.on('close', () => {
        sockets.delete(ws);
        session.close();
      });
      ws.on('error', () => ws.terminate());
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  hosts = allowedHosts(options.host, port);
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostPart}:${port}`,
    port,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function refuse(res: ServerResponse, status: number, reason: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
  res.end(`${status === 401 ? 'Unauthorized' : 'Forbidden'}: ${reason}\n`);
}

async function serveFile(req: IncomingMessage, res: ServerResponse, options: WebServerOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const headers: Record<string, string> = { ...SECURITY_HEADERS };
  const queryToken = url.searchParams.get('token');
  if (queryToken && tokensEqual(queryToken, options.token)) {
    // The page's own requests (assets, the WebSocket) then carry the token without it staying in the URL.
    headers['Set-Cookie'] = `${TOKEN_COOKIE}=${encodeURIComponent(options.token)}; HttpOnly; SameSite=Strict; Path=/`;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, headers);
    return void res.end();
  }
  const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
  const path = normalize(join(options.staticDir, rel));
  if (!path.startsWith(options.staticDir + sep)) {
    res.writeHead(404, headers);
    return void res.end();
  }
  try {
    const body = await readFile(path);
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    if (rel === 'index.html') {
      res.writeHead(200, { ...headers, 'Content-Type': TYPES['.html']! });
      return void res.end(options.fallbackPage);
    }
    res.writeHead(404, headers);
    res.end();
  }
}
