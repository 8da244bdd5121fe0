// Conversations in the vendors' own stores, found and adopted into runs (session import).
import { z } from 'zod';
import { absolutePathSchema, labelSchema, vendorNameSchema } from '../words.js';
import { runId } from './fields.js';

/** A conversation found in a vendor's own store (started outside Baton, or by it), for import into a run. */
export const foundSessionSchema = z.lazy(() =>
  z.strictObject({
    vendor: vendorNameSchema,
    sessionId: z.string(),
    /** As the transcript records it; null when the store does not say (the session cannot be adopted without one). */
    cwd: z.string().nullable(),
    title: z.string().nullable(),
    firstPrompt: z.string().nullable(),
    lastActivity: z.iso.datetime(),
    /** A Baton run already holds this session id. */
    adoptedBy: z.strictObject({ runId, runName: z.string() }).nullable(),
  }),
);
export type FoundSession = z.infer<typeof foundSessionSchema>;

/** One session to adopt into a new run. */
export const adoptSessionSchema = z.lazy(() =>
  z.strictObject({
    vendor: vendorNameSchema,
    sessionId: z.string().min(1).max(256),
    cwd: absolutePathSchema,
    label: labelSchema.optional(),
  }),
);
export type AdoptSession = z.infer<typeof adoptSessionSchema>;
