// Fixtures shared by the session-import tests: the ids and paths of the vendor samples in test/fixtures, and a
// stopped run holding one agent's session (what a run that already adopted a session looks like in the store).
import type { RunManifest } from '../../electron/core/store/types.js';
import type { VendorName } from '../../shared/words.js';

export const CLAUDE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
export const GEMINI_ID = '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b';
export const CODEX_ID = '019abcde-1234-7def-8abc-0123456789ab';
export const CLAUDE_FILE = `.claude/projects/-home-u-proj/${CLAUDE_ID}.jsonl`;
export const GEMINI_FILE = '.gemini/tmp/proj/chats/session-2026-11-25T21-47-3b9e7c10.jsonl';
export const CODEX_FILE = `.codex/sessions/2026/11/25/rollout-2026-11-25T21-47-05-${CODEX_ID}.jsonl`;

/** A stopped run named `name` whose one agent holds `sessionId` of `vendor`, confirmed. */
export function stoppedRun(name: string, vendor: VendorName, sessionId: string): RunManifest {
  const at = new Date().toISOString();
  return {
    v: 1,
    id: `run_${'a'.repeat(16)}`,
    name,
    createdAt: at,
    updatedAt: at,
    agents: [
      {
        id: `agt_${'b'.repeat(16)}`,
        label: vendor,
        vendor,
        cwd: '/home/u/proj',
        args: [],
        command: null,
        sessionIds: [{ id: sessionId, chosenBy: 'vendor', seenAt: at, confirmed: true }],
        status: 'stopped',
        exitCode: null,
        warning: null,
        startedAt: null,
      },
    ],
    lastSnapshot: null,
  };
}
