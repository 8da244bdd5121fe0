// Ids: the UUID shapes vendor CLIs use (docs/vendors.md §0), the ids Baton mints, and how an id is shown in a message.
import { randomBytes, randomUUID } from 'node:crypto';

/** A lowercase UUID, as text inside a larger pattern (a file name, a line of output). */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * A whole lowercase UUID: the session ids of Claude, Codex, Copilot, Qwen and Cursor (docs/vendors.md §0). It never starts
 * with "-", so it cannot be read as a flag, and it holds no "/" or "..", so it is safe in a path.
 */
export const LOWER_UUID = new RegExp(`^${UUID_SOURCE}$`);

/** A new session id for a vendor whose id Baton chooses: a UUIDv4 (docs/vendors.md §10). */
export function newSessionId(): string {
  return randomUUID();
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 36 a byte can hold: bytes at or above it are drawn again, so every character is as likely. */
const UNBIASED_BELOW = 252;

/** `length` lowercase base-36 characters from the CSPRNG, unbiased. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < UNBIASED_BELOW && out.length < length) out += BASE36[b % 36];
    }
  }
  return out;
}

/** The first 8 characters of an id: enough to tell sessions apart in a message, never the whole secret. */
export function shortId(id: string): string {
  return `${id.slice(0, 8)}…`;
}
