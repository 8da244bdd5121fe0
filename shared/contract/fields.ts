// The field schemas the contract's messages are built from; internal to shared/contract/ (the entry does not re-export them).
import { z } from 'zod';
import { AGENT_ID, LIMITS, RUN_ID, SNAPSHOT_ID } from '../words.js';

export const agentId = z.string().regex(AGENT_ID, { error: 'agentId is not a Baton agent id' });
export const runId = z.string().regex(RUN_ID);
export const snapshotId = z.string().regex(SNAPSHOT_ID);
/** A run named by its id or its name. */
export const runRef = z.string().min(1).max(LIMITS.nameMaxChars);
export const offset = z.number().int().nonnegative();
export const terminalId = z.string().regex(/^trm_[0-9a-z]{16}$/);
export const isoTime = z.string();
/** The handle text travels only inside requests; it is a secret, never echoed back. */
export const handleText = z
  .string()
  .min(1)
  .max(LIMITS.handleMaxBytes * 2);
