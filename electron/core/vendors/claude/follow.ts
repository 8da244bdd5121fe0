// Claude Code's follower (docs/vendors.md §1): the live registry `sessions/<pty pid>.json` names the session the TUI has
// now, so a /clear (a new id in the same file) is seen too; the id is confirmed once its transcript exists.
import { reportFailure } from '../../log.js';
import type { LiveTerminal, SessionObservation, VendorEnv } from '../adapter.js';
import { FOLLOW_INTERVAL_MS } from '../kit/poll.js';
import { findClaudeTranscript, readClaudeRegistry } from './store.js';

/** How often follow() reads the registry. */
export const CLAUDE_FOLLOW_INTERVAL_MS = FOLLOW_INTERVAL_MS;

export function followClaude(
  terminal: LiveTerminal,
  env: VendorEnv,
  onSession: (seen: SessionObservation) => void,
): () => void {
  let stopped = false;
  let polling = false;
  let last: SessionObservation | null = null;

  const poll = async () => {
    if (polling || stopped) return;
    polling = true;
    try {
      const entry = await readClaudeRegistry(terminal.pid, env);
      if (!entry || stopped) return;
      const confirmed =
        last?.sessionId === entry.sessionId && last.confirmed
          ? true
          : (await findClaudeTranscript(entry.sessionId, entry.cwd || terminal.cwd, env)) !== null;
      if (stopped) return;
      if (last && last.sessionId === entry.sessionId && last.confirmed === confirmed) return;
      last = { sessionId: entry.sessionId, confirmed };
      onSession({ ...last });
    } catch {
      /* a transient read error: try again next tick */
    } finally {
      polling = false;
    }
  };

  // poll catches what it awaits; this catch is for anything else, which must not become an unhandled rejection.
  const run = () => {
    poll().catch((err: unknown) => reportFailure('following a Claude session', err));
  };
  const timer = setInterval(run, CLAUDE_FOLLOW_INTERVAL_MS);
  timer.unref?.();
  run();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
