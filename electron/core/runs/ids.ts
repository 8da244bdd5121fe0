// Baton's own identities: random, lowercase, fixed-length, so they are safe in paths and easy to validate.
import { randomToken } from '../vendors/kit/ids.js';

/** 16 base-36 characters ≈ 82 bits: unique enough for one user's runs, short enough to read. */
const token = () => randomToken(16);

export const newRunId = () => `run_${token()}`;
export const newAgentId = () => `agt_${token()}`;
export const newSnapshotId = () => `snp_${token()}`;
