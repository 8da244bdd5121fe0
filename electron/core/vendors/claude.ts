// Claude Code (vendors.md §1): Baton picks the id (`--session-id <uuid>`), names the session `-n <run>/<label>`,
// resumes with `--resume <id>`, and follows id changes (/clear) through the live registry `sessions/<pid>.json`.
import { randomUUID } from 'node:crypto';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { CLAUDE_SESSION_ID, displayConfigDir, findClaudeTranscript, readClaudeRegistry } from './claude-store.js';
import { listClaudeSessions } from './claude-sessions.js';

const BIN_ENV = 'BATON_CLAUDE_BIN';
const DEFAULT_BIN = 'claude';
/** How often follow() reads the registry. */
export const CLAUDE_FOLLOW_INTERVAL_MS = 500;

/** The first 8 characters of an id: enough to tell sessions apart in a message, never the whole secret. */
export function shortId(id: string): string {
  return `${id.slice(0, 8)}…`;
}

// The same rule as registry.resolveBin (not imported from there: registry.ts imports this file).
const binOf = (env: VendorEnv): string => env[BIN_ENV] || DEFAULT_BIN;

function withId(ctx: AgentContext, env: VendorEnv, sessionId: string): string[] {
  return [binOf(env), '--session-id', sessionId, '-n', `${ctx.runName}/${ctx.label}`, ...ctx.args];
}

function fresh(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  const sessionId = randomUUID();
  return { argv: withId(ctx, env, sessionId), env: {}, sessionId, chosenBy: 'baton', outcome: 'fresh', warning };
}

export const claudeAdapter: VendorAdapter = {
  vendor: 'claude',
  displayName: 'Claude Code',
  sessionIdPattern: CLAUDE_SESSION_ID,
  submitDelayMs: 150,
  resumeErrorTexts: [/No conversation found with session ID/],
  binEnvVar: BIN_ENV,
  defaultBin: () => DEFAULT_BIN,
  versionArgs: ['--version'],

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    if (!CLAUDE_SESSION_ID.test(prior.sessionId)) {
      return fresh(ctx, env, `claude: the saved session id is not a Claude session id; starting a fresh conversation in ${ctx.cwd}`);
    }
    if ((await findClaudeTranscript(prior.sessionId, ctx.cwd, env)) !== null) {
      return {
        argv: [binOf(env), '--resume', prior.sessionId, ...ctx.args],
        env: {},
        sessionId: prior.sessionId,
        chosenBy: prior.chosenBy,
        outcome: 'resumed',
        warning: null,
      };
    }
    if (!prior.confirmed && prior.chosenBy === 'baton') {
      // Claude writes the transcript only at the first prompt: nothing was said, so the same id starts afresh.
      return {
        argv: withId(ctx, env, prior.sessionId),
        env: {},
        sessionId: prior.sessionId,
        chosenBy: 'baton',
        outcome: 'resumed',
        warning: null,
      };
    }
    return fresh(
      ctx,
      env,
      `claude: session ${shortId(prior.sessionId)} is not in ${displayConfigDir(env)}/projects any more; ` +
        `starting a fresh conversation in ${ctx.cwd}`,
    );
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

    const timer = setInterval(() => void poll(), CLAUDE_FOLLOW_INTERVAL_MS);
    timer.unref?.();
    void poll();
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
