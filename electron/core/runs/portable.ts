// The requests of forks and bundles (docs/bundles.md), by their names in the contract: run.fork (RunForks) and
// bundle.export / inspect / import. Bundles travel base64 inside the request and its reply, capped at BUNDLE_MAX_BYTES.
import { BUNDLE_MAX_BYTES, type RequestTable } from '../../../shared/contract.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import type { AgentSupervisor } from './agent-supervisor.js';
import type { AgentWorktrees } from './agent-worktrees.js';
import { exportBundle } from './bundle-export.js';
import { importPlan } from './bundle-import.js';
import { openChecked, planBundle, previewOf } from './bundle-plan.js';
import { invalid } from './errors.js';
import { RunForks, type ForkMethod } from './run-fork.js';
import type { RunRepository } from './run-repository.js';
import type { RunService } from './run-service.js';
import type { Snapshots } from './snapshots.js';
import type { Announce } from './views.js';

export type PortableMethod = ForkMethod | 'bundle.export' | 'bundle.inspect' | 'bundle.import';

export interface PortableDeps {
  runs: RunRepository;
  supervisor: AgentSupervisor;
  snapshots: Snapshots;
  vendors: Vendors;
  env: VendorEnv;
  worktrees: AgentWorktrees;
  announce: Announce;
  service: RunService;
}

function bundleBytes(base64: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > BUNDLE_MAX_BYTES) throw invalid('the bundle is larger than Baton accepts', 'bundle');
  return bytes;
}

export function portableRequests(d: PortableDeps): RequestTable<PortableMethod> {
  const forks = new RunForks(d.runs, d.supervisor, d.vendors, d.env, d.worktrees, d.announce, (a) =>
    d.service.attention.view(a),
  );
  const open = async (bundle: string, passphrase: string, map: Record<string, string> = {}) =>
    planBundle(await openChecked(bundleBytes(bundle), passphrase, d.vendors), map, d.vendors, d.env);
  return {
    ...forks.requests,
    'bundle.export': async ({ run: ref, snapshot, passphrase }) => {
      const run = d.runs.find(ref);
      // Ids a vendor has written since the follower last looked are confirmed first, as for a handle.
      if (snapshot === undefined) await d.snapshots.confirmed(run.id);
      const out = await exportBundle(d, d.runs.find(run.id), snapshot, passphrase);
      return { bundle: out.bytes.toString('base64'), fileName: out.fileName, agents: out.agents };
    },
    'bundle.inspect': async ({ bundle, passphrase, map }) => previewOf(await open(bundle, passphrase, map)),
    'bundle.import': async ({ bundle, passphrase, map, name }) => {
      const plan = await open(bundle, passphrase, map);
      const result = await importPlan(
        plan,
        {
          env: d.env,
          isTaken: (n) => d.runs.findByName(n) !== undefined,
          resume: (handle, repoMap) => d.service.requests['run.resume']({ handle, repoMap }),
        },
        name,
      );
      await d.runs.history(result.run.id, { type: 'forked', message: 'imported from a bundle' });
      return result;
    },
  };
}
