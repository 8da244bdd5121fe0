// Qwen Code (vendors.md §5, §10): Baton picks the id (`--session-id <uuid>`), resumes with `--resume <id>` in the
// same cwd (sessions live per project), and confirms the id from `projects/<enc cwd>/chats/<id>.jsonl`, which the
// CLI writes at the first prompt. A positional prompt makes Qwen one-shot (answer, exit): Baton never passes one.
import { followHintedId } from './poll.js';
import { join } from 'node:path';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { batonPickedIds, cliBinary, freshWarning, goneFrom, savedIdProblem } from './common.js';
import { QWEN_SESSION_ID, encodeQwenCwd, findQwenTranscript, listQwenSessions, qwenHome } from './qwen-store.js';
import { displayPath } from './store-fs.js';

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

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

/** No positional of Baton's own: in Qwen a positional prompt is one-shot. */
const { plan, fresh, sameId } = batonPickedIds((ctx, env, sessionId) => [binOf(env), '--session-id', sessionId, ...ctx.args], { hints: true });

export const qwenAdapter: VendorAdapter = {
  vendor: VENDOR,
  displayName: 'Qwen Code',
  sessionIdPattern: QWEN_FACTS.sessionIdPattern,
  submitDelayMs: QWEN_FACTS.submitDelayMs,
  resumeErrorTexts: QWEN_FACTS.resumeErrorTexts,
  ...binary,

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    const problem = savedIdProblem(prior.sessionId, QWEN_SESSION_ID, 'a Qwen session id');
    if (problem) return fresh(ctx, env, freshWarning(VENDOR, problem, ctx.cwd));
    const id = prior.sessionId;
    if ((await findQwenTranscript(id, ctx.cwd, env)) !== null) {
      return plan([binOf(env), '--resume', id, ...ctx.args], id, prior.chosenBy, 'resumed');
    }
    // Qwen writes the transcript at the first prompt: nothing was said, so the same id starts afresh.
    if (!prior.confirmed && prior.chosenBy === 'baton') return sameId(ctx, env, id);
    const chats = join(qwenHome(env), 'projects', encodeQwenCwd(ctx.cwd), 'chats');
    return fresh(ctx, env, freshWarning(VENDOR, goneFrom(id, displayPath(chats, env)), ctx.cwd));
  },

  async exists(sessionId, cwd, env) {
    return (await findQwenTranscript(sessionId, cwd, env)) !== null;
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    return followHintedId(terminal, QWEN_SESSION_ID, async (id) => (await findQwenTranscript(id, terminal.cwd, env)) !== null, onSession);
  },

  listSessions(env) {
    return listQwenSessions(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, '--resume', sessionId];
  },
};
