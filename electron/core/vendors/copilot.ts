// GitHub Copilot CLI (vendors.md §4, §10): Baton picks the id (`--session-id <uuid>`) and names the session
// `-n <run>/<label>`; the CLI writes `session-state/<id>/workspace.yaml` at start, which confirms the id.
// A conversation is resumed with `--resume=<id>`. `--session-id` of an existing id resumes it too, so a session
// that exists but was never spoken to is respawned with it; if the folder was wiped, `--session-id` would
// silently make an empty session, so that case starts fresh (new id) and says so.
import { followHintedId } from './poll.js';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { batonPickedIds, cliBinary, freshWarning, goneFrom, savedIdProblem } from './common.js';
import { COPILOT_SESSION_ID, copilotHasConversation, copilotSessionExists, copilotSessionStateDir, listCopilotSessions } from './copilot-store.js';
import { displayPath } from './store-fs.js';

const VENDOR = 'copilot';
const BIN_ENV = 'BATON_COPILOT_BIN';
const DEFAULT_BIN = 'copilot';
/** How often follow() looks for the session folder, until it appears. */
export { FOLLOW_INTERVAL_MS as COPILOT_FOLLOW_INTERVAL_MS } from './poll.js';

/** The vendor facts, as data. */
export const COPILOT_FACTS = {
  sessionIdPattern: COPILOT_SESSION_ID,
  submitDelayMs: 300,
  resumeErrorTexts: [/No session, task, or name matched/, /not a valid UUID, so a new session cannot be created/] as readonly RegExp[],
  /** Exit code of the session errors above. */
  sessionErrorExitCode: 1,
} as const;

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

/** A new session under `sessionId`, named after the run and the agent so Copilot's own pickers show it. */
const { plan, fresh, sameId } = batonPickedIds(
  (ctx, env, sessionId) => [binOf(env), '--session-id', sessionId, '-n', `${ctx.runName}/${ctx.label}`, ...ctx.args],
  { hints: true },
);

export const copilotAdapter: VendorAdapter = {
  vendor: VENDOR,
  displayName: 'GitHub Copilot CLI',
  sessionIdPattern: COPILOT_FACTS.sessionIdPattern,
  submitDelayMs: COPILOT_FACTS.submitDelayMs,
  resumeErrorTexts: COPILOT_FACTS.resumeErrorTexts,
  ...binary,

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    const problem = savedIdProblem(prior.sessionId, COPILOT_SESSION_ID, 'a Copilot session id');
    if (problem) return fresh(ctx, env, freshWarning(VENDOR, problem, ctx.cwd));
    const id = prior.sessionId;
    if (await copilotSessionExists(id, env)) {
      if (await copilotHasConversation(id, env)) return plan([binOf(env), `--resume=${id}`, ...ctx.args], id, prior.chosenBy, 'resumed');
      // Never spoken to: `--session-id` resumes an existing id (and would create it, were it gone by now).
      return plan([binOf(env), '--session-id', id, ...ctx.args], id, prior.chosenBy, 'resumed');
    }
    // The CLI never got as far as writing its workspace: nothing was said, the same id starts afresh.
    if (!prior.confirmed && prior.chosenBy === 'baton') return sameId(ctx, env, id);
    return fresh(ctx, env, freshWarning(VENDOR, goneFrom(id, displayPath(copilotSessionStateDir(env), env)), ctx.cwd));
  },

  async exists(sessionId, _cwd, env) {
    return copilotSessionExists(sessionId, env);
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    return followHintedId(terminal, COPILOT_SESSION_ID, (id) => copilotSessionExists(id, env), onSession);
  },

  listSessions(env) {
    return listCopilotSessions(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, `--resume=${sessionId}`];
  },
};
