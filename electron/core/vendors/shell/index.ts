// A plain shell (or a command of the user's): no conversation, nothing to resume, so every spawn is fresh
// (docs/vendors.md §0 "shell").
import type { AgentContext, SpawnPlan, VendorDefinition, VendorEnv } from '../adapter.js';
import { resolveBin, type BinaryFacts } from '../kit/bin.js';
import { resumePlanning, spawnPlan } from '../kit/plans.js';

/** The user's shell from `env`, else /bin/sh. */
export function defaultShell(env: VendorEnv): string {
  return env.SHELL || '/bin/sh';
}

const binary: BinaryFacts = { binEnvVar: 'BATON_SHELL_BIN', defaultBin: defaultShell, versionArgs: null };

/**
 * Said when a run with a shell is resumed: the user asked for the agent back, and a shell brings back nothing of
 * its past (no history, no running job), so the resume output, the pane and the run's history say so plainly.
 */
export const SHELL_RESUME_NOTE = 'a shell has no conversation to resume: started a new shell';

function plan(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  const argv = ctx.command ? [...ctx.command] : [resolveBin(binary, env), ...ctx.args];
  return spawnPlan(argv, null, null, 'fresh', warning);
}

export const shell: VendorDefinition<'shell'> = {
  vendor: 'shell',
  create: () => ({
    vendor: 'shell',
    displayName: 'Shell',
    sessionIdPattern: null,
    submitDelayMs: 0,
    resumeErrorTexts: [],
    ...binary,

    async spawnFresh(ctx, env) {
      return plan(ctx, env, null);
    },

    ...resumePlanning(async (ctx, _prior, env) => ({ plan: plan(ctx, env, SHELL_RESUME_NOTE), found: false })),

    async exists() {
      return false;
    },

    follow() {
      return () => {};
    },

    resumeCommand() {
      return [defaultShell(process.env)];
    },
  }),
};
