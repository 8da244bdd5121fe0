// A plain shell (or a command of the user's): no conversation, nothing to resume, so every spawn is fresh.
import type { AgentContext, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';

const BIN_ENV = 'BATON_SHELL_BIN';

/** The user's shell from `env`, else /bin/sh. */
export function defaultShell(env: VendorEnv): string {
  return env.SHELL || '/bin/sh';
}

// The same rule as registry.resolveBin (not imported from there: registry.ts imports this file).
const binOf = (env: VendorEnv): string => env[BIN_ENV] || defaultShell(env);

/**
 * Said when a run with a shell is resumed: the user asked for the agent back, and a shell brings back nothing of
 * its past (no history, no running job), so the resume output, the pane and the run's history say so plainly.
 */
export const SHELL_RESUME_NOTE = 'a shell has no conversation to resume: started a new shell';

function plan(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  const argv = ctx.command ? [...ctx.command] : [binOf(env), ...ctx.args];
  return { argv, env: {}, sessionId: null, chosenBy: null, outcome: 'fresh', warning };
}

export const shellAdapter: VendorAdapter = {
  vendor: 'shell',
  displayName: 'Shell',
  sessionIdPattern: null,
  submitDelayMs: 0,
  resumeErrorTexts: [],
  binEnvVar: BIN_ENV,
  defaultBin: (env) => defaultShell(env),
  versionArgs: null,

  async spawnFresh(ctx, env) {
    return plan(ctx, env, null);
  },

  async planResume(ctx, _prior, env) {
    return plan(ctx, env, SHELL_RESUME_NOTE);
  },

  async exists() {
    return false;
  },

  follow() {
    return () => {};
  },

  resumeCommand() {
    return [defaultShell(process.env)];
  },
};
