// The messages on the wire and the error they carry, whatever the transport.
import { z } from 'zod';
import { agentId, offset, terminalId } from './fields.js';
import { inputAckMessageSchema } from './input-seq.js';
import { FLOW_BATCH_MAX } from '../flow-batch.js';

export const errorCodeSchema = z.enum(['invalid', 'not-found', 'conflict', 'failed', 'unauthorized', 'internal']);
export type ErrorCode = z.infer<typeof errorCodeSchema>;
export const wireErrorSchema = z.strictObject({
  code: errorCodeSchema,
  message: z.string(),
  /** The offending field, e.g. `agents[1].sessionId`. */
  field: z.string().optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

const requestId = z.number().int().nonnegative();

export const clientMessageSchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('req'), id: requestId, method: z.string().max(64), params: z.unknown() }),
  /** The client has written everything below `offset` of this terminal into its view. */
  z.strictObject({ t: z.literal('ack'), agentId, terminalId, offset }),
  /**
   * The agent's pane came into view or left it (agent visibility): a visible pane gets the bandwidth and holds the
   * PTY when it falls behind; a hidden one gets nothing until it is shown again, then catches up (frames.ts).
   */
  z.strictObject({ t: z.literal('visibility'), agentId, terminalId, visible: z.boolean() }),
  /**
   * Protocol 9: a task's visibility changes and acks in one message (shared/flow-batch.ts), read as the messages above
   * would be, the visibility changes first.
   */
  z.strictObject({
    t: z.literal('flow'),
    views: z.array(z.strictObject({ agentId, terminalId, visible: z.boolean() })).max(FLOW_BATCH_MAX),
    acks: z.array(z.strictObject({ agentId, terminalId, offset })).max(FLOW_BATCH_MAX),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.union([
  z.strictObject({ t: z.literal('res'), id: requestId, ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ t: z.literal('res'), id: requestId, ok: z.literal(false), error: wireErrorSchema }),
  z.strictObject({ t: z.literal('evt'), name: z.string(), payload: z.unknown() }),
  // Terminal output is not JSON: it comes in binary output frames (frames.ts), by the stream id of the attach.
  /** The client fell out of the ring: replace the view with this screen; output continues from `offset`. */
  z.strictObject({
    t: z.literal('reset'),
    agentId,
    terminalId,
    offset,
    cols: z.number().int(),
    rows: z.number().int(),
    screen: z.string(),
  }),
  inputAckMessageSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** A request failed: carries the wire error so callers can show the field and rule. */
export class BatonError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(error: WireError) {
    super(error.message);
    this.name = 'BatonError';
    this.code = error.code;
    this.field = error.field;
  }
  toWire(): WireError {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

/** Turns a zod failure into one field-level error that names the field and rule, never the value. */
export function describeIssue(error: z.ZodError, prefix = ''): WireError {
  const issue = error.issues[0];
  if (!issue) return { code: 'invalid', message: 'invalid input' };
  const field = formatPath(prefix, issue.path);
  const rule = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''}` : issue.message;
  return { code: 'invalid', message: field ? `${field}: ${rule}` : rule, ...(field ? { field } : {}) };
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
