// Gemini CLI's transcripts as files Baton copies (docs/bundles.md §2): `tmp/<slug>/chats/session-<UTC minute>-<id8>.jsonl`
// where projects.json gives the directory's slug; for a directory Gemini has not seen yet, the legacy
// `tmp/<sha256(cwd)>/chats`, which the CLI moves to the slug it then mints at its next start. The first line's
// `projectHash` (sha256 of the directory) follows the directory.
import { join } from 'node:path';
import type { TranscriptFiles } from '../adapter.js';
import { newSessionId } from '../kit/ids.js';
import { pathForms, realOrGiven } from '../kit/store-fs.js';
import { geminiChatFileName, geminiDir, geminiProjectHash, readGeminiProjects, type GeminiStore } from './store.js';

export function geminiTranscripts(store: GeminiStore): TranscriptFiles {
  return {
    locate: (sessionId, cwd, env) => store.findTranscript(sessionId, cwd, env),
    async placeFor(sessionId, cwd, env) {
      const projects = await readGeminiProjects(env);
      const slug = (await pathForms(cwd)).map((c) => projects.get(c)).find((s) => s !== undefined);
      const folder = slug ?? geminiProjectHash(await realOrGiven(cwd));
      return join(geminiDir(env), 'tmp', folder, 'chats', geminiChatFileName(sessionId, new Date()));
    },
    newId: newSessionId,
    rewrite(record, remap) {
      if (typeof record.projectHash === 'string') record.projectHash = geminiProjectHash(remap.toCwd);
    },
  };
}
