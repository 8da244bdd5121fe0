// Run and agent ids in the shape the store mints them, for handles a test writes by hand (a run the store does not
// know, an agent of a stranger's machine).
import { randomBytes } from 'node:crypto';

/** `n` random base-36 characters. */
export const base36 = (n: number) => {
  let out = '';
  for (const b of randomBytes(n * 2)) if (out.length < n && b < 252) out += (b % 36).toString(36);
  return out.padEnd(n, '0');
};
export const newRunId = () => `run_${base36(16)}`;
export const newAgentId = () => `agt_${base36(16)}`;
