// Qwen Code's transcripts for search (docs/search.md §2): `projects/<enc cwd>/chats/<uuid>.jsonl`; a message is a line
// of `type` user or assistant whose `message.parts` hold `{text}` (parts marked `thought` are the model's reasoning,
// not said to the user).
import { join } from 'node:path';
import type { TranscriptSource } from '../adapter.js';
import { LOWER_UUID } from '../kit/ids.js';
import { isRecord, textOf } from '../kit/jsonl.js';
import { filesUnder, message, str } from '../kit/transcript-lines.js';
import { qwenHome } from './store.js';

export const qwenSearchText: TranscriptSource = {
  async files(env) {
    const found = await filesUnder(join(qwenHome(env), 'projects'), ['chats'], (name) =>
      name.endsWith('.jsonl') && LOWER_UUID.test(name.slice(0, -6)) ? { sessionId: name.slice(0, -6) } : null,
    );
    return found.map((f) => ({ path: f.path, sessionId: f.sessionId, cwd: null }));
  },
  watchRoot: (env) => ({ dir: join(qwenHome(env), 'projects'), depth: 2 }),
  line(rec) {
    if (!isRecord(rec) || (rec.type !== 'user' && rec.type !== 'assistant')) return null;
    const parts = isRecord(rec.message) && Array.isArray(rec.message.parts) ? rec.message.parts : [];
    const said = parts.filter((p) => !(isRecord(p) && p.thought === true));
    return message(rec.type, textOf(said), str(rec, 'timestamp'), str(rec, 'cwd'));
  },
};
