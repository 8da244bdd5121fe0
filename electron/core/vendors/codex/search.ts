// Codex's transcripts for search (docs/search.md §2): `sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`. A message is a
// `response_item` of payload type `message` with role user or assistant (the `event_msg` copies of the same turn are
// left out, so nothing is found twice); the context Codex injects as a user message (`<environment_context>`, …) is
// not something the user said. The directory is `session_meta`'s `payload.cwd`.
import { join } from 'node:path';
import type { TranscriptSource } from '../adapter.js';
import { isRecord, textOf } from '../kit/jsonl.js';
import { listDir } from '../kit/store-fs.js';
import { message, str } from '../kit/transcript-lines.js';
import { ROLLOUT_NAME, sessionsDir } from './store.js';

/** Context blocks Codex adds to the conversation as user messages. */
const INJECTED = /^\s*<(environment_context|user_instructions|turn_aborted)>/;

export const codexSearchText: TranscriptSource = {
  async files(env) {
    const out: { path: string; sessionId: string; cwd: null }[] = [];
    const root = sessionsDir(env);
    for (const y of await listDir(root))
      for (const m of await listDir(join(root, y)))
        for (const d of await listDir(join(root, y, m)))
          for (const name of await listDir(join(root, y, m, d))) {
            const hit = ROLLOUT_NAME.exec(name);
            if (hit) out.push({ path: join(root, y, m, d, name), sessionId: hit[1]!, cwd: null });
          }
    return out;
  },
  watchRoot: (env) => ({ dir: sessionsDir(env), depth: 3 }),
  line(rec) {
    if (!isRecord(rec) || !isRecord(rec.payload)) return null;
    const p = rec.payload;
    if (rec.type === 'session_meta') {
      const cwd = str(p, 'cwd');
      return cwd ? { cwd } : null;
    }
    if (rec.type !== 'response_item' || p.type !== 'message') return null;
    if (p.role !== 'user' && p.role !== 'assistant') return null;
    const text = textOf(p.content);
    if (p.role === 'user' && text && INJECTED.test(text)) return null;
    return message(p.role, text, str(rec, 'timestamp'));
  },
};
