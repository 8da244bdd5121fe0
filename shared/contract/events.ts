// Every event the core pushes to its clients.
import { z } from 'zod';
import { agentStatusSchema } from './agents.js';
import { agentId, runId, terminalId } from './fields.js';
import { searchEvents } from './search.js';
import { costEvents } from './cost.js';
import { hostEvents } from './hosts.js';
import { attentionEvents } from './attention.js';
import { lazyTable } from './lazy-table.js';

export const events = lazyTable({
  'run.changed': () => z.strictObject({ runId, deleted: z.boolean().optional() }),
  'agent.status': () =>
    z.strictObject({
      runId,
      agentId,
      status: agentStatusSchema,
      terminalId: terminalId.nullable(),
      exitCode: z.number().int().nullable(),
    }),
  'agent.session': () => z.strictObject({ runId, agentId, sessionId: z.string() }),
  'agent.warning': () => z.strictObject({ runId, agentId, message: z.string() }),
  /** The number of files an agent's worktree changed is now `files` (watched while the agent is live). */
  'agent.changes': () => z.strictObject({ runId, agentId, files: z.number().int() }),
  /** The interrupted runs, or a resume of them, changed: ask `recovery.get`. */
  'recovery.changed': () => z.strictObject({}),
  ...searchEvents,
  ...costEvents,
  ...hostEvents,
  ...attentionEvents,
});
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;
