// Codex CLI (docs/vendors.md §2, §10, §11): the id cannot be chosen, so Baton runs the TUI without its background daemon
// (`--no-daemon`, `-c features.daemon_auto_start=false`) and discovers the thread id (follow.ts). A resume passes
// only an id of the UUID shape: `codex resume <non-UUID>` is a name lookup that can silently start a new session.
import { CODEX_ATTENTION } from './attention.js';
import type { AgentContext, SpawnPlan, VendorDefinition, VendorEnv } from '../adapter.js';
import { cliBinary, resolveBin } from '../kit/bin.js';
import { followDeps } from '../kit/claims.js';
import { shortId } from '../kit/ids.js';
import { freshWarning, resumePlanning, spawnPlan } from '../kit/plans.js';
import { CODEX_TIMINGS, followCodex } from './follow.js';
import { CodexUsage } from './usage.js';
import { codexTranscripts } from './transcripts.js';
import { CODEX_SESSION_ID, CODEX_STORE, displayCodexHome } from './store.js';
import { codexSearchText } from './search.js';

/** Keeps the TUI from handing its thread to a detached app-server daemon that would outlive it (§2 pitfall 1). */
export const CODEX_NO_DAEMON_ARGS = ['--no-daemon', '-c', 'features.daemon_auto_start=false'] as const;

const BIN = 'codex';
const binary = cliBinary('codex', BIN);

function fresh(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  return spawnPlan([resolveBin(binary, env), ...CODEX_NO_DAEMON_ARGS, ...ctx.args], null, null, 'fresh', warning);
}

export const codex: VendorDefinition<'codex'> = {
  searchText: codexSearchText,
  vendor: 'codex',
  create(vctx) {
    const deps = followDeps(vctx, 'codex', CODEX_STORE, CODEX_TIMINGS);
    const { store } = deps;
    return {
      vendor: 'codex',
      attention: CODEX_ATTENTION,
      displayName: 'Codex CLI',
      sessionIdPattern: CODEX_SESSION_ID,
      submitDelayMs: 800,
      resumeErrorTexts: [/No saved session found with ID/],
      ...binary,

      async spawnFresh(ctx, env) {
        return fresh(ctx, env, null);
      },

      ...resumePlanning(async (ctx, prior, env) => {
        if (!CODEX_SESSION_ID.test(prior.sessionId)) {
          // Never pass it on: `codex resume <non-UUID>` is a name lookup that can silently start a new session.
          const why =
            prior.sessionId === ''
              ? 'no Codex session was recorded for this agent'
              : 'the saved session id is not a Codex session id';
          return { plan: fresh(ctx, env, freshWarning('codex', why, ctx.cwd)), found: false };
        }
        if ((await store.findRollout(prior.sessionId, env)) !== null) {
          const argv = [resolveBin(binary, env), 'resume', prior.sessionId, ...CODEX_NO_DAEMON_ARGS, ...ctx.args];
          return {
            plan: spawnPlan(argv, prior.sessionId, prior.chosenBy, 'resumed', null, { sessionId: prior.sessionId }),
            found: true,
          };
        }
        // Codex cannot start a new session under a given id: say whether the rollout vanished or was never written.
        const where = `${displayCodexHome(env)}/sessions`;
        const why = prior.confirmed
          ? `is not in ${where} any more`
          : `was never saved in ${where} (no prompt was answered in it)`;
        return {
          plan: fresh(ctx, env, freshWarning('codex', `session ${shortId(prior.sessionId)} ${why}`, ctx.cwd)),
          found: false,
        };
      }),

      async exists(sessionId, _cwd, env) {
        return (await store.findRollout(sessionId, env)) !== null;
      },

      indexSessions: (env) => store.index(env),

      follow: (terminal, env, onSession) => followCodex(deps, terminal, env, onSession),

      listSessions: (env) => store.list(env),

      resumeCommand(sessionId) {
        return [BIN, 'resume', sessionId];
      },

      usage: new CodexUsage(store),
      // `codex fork <id>` starts a new thread continuing a copy of the source; follow() discovers its id.
      async planFork(ctx, sourceId, env) {
        const argv = [resolveBin(binary, env), 'fork', sourceId, ...CODEX_NO_DAEMON_ARGS, ...ctx.args];
        return spawnPlan(argv, null, null, 'resumed', null);
      },

      transcripts: codexTranscripts(store),
    };
  },
};
