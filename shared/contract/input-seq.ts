// Acknowledged input (docs/hosts.md, "Keys are never lost nor typed twice"): a sender that must not lose keys across a
// dropped connection names an input channel in its `agent.attach`, numbers each input frame it sends on that stream
// (frames.ts, kind 3), and keeps what the core has not yet confirmed. The core remembers, per terminal and channel,
// the highest number it wrote to the PTY: it tells it in the attach reply (the sender re-sends only what follows), it
// confirms it in batched `inputAck` messages, and it drops a frame whose number it already wrote.
import { z } from 'zod';
import { MAX_STREAM_ID } from './frames.js';

/** A sender's input channel: random, chosen by the sender once for the life of its copy of the agent's input. */
export const inputChannel = z
  .string()
  .regex(/^[A-Za-z0-9-]{16,64}$/, 'an input channel is 16 to 64 letters, digits or -');

/** An input frame's sequence number: 1 for a channel's first frame, then one more per frame (gaps are allowed). */
export const inputSeq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** What a core has written of a channel so far: 0 before its first frame. */
export const inputWritten = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Core → client: every input frame of this attach's channel up to `seq` is written to the PTY (or was a duplicate). */
export const inputAckMessageSchema = z.strictObject({
  t: z.literal('inputAck'),
  stream: z.number().int().min(1).max(MAX_STREAM_ID),
  seq: inputSeq,
});
