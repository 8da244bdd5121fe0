// Gemini CLI (vendors.md §3, §10): Baton picks the id (`--session-id <uuid>`), resumes with `--resume <uuid>` in
// the same cwd (Gemini looks sessions up per project), and confirms the id from the chat file the CLI writes at
// the first message. Gemini refuses `--session-id` for an id it already has, so a session with a transcript is
// always resumed, and one without is respawned under the same id only while nothing was ever said.
import { followHintedId } from './poll.js';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { batonPickedIds, cliBinary, freshWarning, goneFrom, savedIdProblem } from './common.js';
import {
  GEMINI_SESSION_ID,
  displayChatsDir,
  findGeminiSessionFiles,
  findGeminiTranscript,
  listGeminiSessions,
} from './gemini-store.js';

const VENDOR = 'gemini';
const BIN_ENV = 'BATON_GEMINI_BIN';
const DEFAULT_BIN = 'gemini';
/** How often follow() looks for the chat file, until it appears. */
export { FOLLOW_INTERVAL_MS as GEMINI_FOLLOW_INTERVAL_MS } from './poll.js';

/** The vendor facts, as data. */
export const GEMINI_FACTS = {
  sessionIdPattern: GEMINI_SESSION_ID,
  /** Keys followed at once by Enter look like a paste to Gemini: the text stays in the box (vendors.md §12.3). */
  submitDelayMs: 800,
  resumeErrorTexts: [
    /Invalid session identifier/,
    /No previous sessions found for this project/,
    /Session ID "[^"]*" already exists/,
  ] as readonly RegExp[],
  /** Exit code of every session error above. */
  sessionErrorExitCode: 42,
} as const;

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

const { plan, fresh, sameId } = batonPickedIds((ctx, env, sessionId) => [binOf(env), '--session-id', sessionId, ...ctx.args], { hints: true });

export const geminiAdapter: VendorAdapter = {
  vendor: VENDOR,
  displayName: 'Gemini CLI',
  sessionIdPattern: GEMINI_FACTS.sessionIdPattern,
  submitDelayMs: GEMINI_FACTS.submitDelayMs,
  resumeErrorTexts: GEMINI_FACTS.resumeErrorTexts,
  ...binary,

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    const problem = savedIdProblem(prior.sessionId, GEMINI_SESSION_ID, 'a Gemini session id');
    if (problem) return fresh(ctx, env, freshWarning(VENDOR, problem, ctx.cwd));
    const files = await findGeminiSessionFiles(prior.sessionId, ctx.cwd, env);
    const resume = plan([binOf(env), '--resume', prior.sessionId, ...ctx.args], prior.sessionId, prior.chosenBy, 'resumed');
    if (files.some((f) => f.chat.hasMessages)) return resume;
    if (!prior.confirmed && prior.chosenBy === 'baton') {
      // Nothing was said. A metadata-only file still makes Gemini refuse the id for a new session: resume it;
      // with no file at all the same id starts afresh.
      if (files.length > 0) return resume;
      return sameId(ctx, env, prior.sessionId);
    }
    return fresh(ctx, env, freshWarning(VENDOR, goneFrom(prior.sessionId, await displayChatsDir(ctx.cwd, env)), ctx.cwd));
  },

  async exists(sessionId, cwd, env) {
    return (await findGeminiTranscript(sessionId, cwd, env)) !== null;
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    return followHintedId(terminal, GEMINI_SESSION_ID, async (id) => (await findGeminiTranscript(id, terminal.cwd, env)) !== null, onSession);
  },

  listSessions(env) {
    return listGeminiSessions(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, '--resume', sessionId];
  },
};
