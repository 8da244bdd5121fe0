// Every Claude session the store holds, read in one pass (`VendorAdapter.indexSessions`, docs/performance.md "Core"):
// checking 10,000 runs' health with `findClaudeTranscript` per session resolved each cwd and listed `projects/` once
// per session. The index answers what `findClaudeTranscript` would: a session exists when `projects/<any>/<id>.jsonl`
// is there (the direct `projects/<enc(realpath cwd)>/` path is one of those folders, so the cwd plays no part).
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionIndex, VendorEnv } from '../adapter.js';
import { pathExists } from '../kit/store-fs.js';
import { CLAUDE_SESSION_ID, claudeConfigDir } from './store.js';

const TRANSCRIPT = /^(.+)\.jsonl$/;

/** Ids with a transcript in one project folder (a folder that cannot be read, or is no folder: none). */
async function idsIn(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const ids: string[] = [];
  for (const e of entries) {
    const id = TRANSCRIPT.exec(e.name)?.[1];
    if (!id || !CLAUDE_SESSION_ID.test(id)) continue;
    // `findClaudeTranscript` asks `access`: a link counts only when it leads somewhere.
    if (e.isSymbolicLink() ? await pathExists(join(dir, e.name)) : true) ids.push(id);
  }
  return ids;
}

/** The sessions of `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/*`; null when `projects/` cannot be listed. */
export async function indexClaudeSessions(env: VendorEnv): Promise<SessionIndex | null> {
  const projects = join(claudeConfigDir(env), 'projects');
  let folders: string[];
  try {
    folders = await readdir(projects);
  } catch (err) {
    // No store yet: no session exists. Any other failure: let `exists` answer per session.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? { has: () => false } : null;
  }
  const ids = new Set<string>();
  // A few folders at once: a store of hundreds of projects is read in a few round trips of the file system.
  const BATCH = 16;
  for (let i = 0; i < folders.length; i += BATCH)
    for (const found of await Promise.all(folders.slice(i, i + BATCH).map((f) => idsIn(join(projects, f)))))
      for (const id of found) ids.add(id);
  return { has: (sessionId) => ids.has(sessionId) };
}
