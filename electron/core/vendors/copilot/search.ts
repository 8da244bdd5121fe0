// Copilot CLI's transcripts for search (docs/search.md §2): `session-state/<uuid>/events.jsonl`; messages are the
// `user.message` and `assistant.message` events (`data.content`), the directory is `session.start`'s `data.context.cwd`.
import { join } from 'node:path';
import type { TranscriptSource } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { listDir } from '../kit/store-fs.js';
import { message, str } from '../kit/transcript-lines.js';
import { COPILOT_SESSION_ID, copilotSessionStateDir } from './store.js';

const ROLES: Readonly<Record<string, 'user' | 'assistant'>> = {
  'user.message': 'user',
  'assistant.message': 'assistant',
};

export const copilotSearchText: TranscriptSource = {
  async files(env) {
    const root = copilotSessionStateDir(env);
    return (await listDir(root))
      .filter((name) => COPILOT_SESSION_ID.test(name))
      .map((name) => ({ path: join(root, name, 'events.jsonl'), sessionId: name, cwd: null }));
  },
  watchRoot: (env) => ({ dir: copilotSessionStateDir(env), depth: 1 }),
  line(rec) {
    if (!isRecord(rec) || typeof rec.type !== 'string') return null;
    const data = isRecord(rec.data) ? rec.data : {};
    if (rec.type === 'session.start') {
      const cwd = str(data.context, 'cwd');
      return cwd ? { cwd } : null;
    }
    const role = ROLES[rec.type];
    return role ? message(role, str(data, 'content'), str(rec, 'timestamp')) : null;
  },
};
