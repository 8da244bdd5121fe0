// A plain shell (or a command of the user's): no conversation, nothing to resume, so every spawn is fresh.
import type { AgentContext, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';

const BIN_ENV = 'BATON_SHELL_BIN';

/** The user's shell from `env`, else /bin/sh. */
export function defaultShell(env: VendorEnv): string {
  return env.SHELL || '/bin/sh';
}

// The same rule as registry.resolveBin (not imported from there: registry.ts imports this file).
const binOf = (env: VendorEnv): string => env[BIN_ENV] || defaultShell(env);

function plan(ctx: AgentContext, env: VendorEnv): SpawnPlan {
  const argv = ctx.command ? [...ctx.command] : [binOf(env), ...ctx.args];
  return { argv, env: {}, sessionId: null, chosenBy: null, outcome: 'fresh', warning: null };
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
    return plan(ctx, env);
  },

  async planResume(ctx, _prior, env) {
    return plan(ctx, env);
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
