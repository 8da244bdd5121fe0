// Reading the data directory, whose files Baton does not trust: a sync tool, another program or a failing disk
// may have left anything there. A read never follows a symbolic link, never blocks on a FIFO, never loads more
// than a bound, and reports a problem as a reason in words instead of throwing.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import type { z } from 'zod';
import { describeIssue } from '../../../shared/contract.js';

export type Unreadable = { ok: false; missing: boolean; reason: string };
export type TextRead = { ok: true; text: string; clipped: boolean } | Unreadable;
export type JsonRead<T> = { ok: true; value: T } | Unreadable;

// Windows has neither flag; there the lstat below stands in for O_NOFOLLOW (with a window a local attacker
// could race, which the owner-only data directory already closes).
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The file's text, or why it cannot be used. A file over `maxBytes` is refused, unless `tail` asks for its last
 * `maxBytes` instead (`clipped` then says the start was dropped).
 */
export async function readBounded(path: string, maxBytes: number, tail = false): Promise<TextRead> {
  if (NOFOLLOW === 0) {
    const link = await lstat(path).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (link) return unreadable('is a symbolic link');
  }
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const info = await fh.stat();
    if (!info.isFile()) return unreadable('is not a regular file');
    if (info.size > maxBytes && !tail)
      return unreadable(`is too large (${info.size} bytes; at most ${maxBytes} expected)`);
    const start = Math.max(0, info.size - maxBytes);
    const buf = Buffer.alloc(Math.min(info.size, maxBytes));
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { ok: true, text: buf.subarray(0, got).toString('utf8'), clipped: start > 0 };
  } catch (err) {
    return unreadable(`cannot be read (${errnoCode(err)})`);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * `readBounded` without the thread pool, whole files only: for reading thousands of small files at open, before the
 * core serves anything. Each async read is several trips through libuv's pool; 10,000 manifests read this way took
 * a sixth of the time (docs/performance.md "Cold start").
 */
export function readBoundedSync(path: string, maxBytes: number): TextRead {
  if (NOFOLLOW === 0) {
    let link = false;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      // Missing: the open below says so.
    }
    if (link) return unreadable('is a symbolic link');
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return unreadable('is not a regular file');
    if (info.size > maxBytes) return unreadable(`is too large (${info.size} bytes; at most ${maxBytes} expected)`);
    const buf = Buffer.alloc(info.size);
    let got = 0;
    while (got < buf.length) {
      const bytesRead = readSync(fd, buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { ok: true, text: buf.subarray(0, got).toString('utf8'), clipped: false };
  } catch (err) {
    return unreadable(`cannot be read (${errnoCode(err)})`);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing to do about a close that fails after a read.
    }
  }
}

/** The file parsed as JSON and validated by `schema`; the reason names the field and rule, never the value. */
export async function readJsonFile<T>(path: string, maxBytes: number, schema: z.ZodType<T>): Promise<JsonRead<T>> {
  return parseJson(await readBounded(path, maxBytes), schema);
}

/** `readJsonFile` through `readBoundedSync`. */
export function readJsonFileSync<T>(path: string, maxBytes: number, schema: z.ZodType<T>): JsonRead<T> {
  return parseJson(readBoundedSync(path, maxBytes), schema);
}

function parseJson<T>(read: TextRead, schema: z.ZodType<T>): JsonRead<T> {
  if (!read.ok) return read;
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch {
    return unreadable('is not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return unreadable(`does not validate: ${describeIssue(parsed.error).message}`);
  return { ok: true, value: parsed.data };
}

/** 'ok' for a real directory (not a link to one), 'missing', or why it is not one. */
export async function directoryState(path: string): Promise<'ok' | 'missing' | string> {
  try {
    const info = await lstat(path);
    if (info.isDirectory()) return 'ok';
    return info.isSymbolicLink() ? 'is a symbolic link, not a directory' : 'is not a directory';
  } catch (err) {
    const code = errnoCode(err);
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `cannot be read (${code})`;
  }
}

export function errnoCode(err: unknown): string {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' ? code : 'unknown error';
}

function openFailure(err: unknown): Unreadable {
  const code = errnoCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true, reason: 'missing' };
  // O_NOFOLLOW on a link fails with ELOOP (EMLINK on the BSDs).
  if (code === 'ELOOP' || code === 'EMLINK') return unreadable('is a symbolic link');
  return unreadable(`cannot be read (${code})`);
}

function unreadable(reason: string): Unreadable {
  return { ok: false, missing: false, reason };
}
