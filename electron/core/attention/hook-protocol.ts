// What `baton hook <vendor>` sends the core over its hook socket (docs/attention.md §4): one JSON line naming the
// agent and carrying its secret, with the vendor's own JSON, checked here with a strict schema.
import { z } from 'zod';
import { AGENT_ID, VENDOR_NAMES } from '../../../shared/words.js';
export { HOOK_ENV, HOOK_MAX_BYTES, HOOK_MAX_INPUT } from '../../../shared/hook-wire.js';

export const SECRET_PATTERN = /^[0-9a-f]{64}$/;

export const hookEnvelopeSchema = z.strictObject({
  v: z.literal(1),
  agent: z.string().regex(AGENT_ID),
  secret: z.string().regex(SECRET_PATTERN),
  vendor: z.enum(VENDOR_NAMES),
  /** The vendor's JSON on standard input (Claude, Gemini), parsed; null when there was none. */
  stdin: z.unknown(),
  /** The vendor's last argument (Codex's notify JSON), parsed when it is JSON; null when there was none. */
  arg: z.unknown(),
});
export type HookEnvelope = z.infer<typeof hookEnvelopeSchema>;

/** The core's one-word answer. */
export type HookAnswer = 'ok' | 'refused';
