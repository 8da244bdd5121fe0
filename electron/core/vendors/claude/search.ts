// Claude Code's transcripts for search (docs/search.md §2): `projects/<enc cwd>/<uuid>.jsonl`; a message is a line of
// `type` user or assistant whose `message.content` is a string or blocks (only `text` blocks are said; tool calls and
// tool results are not). Side chains (subagents) and meta lines (command wrappers) are left out.
import { join } from 'node:path';
import type { TranscriptSource } from '../adapter.js';
import { LOWER_UUID } from '../kit/ids.js';
import { isRecord, textOf } from '../kit/jsonl.js';
import { filesUnder, message, str } from '../kit/transcript-lines.js';
import { claudeConfigDir } from './store.js';

export const claudeSearchText: TranscriptSource = {
  async files(env) {
    const found = await filesUnder(join(claudeConfigDir(env), 'projects'), [], (name) =>
      name.endsWith('.jsonl') && LOWER_UUID.test(name.slice(0, -6)) ? { sessionId: name.slice(0, -6) } : null,
    );
    return found.map((f) => ({ path: f.path, sessionId: f.sessionId, cwd: null }));
  },
  watchRoot: (env) => ({ dir: join(claudeConfigDir(env), 'projects'), depth: 1 }),
  line(rec) {
    if (!isRecord(rec) || rec.isSidechain === true || rec.isMeta === true) return null;
    if (rec.type !== 'user' && rec.type !== 'assistant') return null;
    const content = isRecord(rec.message) ? rec.message.content : undefined;
    return message(
      rec.type,
      textOf(content, (t) => t === 'text'),
      str(rec, 'timestamp'),
      str(rec, 'cwd'),
    );
  },
};
