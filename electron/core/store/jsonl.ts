// Append-only JSON Lines files. A crash may tear the last line; readers skip it, writers heal it. A write that
// fails part-way (a full disk) is cut back, so the file never keeps half a line from it.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { z } from 'zod';
import { readBounded } from './safe-read.js';

// Never through a symbolic link: a link planted in the data directory must not make Baton write elsewhere.
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** Appends one JSON line durably. A torn previous line is closed with "\n" first so this one stays readable. */
export async function appendJsonLine(path: string, value: unknown, mode = 0o600): Promise<void> {
  return appendJsonLines(path, [value], mode);
}

/** Appends JSON lines durably, all in one write and one fsync: a failure leaves none of them. */
export async function appendJsonLines(path: string, values: readonly unknown[], mode = 0o600): Promise<void> {
  const fh = await open(path, APPEND_FLAGS, mode);
  try {
    const { size } = await fh.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    // One write, so concurrent appenders in this process never interleave within a line.
    const bytes = Buffer.from(`${prefix}${values.map((v) => `${JSON.stringify(v)}\n`).join('')}`, 'utf8');
    try {
      const { bytesWritten } = await fh.write(bytes);
      // A full disk can take part of a write without an error; the rest would fail anyway.
      if (bytesWritten !== bytes.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
      await fh.sync();
    } catch (err) {
      await fh.truncate(size).catch(() => undefined);
      throw err;
    }
  } finally {
    await fh.close().catch(() => undefined);
  }
}

export interface JsonLines<T> {
  /** Every line that parses and validates, in order. */
  values: T[];
  /** Why the file (or part of it) could not be read, when it could not; a missing file is just empty. */
  problem?: string;
}

/**
 * Reads a JSON Lines file of at most `maxBytes` (a larger one yields its newest lines). Bad lines (a torn tail,
 * garbage) are skipped.
 */
export async function readJsonLines<T>(path: string, schema: z.ZodType<T>, maxBytes: number): Promise<JsonLines<T>> {
  const read = await readBounded(path, maxBytes, true);
  if (!read.ok) return read.missing ? { values: [] } : { values: [], problem: read.reason };
  const lines = read.text.split('\n');
  // The first line of a clipped file starts mid-line. A last line without its "\n" that does not parse was torn
  // by a crash: expected, healed by the next append, and not worth a warning.
  if (read.clipped) lines.shift();
  const tornTail = read.text.endsWith('\n') ? -1 : lines.length - 1;
  const values: T[] = [];
  let bad = 0;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      if (i !== tornTail) bad++;
      continue;
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) values.push(parsed.data);
    else bad++;
  }
  const notes = [
    read.clipped ? `only its last ${maxBytes} bytes were read` : '',
    bad > 0 ? `${bad} unreadable line${bad === 1 ? '' : 's'} skipped` : '',
  ];
  const problem = notes.filter(Boolean).join('; ');
  return problem ? { values, problem } : { values };
}
