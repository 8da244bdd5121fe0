// Gemini CLI's transcripts for search (docs/search.md §2): `tmp/<project>/chats/session-*.jsonl` (the older whole-file
// `.json` chats are rewritten at every turn and are not searched). The first line gives the session id; messages are
// lines of `type` user or gemini whose `content` is a string or `[{text}]`. The directory is the project folder's
// `.project_root`.
import { join } from 'node:path';
import type { TranscriptSource } from '../adapter.js';
import { isRecord, textOf } from '../kit/jsonl.js';
import { filesUnder, message, str } from '../kit/transcript-lines.js';
import { geminiDir, readMarker } from './store.js';

const ROLES: Readonly<Record<string, 'user' | 'assistant'>> = { user: 'user', gemini: 'assistant' };

export const geminiSearchText: TranscriptSource = {
  async files(env) {
    const tmp = join(geminiDir(env), 'tmp');
    const found = await filesUnder(tmp, ['chats'], (name) =>
      name.startsWith('session-') && name.endsWith('.jsonl') ? { sessionId: null } : null,
    );
    const roots = new Map<string, string | null>();
    for (const f of found)
      if (!roots.has(f.folder)) roots.set(f.folder, await readMarker(join(tmp, f.folder, '.project_root')));
    return found.map((f) => ({ path: f.path, sessionId: null, cwd: roots.get(f.folder) ?? null }));
  },
  watchRoot: (env) => ({ dir: join(geminiDir(env), 'tmp'), depth: 2 }),
  line(rec) {
    if (!isRecord(rec)) return null;
    const role = typeof rec.type === 'string' ? ROLES[rec.type] : undefined;
    if (role) return message(role, textOf(rec.content), str(rec, 'timestamp'));
    const sessionId = rec.type === undefined ? str(rec, 'sessionId') : undefined;
    return sessionId ? { sessionId } : null;
  },
};
