// GitHub Copilot CLI (vendors.md §4, §10): Baton picks the id (`--session-id <uuid>`) and names the session
// `-n <run>/<label>`; the CLI writes `session-state/<id>/workspace.yaml` at start, which confirms the id.
// A conversation is resumed with `--resume=<id>`. `--session-id` of an existing id resumes it too, so a session
// that exists but was never spoken to is respawned with it; if the folder was wiped, `--session-id` would
// silently make an empty session, so that case starts fresh (new id) and says so.
import { pollUntilConfirmed } from './poll.js';
import { randomUUID } from 'node:crypto';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import {
  COPILOT_SESSION_ID,
  copilotHasConversation,
  copilotSessionExists,
  copilotSessionStateDir,
  displayPath,
  listCopilotSessions,
} from './copilot-store.js';

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

const shortId = (id: string): string => `${id.slice(0, 8)}…`;
// The same rule as registry.resolveBin (not imported from there: registry.ts imports this file).
const binOf = (env: VendorEnv): string => env[BIN_ENV] || DEFAULT_BIN;

/** A new session under `sessionId`, named after the run and the agent so Copilot's own pickers show it. */
function created(ctx: AgentContext, env: VendorEnv, sessionId: string): string[] {
  return [binOf(env), '--session-id', sessionId, '-n', `${ctx.runName}/${ctx.label}`, ...ctx.args];
}

function plan(argv: string[], sessionId: string, chosenBy: PriorSession['chosenBy'], outcome: SpawnPlan['outcome'], warning: string | null): SpawnPlan {
  return { argv, env: {}, sessionId, chosenBy, outcome, warning, hints: { sessionId } };
}

function fresh(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  const sessionId = randomUUID();
  return plan(created(ctx, env, sessionId), sessionId, 'baton', 'fresh', warning);
}

export const copilotAdapter: VendorAdapter = {
  vendor: VENDOR,
  displayName: 'GitHub Copilot CLI',
  sessionIdPattern: COPILOT_FACTS.sessionIdPattern,
  submitDelayMs: COPILOT_FACTS.submitDelayMs,
  resumeErrorTexts: COPILOT_FACTS.resumeErrorTexts,
  binEnvVar: BIN_ENV,
  defaultBin: () => DEFAULT_BIN,
  versionArgs: ['--version'],

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    if (prior.sessionId === '') {
      return fresh(ctx, env, `copilot: no session was saved for this agent; starting a fresh conversation in ${ctx.cwd}`);
    }
    if (!COPILOT_SESSION_ID.test(prior.sessionId)) {
      return fresh(ctx, env, `copilot: the saved session id is not a Copilot session id; starting a fresh conversation in ${ctx.cwd}`);
    }
    const id = prior.sessionId;
    if (await copilotSessionExists(id, env)) {
      if (await copilotHasConversation(id, env)) return plan([binOf(env), `--resume=${id}`, ...ctx.args], id, prior.chosenBy, 'resumed', null);
      // Never spoken to: `--session-id` resumes an existing id (and would create it, were it gone by now).
      return plan([binOf(env), '--session-id', id, ...ctx.args], id, prior.chosenBy, 'resumed', null);
    }
    if (!prior.confirmed && prior.chosenBy === 'baton') {
      // The CLI never got as far as writing its workspace: nothing was said, the same id starts afresh.
      return plan(created(ctx, env, id), id, 'baton', 'resumed', null);
    }
    return fresh(
      ctx,
      env,
      `copilot: session ${shortId(id)} is not in ${displayPath(copilotSessionStateDir(env), env)} any more; ` +
        `starting a fresh conversation in ${ctx.cwd}`,
    );
  },

  async exists(sessionId, _cwd, env) {
    return copilotSessionExists(sessionId, env);
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    const sessionId = terminal.hints.sessionId;
    if (!sessionId || !COPILOT_SESSION_ID.test(sessionId)) return () => {};
    return pollUntilConfirmed(sessionId, () => copilotSessionExists(sessionId, env), onSession);
  },

  listSessions(env) {
    return listCopilotSessions(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, `--resume=${sessionId}`];
  },
};
