// Quicker checks of the largest answers, each giving its schema's verdict for what a core sends: the client tries one
// first, and an answer it passes is taken as it is; any answer it does not pass is checked by the schema, which stays
// the contract and names the error. A quick check may refuse more than its schema (an answer then costs the schema's
// check), never less: test/unit/quick-checks.test.ts holds every refusal of the schema against it.
// Why: zod's check of a history of 10,000 run summaries took 2–6 × the JSON.parse of the same answer (50–130 ms on
// this machine, the command line's jitless zod; 25–55 ms with zod's JIT in a page), for a list its user waits on
// (docs/performance.md "First list after open … (firstlist10)").
import { AGENT_ID, RUN_ID, VENDOR_NAMES } from '../words.js';
import { runSummarySchema } from './agents.js';
import { agentStateSchema } from './attention.js';
import type { Method } from './requests.js';

type Fields = Record<string, unknown>;

/** An object as JSON.parse makes one (zod's object check takes any non-array object; this, only plain ones). */
function isFields(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `record`'s own keys are all in `allowed` and number `count` (so, being distinct, every required one is there). */
function keysAre(record: Fields, allowed: ReadonlySet<string>, count: number): boolean {
  let n = 0;
  for (const key in record) {
    if (!Object.hasOwn(record, key) || !allowed.has(key)) return false;
    n++;
  }
  return n === count;
}

const count = (value: unknown) => Number.isSafeInteger(value);
/** Every element passes `check` (an index loop: a hole, which `every` skips, is undefined here, as to zod). */
function all(values: unknown[], check: (value: unknown) => boolean): boolean {
  for (let i = 0; i < values.length; i++) if (!check(values[i])) return false;
  return true;
}
const nonNegativeCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isString = (value: unknown) => typeof value === 'string';

const HEALTH: ReadonlySet<unknown> = new Set(runSummarySchema.shape.health.options);
const STATES: ReadonlySet<unknown> = new Set(agentStateSchema.options);
const VENDORS: ReadonlySet<unknown> = new Set(VENDOR_NAMES);

const SUMMARY_REQUIRED = [
  'id',
  'name',
  'createdAt',
  'updatedAt',
  'agentCount',
  'liveAgents',
  'vendors',
  'lastSnapshotAt',
  'health',
  'needYou',
] as const;
const SUMMARY_KEYS: ReadonlySet<string> = new Set([...SUMMARY_REQUIRED, 'cost', 'states']);
const COST_KEYS: ReadonlySet<string> = new Set(['tokens', 'usd', 'partial', 'usdPartial']);
const STATE_KEYS: ReadonlySet<string> = new Set(['agentId', 'label', 'state']);

/** costTotalSchema (contract/cost.ts). */
function isCostTotal(value: unknown): boolean {
  if (!isFields(value)) return false;
  const { tokens, usd, partial, usdPartial } = value;
  if (!keysAre(value, COST_KEYS, usdPartial === undefined ? 3 : 4)) return false;
  if (tokens !== null && !nonNegativeCount(tokens)) return false;
  if (usd !== null && !(typeof usd === 'number' && Number.isFinite(usd) && usd >= 0)) return false;
  return typeof partial === 'boolean' && (usdPartial === undefined || typeof usdPartial === 'boolean');
}

/** One entry of a summary's `states`. */
function isAgentState(value: unknown): boolean {
  if (!isFields(value) || !keysAre(value, STATE_KEYS, 3)) return false;
  const { agentId, label, state } = value;
  return typeof agentId === 'string' && AGENT_ID.test(agentId) && isString(label) && STATES.has(state);
}

/** runSummarySchema (contract/agents.ts). */
export function isRunSummary(value: unknown): boolean {
  if (!isFields(value)) return false;
  const r = value;
  const optional = (r.cost === undefined ? 0 : 1) + (r.states === undefined ? 0 : 1);
  if (!keysAre(r, SUMMARY_KEYS, SUMMARY_REQUIRED.length + optional)) return false;
  if (typeof r.id !== 'string' || !RUN_ID.test(r.id)) return false;
  if (!isString(r.name) || !isString(r.createdAt) || !isString(r.updatedAt)) return false;
  if (!count(r.agentCount) || !count(r.liveAgents) || !count(r.needYou)) return false;
  if (!Array.isArray(r.vendors) || !all(r.vendors, (v) => VENDORS.has(v))) return false;
  if (r.lastSnapshotAt !== null && !isString(r.lastSnapshotAt)) return false;
  if (!HEALTH.has(r.health)) return false;
  if (r.cost !== undefined && !isCostTotal(r.cost)) return false;
  return r.states === undefined || (Array.isArray(r.states) && all(r.states, isAgentState));
}

/** `run.list`'s result: an array of run summaries. */
export const isRunSummaryList = (value: unknown): boolean => Array.isArray(value) && all(value, isRunSummary);

/** Per method, the quick check of its result the client tries before the schema's. */
export const quickResultChecks: Partial<Record<Method, (value: unknown) => boolean>> = {
  'run.list': isRunSummaryList,
};
