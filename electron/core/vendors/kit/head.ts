// Heads (and tails) of vendor files: a store of thousands of transcripts is listed by reading only the start of
// each (docs/architecture.md §9 `listSessions`), never whole files. The callback forms of fs cost less per call than
// fs/promises and its FileHandle objects, which adds up over 10,000 files.
import { close, open, read } from 'node:fs';

/** How much of a transcript the stores read to find its id, cwd and first prompt. */
export const HEAD_BYTES = 64 * 1024;

/** Reads into `buf` from `position`; the filled part of `buf`. Throws when the file cannot be opened or read. */
function readAt(path: string, buf: Buffer, position: number): Promise<Buffer> {
  return new Promise((res, rej) => {
    open(path, 'r', (err, fd) => {
      if (err) return rej(err);
      read(fd, buf, 0, buf.length, position, (rerr, n) => {
        close(fd, () => (rerr ? rej(rerr) : res(buf.subarray(0, n))));
      });
    });
  });
}

/** The first `buf.length` bytes of a file (fewer when it is shorter), read into `buf` (a listing reuses its buffers). */
export function readHeadInto(path: string, buf: Buffer): Promise<Buffer> {
  return readAt(path, buf, 0);
}

/** The first `max` bytes of a file (fewer when it is shorter). Throws when it cannot be opened or read. */
export function readHeadBytes(path: string, max: number): Promise<Buffer> {
  return readHeadInto(path, Buffer.alloc(max));
}

/** The first `max` bytes of a file as text. Throws when it cannot be opened or read. */
export async function readHead(path: string, max: number): Promise<string> {
  return (await readHeadBytes(path, max)).toString('utf8');
}

/**
 * The complete lines among the first `max` bytes of a file (all of it when it is shorter): a line the head cut is
 * left out. Null when the file cannot be read.
 */
export async function readHeadLines(path: string, max = HEAD_BYTES): Promise<string | null> {
  let buf;
  try {
    buf = await readHeadBytes(path, max);
  } catch {
    return null;
  }
  const text = buf.toString('utf8');
  if (buf.length < max) return text;
  const nl = text.lastIndexOf('\n');
  return nl >= 0 ? text.slice(0, nl + 1) : '';
}

/**
 * The first `max` bytes of a file of `size` bytes, and its last `tail` bytes when it is longer (never the middle), as
 * text. Throws when it cannot be read.
 */
export async function readHeadTail(
  path: string,
  size: number,
  max: number,
  tail: number,
): Promise<{ head: string; tail: string | null }> {
  const head = (await readAt(path, Buffer.alloc(Math.min(size, max)), 0)).toString('utf8');
  if (tail <= 0 || size <= max) return { head, tail: null };
  const len = Math.min(tail, size - max);
  return { head, tail: (await readAt(path, Buffer.alloc(len), size - len)).toString('utf8') };
}
