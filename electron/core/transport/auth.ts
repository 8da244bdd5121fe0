// The token: made strong, refused when weak, and read from a WebSocket upgrade (a header or a subprotocol).
// Only the WebSocket carries the API, so only the upgrade needs the token; the static dashboard holds no secret.
// There is no cookie: a cookie for 127.0.0.1 goes to every local server the browser visits, whatever its port.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WS_TOKEN_PREFIX } from '../../../shared/client.js';

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** Constant-time, whatever the lengths: both sides are hashed first. */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const MIN_LENGTH = 22;
// A random 32-digit hex token (128 bits) shows 10 or more of its 16 digits but for 1 in 10,000: repetitive tokens fail.
const MIN_DISTINCT = 10;
const MIN_BITS = 128;
const CLASSES: readonly [RegExp, number][] = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[^a-zA-Z0-9]/, 32],
];

export const TOKEN_RULE =
  `BATON_TOKEN must be at least ${MIN_LENGTH} printable ASCII characters without spaces, with at least ${MIN_DISTINCT} different ` +
  `characters and an estimated ${MIN_BITS} bits (length × log2 of its alphabet: 26 per letter case, 10 for digits, 33 for ` +
  'other symbols, counting the kinds it uses); `openssl rand -base64 32` makes one';

/**
 * Why a chosen token is too weak to guard every agent, or null. The estimate is rough on purpose: it refuses short,
 * repetitive or single-kind tokens, and accepts what a random generator makes. Printable ASCII only, because the
 * token travels in an HTTP header (`Authorization: Bearer`).
 */
export function weakTokenReason(token: string): string | null {
  if (!/^[\x21-\x7e]*$/.test(token)) return TOKEN_RULE;
  const pool = CLASSES.reduce((sum, [kind, size]) => sum + (kind.test(token) ? size : 0), 0);
  const bits = pool > 0 ? token.length * Math.log2(pool) : 0;
  const distinct = new Set(token).size;
  if (token.length < MIN_LENGTH || distinct < MIN_DISTINCT || bits < MIN_BITS) return TOKEN_RULE;
  return null;
}

export type Refusal = { status: 400 | 401 | 403 | 404; reason: string };

/** The upgrade's token: `Authorization: Bearer` (the CLI, scripts) or the `baton.token.` subprotocol (a browser page). */
export function upgradeToken(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  for (const offered of (req.headers['sec-websocket-protocol'] ?? '').split(',')) {
    const name = offered.trim();
    if (!name.startsWith(WS_TOKEN_PREFIX)) continue;
    const encoded = name.slice(WS_TOKEN_PREFIX.length);
    // Anything but base64url cannot be a token this page encoded; it counts as a wrong token, never an error.
    return /^[A-Za-z0-9_-]+$/.test(encoded) ? Buffer.from(encoded, 'base64url').toString('utf8') : '';
  }
  return null;
}

export function checkToken(req: IncomingMessage, expected: string): Refusal | null {
  const token = upgradeToken(req);
  if (token === null) return { status: 401, reason: 'missing token' };
  if (!tokensEqual(token, expected)) return { status: 401, reason: 'wrong token' };
  return null;
}
