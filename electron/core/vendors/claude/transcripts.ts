// Claude Code's transcripts as files Baton copies (docs/bundles.md §2): `projects/<folder of the cwd>/<id>.jsonl`, the
// folder being the realpath'd cwd with every non-alphanumeric character made "-". Lines carry `sessionId` and `cwd`,
// which the generic rewrite moves; nothing else keys on them.
import { join } from 'node:path';
import type { TranscriptFiles } from '../adapter.js';
import { newSessionId } from '../kit/ids.js';
import { realOrGiven } from '../kit/store-fs.js';
import { claudeConfigDir, encodeClaudeCwd, findClaudeTranscript } from './store.js';

export const CLAUDE_TRANSCRIPTS: TranscriptFiles = {
  locate: findClaudeTranscript,
  async placeFor(sessionId, cwd, env) {
    return join(claudeConfigDir(env), 'projects', encodeClaudeCwd(await realOrGiven(cwd)), `${sessionId}.jsonl`);
  },
  newId: newSessionId,
};
