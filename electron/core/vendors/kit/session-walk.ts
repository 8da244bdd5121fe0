// One pass over a vendor's store folders for the session ids their files are named for (`VendorAdapter.indexSessions`,
// docs/performance.md "Core"). What a name means and when an entry counts (a link, above all) is each vendor's own
// rule, so the index answers exactly what the vendor's `exists` would.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface SessionFileRule {
  /** The session id a file name stands for, or null (not a session file). */
  idOf(name: string): string | null;
  /** Whether an entry named for a session counts, `path` being its full path (how a link is taken, say). */
  counts(entry: Dirent, path: string): boolean | Promise<boolean>;
}

/** A few folders at once: a store of hundreds of folders is read in a few round trips of the file system. */
const BATCH = 16;

/** Ids of the files of one folder that count (a folder that cannot be read, or is no folder: none). */
async function idsIn(dir: string, rule: SessionFileRule): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const ids: string[] = [];
  for (const e of entries) {
    const id = rule.idOf(e.name);
    if (id !== null && (await rule.counts(e, join(dir, e.name)))) ids.push(id);
  }
  return ids;
}

/** The session ids of the files in every folder of `dirs` that count by `rule`. */
export async function sessionIdsIn(dirs: readonly string[], rule: SessionFileRule): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let i = 0; i < dirs.length; i += BATCH)
    for (const found of await Promise.all(dirs.slice(i, i + BATCH).map((d) => idsIn(d, rule))))
      for (const id of found) ids.add(id);
  return ids;
}
