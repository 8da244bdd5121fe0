// Qwen Code (vendors.md §5, §10): Baton picks the id (`--session-id <uuid>`), resumes with `--resume <id>` in the
// same cwd (sessions live per project), and confirms the id from `projects/<enc cwd>/chats/<id>.jsonl`, which the
// CLI writes at the first prompt. A positional prompt makes Qwen one-shot (answer, exit): Baton never passes one.
import { pollUntilConfirmed } from './poll.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { QWEN_SESSION_ID, displayPath, encodeQwenCwd, findQwenTranscript, listQwenSessions, qwenHome } from './qwen-store.js';

const VENDOR = 'qwen';
const BIN_ENV = 'BATON_QWEN_BIN';
const DEFAULT_BIN = 'qwen';
/** How often follow() looks for the transcript, until it appears. */
export { FOLLOW_INTERVAL_MS as QWEN_FOLLOW_INTERVAL_MS } from './poll.js';

/** The vendor facts, as data. */
export const QWEN_FACTS = {
  sessionIdPattern: QWEN_SESSION_ID,
  submitDelayMs: 300,
  resumeErrorTexts: [
    /No saved session found with (ID|title)/,
    /Session Id \S+ already exists/,
    /Invalid --session-id/,
  ] as readonly RegExp[],
  /** Exit code of every session error above. */
  sessionErrorExitCode: 1,
} as const;

const shortId = (id: string): string => `${id.slice(0, 8)}…`;
// The same rule as registry.resolveBin (not imported from there: registry.ts imports this file).
const binOf = (env: VendorEnv): string => env[BIN_ENV] || DEFAULT_BIN;

/** No positional of Baton's own: in Qwen a positional prompt is one-shot. */
function withId(ctx: AgentContext, env: VendorEnv, sessionId: string): string[] {
  return [binOf(env), '--session-id', sessionId, ...ctx.args];
}

function plan(argv: string[], sessionId: string, chosenBy: PriorSession['chosenBy'], outcome: SpawnPlan['outcome'], warning: string | null): SpawnPlan {
  return { argv, env: {}, sessionId, chosenBy, outcome, warning, hints: { sessionId } };
}

function fresh(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  const sessionId = randomUUID();
  return plan(withId(ctx, env, sessionId), sessionId, 'baton', 'fresh', warning);
}

export const qwenAdapter: VendorAdapter = {
  vendor: VENDOR,
  displayName: 'Qwen Code',
  sessionIdPattern: QWEN_FACTS.sessionIdPattern,
  submitDelayMs: QWEN_FACTS.submitDelayMs,
  resumeErrorTexts: QWEN_FACTS.resumeErrorTexts,
  binEnvVar: BIN_ENV,
  defaultBin: () => DEFAULT_BIN,
  versionArgs: ['--version'],

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    if (prior.sessionId === '') {
      return fresh(ctx, env, `qwen: no session was saved for this agent; starting a fresh conversation in ${ctx.cwd}`);
    }
    if (!QWEN_SESSION_ID.test(prior.sessionId)) {
      return fresh(ctx, env, `qwen: the saved session id is not a Qwen session id; starting a fresh conversation in ${ctx.cwd}`);
    }
    const id = prior.sessionId;
    if ((await findQwenTranscript(id, ctx.cwd, env)) !== null) {
      return plan([binOf(env), '--resume', id, ...ctx.args], id, prior.chosenBy, 'resumed', null);
    }
    if (!prior.confirmed && prior.chosenBy === 'baton') {
      // Qwen writes the transcript at the first prompt: nothing was said, so the same id starts afresh.
      return plan(withId(ctx, env, id), id, 'baton', 'resumed', null);
    }
    const chats = join(qwenHome(env), 'projects', encodeQwenCwd(ctx.cwd), 'chats');
    return fresh(
      ctx,
      env,
      `qwen: session ${shortId(id)} is not in ${displayPath(chats, env)} any more; starting a fresh conversation in ${ctx.cwd}`,
    );
  },

  async exists(sessionId, cwd, env) {
    return (await findQwenTranscript(sessionId, cwd, env)) !== null;
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    const sessionId = terminal.hints.sessionId;
    if (!sessionId || !QWEN_SESSION_ID.test(sessionId)) return () => {};
    return pollUntilConfirmed(sessionId, () => findQwenTranscript(sessionId, terminal.cwd, env).then((p) => p !== null), onSession);
  },

  listSessions(env) {
    return listQwenSessions(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, '--resume', sessionId];
  },
};
