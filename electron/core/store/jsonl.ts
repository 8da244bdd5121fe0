// Append-only JSON Lines files (design.md §5). A crash may tear the last line; readers skip it, writers heal it.
import { open, readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { isErrno } from './atomic-file.js';

/** Appends one JSON line durably. A torn previous line is closed with "\n" first so this one stays readable. */
export async function appendJsonLine(path: string, value: unknown, mode = 0o600): Promise<void> {
  const line = `${JSON.stringify(value)}\n`;
  const fh = await open(path, 'a+', mode);
  try {
    const { size } = await fh.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    // One write, so concurrent appenders in this process never interleave within a line.
    await fh.write(prefix + line);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Every line that parses and validates, in order. Bad lines (a torn tail, say) are skipped; no file is []. */
export async function readJsonLines<T>(path: string, schema: z.ZodType<T>): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
