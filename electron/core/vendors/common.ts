// What the vendor adapters share: the binary rule, spawn plans, and the words of a resume that falls back to a
// fresh conversation. Vendor facts (flags, ids, texts, stores) stay in each vendor's own file.
import { randomUUID } from 'node:crypto';
import type { AgentContext, PriorSession, SpawnPlan, VendorEnv } from './adapter.js';

/** The first 8 characters of an id: enough to tell sessions apart in a message, never the whole secret. */
export function shortId(id: string): string {
  return `${id.slice(0, 8)}…`;
}

/**
 * A vendor CLI's binary: `facts` for the adapter (the variable that overrides it, its default, how it is asked its
 * version) and `of(env)`, the binary to run: `env[binEnvVar]`, else the default. The same rule as
 * registry.resolveBin (not imported from there: registry.ts imports the adapters).
 */
export function cliBinary(binEnvVar: string, defaultBin: string) {
  return {
    facts: { binEnvVar, defaultBin: (): string => defaultBin, versionArgs: ['--version'] as readonly string[] },
    of: (env: VendorEnv): string => env[binEnvVar] || defaultBin,
  };
}

/** A plan with no extra environment; `hints` (for follow()) only when given. */
export function spawnPlan(
  argv: string[],
  sessionId: string | null,
  chosenBy: PriorSession['chosenBy'] | null,
  outcome: SpawnPlan['outcome'],
  warning: string | null,
  hints?: Record<string, string>,
): SpawnPlan {
  return { argv, env: {}, sessionId, chosenBy, outcome, warning, ...(hints !== undefined ? { hints } : {}) };
}

/** The warning of a resume that starts a fresh conversation instead: `<vendor>: <why>; starting a fresh …`. */
export function freshWarning(vendor: string, why: string, cwd: string): string {
  return `${vendor}: ${why}; starting a fresh conversation in ${cwd}`;
}

/**
 * Why a saved id cannot even be looked up: none was saved, or it is not of the vendor's shape (`idName`, e.g.
 * "a Gemini session id"). Null when it can.
 */
export function savedIdProblem(id: string, pattern: RegExp, idName: string, thing = 'session'): string | null {
  if (id === '') return `no ${thing} was saved for this agent`;
  if (!pattern.test(id)) return `the saved ${thing} id is not ${idName}`;
  return null;
}

/** Why a saved id is not resumed when the vendor's store no longer holds it. */
export function goneFrom(id: string, where: string, thing = 'session'): string {
  return `${thing} ${shortId(id)} is not in ${where} any more`;
}

/**
 * Plans for a vendor whose session id Baton picks: `newSession(ctx, env, id)` is the vendor's argv that starts a
 * session under `id`. With `hints`, every plan carries its id for follow().
 */
export function batonPickedIds(
  newSession: (ctx: AgentContext, env: VendorEnv, sessionId: string) => string[],
  { hints }: { hints: boolean },
) {
  const plan = (argv: string[], sessionId: string, chosenBy: PriorSession['chosenBy'], outcome: SpawnPlan['outcome'], warning: string | null = null): SpawnPlan =>
    spawnPlan(argv, sessionId, chosenBy, outcome, warning, hints ? { sessionId } : undefined);
  return {
    plan,
    /** A new conversation under a new id. */
    fresh(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
      const sessionId = randomUUID();
      return plan(newSession(ctx, env, sessionId), sessionId, 'baton', 'fresh', warning);
    },
    /** Nothing was ever said under `sessionId`: the same id starts afresh. */
    sameId(ctx: AgentContext, env: VendorEnv, sessionId: string): SpawnPlan {
      return plan(newSession(ctx, env, sessionId), sessionId, 'baton', 'resumed');
    },
  };
}
