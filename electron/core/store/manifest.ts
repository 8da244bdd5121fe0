// A run's manifest file (runs/<runId>/run.json): its strict schema, used both before a write and after a read,
// and the reading of one from disk, where anything may be found.
import { z } from 'zod';
import { agentStatusSchema, attentionSettingsSchema, hostAliasSchema } from '../../../shared/contract.js';
import {
  AGENT_ID,
  LIMITS,
  RUN_ID,
  SNAPSHOT_ID,
  storedLabelSchema,
  storedPathSchema,
  storedRunNameSchema,
  vendorNameSchema,
} from '../../../shared/words.js';
import { readJsonFile, readJsonFileSync, type JsonRead } from './safe-read.js';
import type { AgentRecord, RunManifest } from './types.js';

export const MANIFEST = 'run.json';
/** Far above a real manifest (32 agents with every argument at its limit is about 1 MiB). */
export const MANIFEST_MAX_BYTES = 8 * 1024 * 1024;

// Bounds on what no request can set directly, so a hostile file cannot make a string Baton later echoes huge.
const time = z
  .string()
  .max(64, { error: 'must be a date' })
  .refine((s) => !Number.isNaN(Date.parse(s)), { error: 'must be a date' });
const arg = z.string().max(LIMITS.extraArgMaxChars);

const sessionIdRecordSchema = z.strictObject({
  id: z.string().max(1024),
  chosenBy: z.enum(['baton', 'vendor']),
  seenAt: time,
  confirmed: z.boolean(),
});

const worktreeRecordSchema = z.strictObject({
  repoRoot: storedPathSchema,
  worktreePath: storedPathSchema,
  branch: z.string().min(1).max(255),
  baseCommit: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, { error: 'must be a commit id' }),
  created: z.boolean(),
  baseBranch: z.string().min(1).max(255).nullable(),
});

const agentRecordSchema: z.ZodType<AgentRecord> = z.strictObject({
  id: z.string().regex(AGENT_ID, { error: 'agent id is not a Baton agent id' }),
  // Lenient where the inputs became stricter later: a run recorded before stays in the history.
  label: storedLabelSchema,
  vendor: vendorNameSchema,
  cwd: storedPathSchema,
  args: z.array(arg).max(LIMITS.extraArgs),
  command: z.array(arg).max(LIMITS.extraArgs).nullable(),
  sessionIds: z.array(sessionIdRecordSchema),
  status: agentStatusSchema,
  exitCode: z.number().int().nullable(),
  warning: z
    .string()
    .max(16 * 1024)
    .nullable(),
  startedAt: time.nullable(),
  worktree: worktreeRecordSchema.optional(),
  host: hostAliasSchema.optional(),
});

export const runManifestSchema: z.ZodType<RunManifest> = z
  .strictObject({
    v: z.literal(1, { error: 'manifest version must be 1' }),
    id: z.string().regex(RUN_ID, { error: 'run id is not a Baton run id' }),
    name: storedRunNameSchema,
    createdAt: time,
    updatedAt: time,
    agents: z.array(agentRecordSchema),
    lastSnapshot: z
      .strictObject({
        id: z.string().regex(SNAPSHOT_ID, { error: 'snapshot id is not a Baton snapshot id' }),
        at: time,
      })
      .nullable(),
    attention: attentionSettingsSchema.optional(),
  })
  .superRefine((m, ctx) => {
    // Two agents with one id would make every lookup and snapshot of the run ambiguous.
    const seen = new Set<string>();
    for (const [i, a] of m.agents.entries()) {
      if (seen.has(a.id)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'id'], message: 'appears twice' });
      seen.add(a.id);
    }
  });

/** The manifest in `path`, or why it cannot be used; a manifest must be in the directory named by its id. */
export async function readManifest(path: string, dirName: string): Promise<JsonRead<RunManifest>> {
  const read = await readJsonFile(path, MANIFEST_MAX_BYTES, runManifestSchema);
  if (read.ok && read.value.id !== dirName)
    return { ok: false, missing: false, reason: 'its id does not match its directory' };
  return read;
}

/** `readManifest` without the thread pool (the store's open: run-dirs.ts). */
export function readManifestSync(path: string, dirName: string): JsonRead<RunManifest> {
  const read = readJsonFileSync(path, MANIFEST_MAX_BYTES, runManifestSchema);
  if (read.ok && read.value.id !== dirName)
    return { ok: false, missing: false, reason: 'its id does not match its directory' };
  return read;
}

/** As written to disk: indented, so a user repairing a run by hand can read it. */
export function manifestText(m: RunManifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** Newest `updatedAt` first; ties (and dates that do not parse) by text, then by id, so the order is stable. */
export function newestFirst(a: RunOrderKey, b: RunOrderKey): number {
  return byTimes(a, Date.parse(a.updatedAt), b, Date.parse(b.updatedAt));
}

/** What places a run in the list's order. */
export type RunOrderKey = Pick<RunManifest, 'updatedAt' | 'id'>;

/**
 * `runs` in the order of `newestFirst`, each date parsed once: sorting 10,000 runs parsed two dates per comparison,
 * about 270,000 parses on every open (docs/performance.md "Cold start").
 */
export function sortedNewestFirst(runs: Iterable<RunManifest>): RunManifest[] {
  const keyed = [...runs].map((m) => ({ m, t: Date.parse(m.updatedAt) }));
  keyed.sort((a, b) => byTimes(a.m, a.t, b.m, b.t));
  return keyed.map((k) => k.m);
}

function byTimes(a: RunOrderKey, ta: number, b: RunOrderKey, tb: number): number {
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return tb - ta;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
