// interrupted.json in the data directory: which runs' agents were running when a core ended without stopping them
// (killed, a reboot: `crash`), or which a core restart stopped in order to bring them back (`restart`). Kept until
// they are resumed or the user dismisses them, so the offer survives another restart. Read back by the next core,
// which acts on it (it starts those agents), so anything not in the shape Baton writes is ignored whole.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AGENT_ID, LIMITS, RUN_ID } from '../../../shared/words.js';
import { writeFileAtomic } from './atomic-file.js';
import { readJsonFile } from './safe-read.js';

export const INTERRUPTED_FILE = 'interrupted.json';
const MAX_BYTES = 1024 * 1024;
const MAX_RUNS = 1000;

const time = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), { error: 'must be a date' });

const interruptedSchema = z.strictObject({
  v: z.literal(1),
  reason: z.enum(['crash', 'restart']),
  at: time,
  /** Resume them as soon as a core starts (a restart asked for it, or the user's setting). */
  resumeOnStart: z.boolean(),
  runs: z
    .array(
      z.strictObject({
        runId: z.string().regex(RUN_ID),
        agentIds: z.array(z.string().regex(AGENT_ID)).min(1).max(LIMITS.agentsPerRun),
      }),
    )
    .max(MAX_RUNS),
});
export type InterruptedRecord = z.infer<typeof interruptedSchema>;
export type InterruptedRun = InterruptedRecord['runs'][number];

export async function readInterrupted(dataDir: string): Promise<InterruptedRecord | null> {
  const path = join(dataDir, INTERRUPTED_FILE);
  const read = await readJsonFile(path, MAX_BYTES, interruptedSchema);
  if (read.ok) return read.value;
  if (!read.missing) process.stderr.write(`baton: ignoring ${path}: it ${read.reason}\n`);
  return null;
}

export async function writeInterrupted(dataDir: string, record: InterruptedRecord): Promise<void> {
  await writeFileAtomic(join(dataDir, INTERRUPTED_FILE), `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

export async function removeInterrupted(dataDir: string): Promise<void> {
  await rm(join(dataDir, INTERRUPTED_FILE), { force: true });
}

/** The union of two lists of runs (a restart record and a crash found at start), agents merged per run. */
export function mergeRuns(a: readonly InterruptedRun[], b: readonly InterruptedRun[]): InterruptedRun[] {
  const byRun = new Map<string, Set<string>>();
  for (const run of [...a, ...b]) {
    const agents = byRun.get(run.runId) ?? new Set<string>();
    for (const id of run.agentIds) agents.add(id);
    byRun.set(run.runId, agents);
  }
  return [...byRun].map(([runId, agents]) => ({ runId, agentIds: [...agents] }));
}
