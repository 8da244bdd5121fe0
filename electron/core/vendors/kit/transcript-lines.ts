// Shared pieces of the vendors' transcript sources (docs/search.md §2): walking a store's folders for transcript
// files, and the small checks every line reader makes.
import { join } from 'node:path';
import type { TranscriptLine } from '../adapter.js';
import { isRecord } from './jsonl.js';
import { listDir } from './store-fs.js';

/** `root/<folder>/<sub…>/<name>` for each folder of `root` and each name `pick` keeps (it gives the session id). */
export async function filesUnder(
  root: string,
  sub: readonly string[],
  pick: (name: string) => { sessionId: string | null } | null,
): Promise<{ path: string; folder: string; sessionId: string | null }[]> {
  const folders = (await listDir(root)).filter((f) => !f.startsWith('.'));
  // Every folder at once: the reads queue on libuv's pool instead of waiting for each other.
  const lists = await Promise.all(folders.map((folder) => listDir(join(root, folder, ...sub))));
  const out: { path: string; folder: string; sessionId: string | null }[] = [];
  for (const [i, names] of lists.entries()) {
    const folder = folders[i]!;
    const dir = join(root, folder, ...sub);
    for (const name of names) {
      const hit = pick(name);
      if (hit) out.push({ path: join(dir, name), folder, sessionId: hit.sessionId });
    }
  }
  return out;
}

/** A string field of a record, or undefined. */
export function str(rec: unknown, key: string): string | undefined {
  if (!isRecord(rec)) return undefined;
  const v = rec[key];
  return typeof v === 'string' ? v : undefined;
}

/** A message line, or null when it holds no text (a tool call, an empty block list). */
export function message(
  role: 'user' | 'assistant',
  text: string | null | undefined,
  time: string | undefined,
  cwd?: string,
): TranscriptLine | null {
  if (!text || text.trim() === '') return cwd ? { cwd } : null;
  const out: TranscriptLine = { role, text };
  if (time) out.time = time;
  if (cwd) out.cwd = cwd;
  return out;
}
