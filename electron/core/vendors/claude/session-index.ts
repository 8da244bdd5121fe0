// Every Claude session the store holds, read in one pass (`VendorAdapter.indexSessions`, docs/performance.md "Core"):
// checking 10,000 runs' health with `findClaudeTranscript` per session resolved each cwd and listed `projects/` once
// per session. The index answers what `findClaudeTranscript` would: a session exists when `projects/<any>/<id>.jsonl`
// is there (the direct `projects/<enc(realpath cwd)>/` path is one of those folders, so the cwd plays no part).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionIndex, VendorEnv } from '../adapter.js';
import { sessionIdsIn, type SessionFileRule } from '../kit/session-walk.js';
import { pathExists } from '../kit/store-fs.js';
import { CLAUDE_SESSION_ID, claudeConfigDir } from './store.js';

const TRANSCRIPT = /^(.+)\.jsonl$/;

const TRANSCRIPTS: SessionFileRule = {
  idOf: (name) => {
    const id = TRANSCRIPT.exec(name)?.[1];
    return id && CLAUDE_SESSION_ID.test(id) ? id : null;
  },
  // `findClaudeTranscript` asks `access`: a link counts only when it leads somewhere.
  counts: (entry, path) => (entry.isSymbolicLink() ? pathExists(path) : true),
};

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
  const ids = await sessionIdsIn(
    folders.map((f) => join(projects, f)),
    TRANSCRIPTS,
  );
  return { has: (sessionId) => ids.has(sessionId) };
}
