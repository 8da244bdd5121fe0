// What a resume of a run would find, checked in the vendors' stores without starting any CLI.
import { stat } from 'node:fs/promises';
import type { RunSummary } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';

const isDirectory = (path: string) => stat(path).then((s) => s.isDirectory(), () => false);

export async function runHealth(run: RunManifest, isLive: (agentId: string) => boolean, env: VendorEnv, vendors: Vendors): Promise<RunSummary['health']> {
  if (run.agents.some((a) => isLive(a.id))) return 'live';
  let health: RunSummary['health'] = 'resumable';
  for (const a of run.agents) {
    if (!(await isDirectory(a.cwd))) return 'missing';
    const adapter = vendors.get(a.vendor);
    const last = a.sessionIds.at(-1);
    if (adapter?.sessionIdPattern && last?.confirmed && !(await adapter.exists(last.id, a.cwd, env))) health = 'stale';
  }
  return health;
}
