// Codex's rollouts as files Baton copies (docs/bundles.md §2): `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` under
// the local day (days.ts). The first line's `session_meta` carries the id and the cwd, `turn_context` lines the cwd:
// the generic rewrite moves them. Codex forks natively (`codex fork <id>`); copies serve cuts at a snapshot and bundles.
import { join } from 'node:path';
import type { TranscriptFiles } from '../adapter.js';
import { newSessionId } from '../kit/ids.js';
import { localDayFolders } from './days.js';
import { sessionsDir, type CodexStore } from './store.js';

export function codexTranscripts(store: CodexStore): TranscriptFiles {
  return {
    locate: (sessionId, _cwd, env) => store.findRollout(sessionId, env),
    async placeFor(sessionId, _cwd, env) {
      const now = new Date();
      const [today] = localDayFolders(now, env);
      const time = now.toISOString().slice(11, 19).replace(/:/g, '-');
      return join(sessionsDir(env), today, `rollout-${today.replace(/\//g, '-')}T${time}-${sessionId}.jsonl`);
    },
    newId: newSessionId,
  };
}
