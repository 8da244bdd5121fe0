// Short plain-text answers to HTTP requests, on a response or on a raw socket (upgrades, unparsable requests),
// and the one way a request target becomes a path: anything malformed is a reason to answer 400, never a throw.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const statusLine = (status: number) => `${status} ${STATUS_CODES[status] ?? 'Error'}`;

export function replyText(
  res: ServerResponse,
  status: number,
  reason: string,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, ...extra });
  res.end(`${statusLine(status)}: ${reason}\n`);
}

/** The same answer written by hand, where there is only a socket; the connection is closed after it. */
export function replyRaw(socket: Duplex, status: number, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = `${statusLine(status)}: ${reason}\n`;
  socket.end(
    `HTTP/1.1 ${statusLine(status)}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export type Target = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The decoded path of a request. Only origin-form targets (`/path?query`) are served: Baton is no proxy, and an
 * absolute or asterisk form names nothing here. The query is ignored (nothing reads it).
 */
export function requestPath(raw: string | undefined): Target {
  if (!raw?.startsWith('/')) return { ok: false, reason: 'the request target must be a path starting with /' };
  let pathname: string;
  try {
    // Prefixing the origin keeps a target such as `//host/x` a path instead of a reference to another host.
    pathname = new URL(`http://baton${raw}`).pathname;
  } catch {
    return { ok: false, reason: 'the request target is not a valid path' };
  }
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return { ok: false, reason: 'the path has malformed percent-encoding' };
  }
  if (path.includes('\0')) return { ok: false, reason: 'the path contains a NUL character' };
  return { ok: true, path };
}
