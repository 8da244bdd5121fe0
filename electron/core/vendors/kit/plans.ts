// Spawn plans, and the words of a resume that falls back to a fresh conversation (docs/architecture.md §9 `planResume`).
// Vendor facts (flags, ids, texts, stores) stay in each vendor's own folder.
import type { PriorSession, SpawnPlan, VendorAdapter } from '../adapter.js';
import { shortId } from './ids.js';

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

/**
 * An adapter's two resume entries from its one planner, which says what the store showed beside the plan: the core
 * plans with `planResumeChecked` and so reads the store once per agent (docs/architecture.md §5); `planResume` is
 * the plan alone.
 */
export function resumePlanning(
  planChecked: VendorAdapter['planResumeChecked'],
): Pick<VendorAdapter, 'planResume' | 'planResumeChecked'> {
  return {
    planResumeChecked: planChecked,
    planResume: async (ctx, prior, env) => (await planChecked(ctx, prior, env)).plan,
  };
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

/** Nothing was ever said under the id, and Baton chose it: the same id can start afresh (docs/vendors.md §10 rule 3). */
export function neverSaid(prior: PriorSession): boolean {
  return !prior.confirmed && prior.chosenBy === 'baton';
}
