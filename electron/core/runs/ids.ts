// Baton's own identities: random, lowercase, fixed-length, so they are safe in paths and easy to validate.
import { randomBytes } from 'node:crypto';

function token(): string {
  // 16 base-36 characters ≈ 82 bits: unique enough for one user's runs, short enough to read.
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += (b % 36).toString(36);
  return out;
}

export const newRunId = () => `run_${token()}`;
export const newAgentId = () => `agt_${token()}`;
export const newSnapshotId = () => `snp_${token()}`;
