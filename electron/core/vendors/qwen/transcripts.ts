// Qwen Code's transcripts as files Baton copies (docs/bundles.md §2): `projects/<folder of the cwd>/chats/<id>.jsonl`.
// Lines carry `sessionId` and `cwd`, which the generic rewrite moves. Qwen's own `--fork-session` copies the same file
// under an id it draws itself and never tells, so Baton makes the copy under an id it chose (docs/bundles.md §1).
import { join } from 'node:path';
import type { TranscriptFiles } from '../adapter.js';
import { newSessionId } from '../kit/ids.js';
import { realOrGiven } from '../kit/store-fs.js';
import { encodeQwenCwd, findQwenTranscript, qwenHome } from './store.js';

export const QWEN_TRANSCRIPTS: TranscriptFiles = {
  locate: findQwenTranscript,
  async placeFor(sessionId, cwd, env) {
    return join(qwenHome(env), 'projects', encodeQwenCwd(await realOrGiven(cwd)), 'chats', `${sessionId}.jsonl`);
  },
  newId: newSessionId,
};
