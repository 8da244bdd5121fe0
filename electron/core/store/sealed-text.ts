// The text of a file Baton writes for itself and reads back as a cache (the summary index, the runs' saved health and
// cost sums): a first line `{"v":<format>,"sha256":"<hex>"}` over the body that follows it. A body whose checksum
// matches is exactly what this format's writer wrote, from values it had produced or validated: it is not validated
// again field by field (zod's parse of 10,000 entries was a third of a cold start's core time; docs/performance.md
// "Cold start: the core's share"). Damage (a sync tool, a failing disk, a hand edit) fails the checksum and the file
// is ignored, as a damaged cache always was. A format's number changes with the shape of what it holds
// (test/unit/sealed-formats.test.ts fails when a schema changes under a format).
import { createHash } from 'node:crypto';

export type Unsealed = { ok: true; body: string } | { ok: false; reason: string; otherFormat: boolean };

/** `body` under its header line. */
export function seal(format: number, body: string): string {
  return `${JSON.stringify({ v: format, sha256: digest(body) })}\n${body}`;
}

/** The body of `text` if it is sealed in `format` and intact; else why not. */
export function unseal(text: string, format: number): Unsealed {
  const newline = text.indexOf('\n');
  let header: unknown = null;
  try {
    if (newline > 0) header = JSON.parse(text.slice(0, newline));
  } catch {
    // Not a header: reported below.
  }
  if (typeof header !== 'object' || header === null || !('v' in header) || !('sha256' in header))
    return { ok: false, reason: 'it has no header', otherFormat: true };
  if (header.v !== format) return { ok: false, reason: 'it is of another format', otherFormat: true };
  const body = text.slice(newline + 1);
  if (header.sha256 !== digest(body))
    return { ok: false, reason: 'it is damaged (its checksum does not match)', otherFormat: false };
  return { ok: true, body };
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
