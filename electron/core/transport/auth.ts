// Who may talk to the web transport: the token holder, through the bound address, from our own origin (design §8).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'baton_token';

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** Constant-time, whatever the lengths: both sides are hashed first. */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The Host values that name the bound address (anything else may be DNS rebinding). */
export function allowedHosts(host: string, port: number): Set<string> {
  const hosts = new Set([`${host.includes(':') ? `[${host}]` : host}:${port}`]);
  if (host === '127.0.0.1' || host === '::1') hosts.add(`localhost:${port}`);
  return hosts;
}

export type Refusal = { status: 401 | 403; reason: string };

export function checkRequest(req: IncomingMessage, expectedToken: string, hosts: Set<string>): Refusal | null {
  const host = req.headers.host;
  if (!host || !hosts.has(host.toLowerCase())) return { status: 403, reason: 'Host is not the address Baton is bound to' };
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.has(originHost(origin))) return { status: 403, reason: 'foreign Origin' };
  const token = tokenOf(req);
  if (token === null) return { status: 401, reason: 'missing token' };
  if (!tokensEqual(token, expectedToken)) return { status: 401, reason: 'wrong token' };
  return null;
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host.toLowerCase() : '';
  } catch {
    return '';
  }
}

/** The token from the query (`?token=`), an `Authorization: Bearer` header, or the session cookie. */
export function tokenOf(req: IncomingMessage): string | null {
  const url = new URL(req.url ?? '/', 'http://x');
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return decodeURIComponent(v.join('='));
  }
  return null;
}
