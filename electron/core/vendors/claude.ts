// Claude Code (vendors.md §1): Baton picks the id (`--session-id <uuid>`), names the session `-n <run>/<label>`,
// resumes with `--resume <id>`, and follows id changes (/clear) through the live registry `sessions/<pid>.json`.
import { reportFailure } from '../log.js';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { batonPickedIds, cliBinary, freshWarning, goneFrom } from './common.js';
import { CLAUDE_SESSION_ID, displayConfigDir, findClaudeTranscript, readClaudeRegistry } from './claude-store.js';
import { listClaudeSessions } from './claude-sessions.js';

const BIN_ENV = 'BATON_CLAUDE_BIN';
const DEFAULT_BIN = 'claude';
/** How often follow() reads the registry. */
export const CLAUDE_FOLLOW_INTERVAL_MS = 500;

export { shortId } from './common.js';

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

/** Claude's follow() reads the live registry: its plans need no hints. */
const { plan, fresh, sameId } = batonPickedIds(
  (ctx, env, sessionId) => [binOf(env), '--session-id', sessionId, '-n', `${ctx.runName}/${ctx.label}`, ...ctx.args],
  { hints: false },
);

export const claudeAdapter: VendorAdapter = {
  vendor: 'claude',
  displayName: 'Claude Code',
  sessionIdPattern: CLAUDE_SESSION_ID,
  submitDelayMs: 150,
  resumeErrorTexts: [/No conversation found with session ID/],
  ...binary,

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    if (!CLAUDE_SESSION_ID.test(prior.sessionId)) {
      return fresh(ctx, env, freshWarning('claude', 'the saved session id is not a Claude session id', ctx.cwd));
    }
    if ((await findClaudeTranscript(prior.sessionId, ctx.cwd, env)) !== null) {
      return plan([binOf(env), '--resume', prior.sessionId, ...ctx.args], prior.sessionId, prior.chosenBy, 'resumed');
    }
    // Claude writes the transcript only at the first prompt: nothing was said, so the same id starts afresh.
    if (!prior.confirmed && prior.chosenBy === 'baton') return sameId(ctx, env, prior.sessionId);
    return fresh(ctx, env, freshWarning('claude', goneFrom(prior.sessionId, `${displayConfigDir(env)}/projects`), ctx.cwd));
  },

  async exists(sessionId, cwd, env) {
    return (await findClaudeTranscript(sessionId, cwd, env)) !== null;
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
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
  },

  listSessions: listClaudeSessions,

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, '--resume', sessionId];
  },
};
