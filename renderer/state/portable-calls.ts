// The store's actions for forks and bundles (docs/bundles.md): they ask the core, then show and select the new run
// with its outcomes beside it, as a resume does. Bundle bytes are base64 over the contract.
import type { BatonClient } from '../../shared/client.js';
import type { BundlePreview, ForkOutcome, Result, RunView } from '../../shared/contract.js';
import type { Store } from './store.js';

export interface PortableCalls {
  /** A new run continuing copies of the run's conversations (now, or at a snapshot); selects it. */
  forkRun(runId: string, snapshotId?: string, name?: string): Promise<{ run: RunView; outcomes: ForkOutcome[] }>;
  /** The run's snapshots, newest first (from its history). */
  listSnapshots(runId: string): Promise<{ id: string; at: string; message: string }[]>;
  exportBundle(runId: string, passphrase: string, snapshotId?: string): Promise<Result<'bundle.export'>>;
  inspectBundle(bundle: string, passphrase: string, map: Record<string, string>): Promise<BundlePreview>;
  /** Places and resumes the bundle as a new run; selects it. */
  importBundle(bundle: string, passphrase: string, map: Record<string, string>): Promise<Result<'bundle.import'>>;
}

export interface PortableCallDeps {
  set(partial: Partial<Store> | ((s: Store) => Partial<Store>)): void;
  get(): Store;
  client(): BatonClient | null;
}

export function portableCalls({ set, get, client: current }: PortableCallDeps): PortableCalls {
  const client = (): BatonClient => {
    const c = current();
    if (!c) throw new Error('not connected to the Baton core; waiting to reconnect');
    return c;
  };
  const shown = async <R extends { run: RunView; outcomes: Store['lastOutcomes'][string] }>(result: R): Promise<R> => {
    set((s) => ({
      runDetails: { ...s.runDetails, [result.run.id]: result.run },
      selectedRunId: result.run.id,
      lastOutcomes: { ...s.lastOutcomes, [result.run.id]: result.outcomes },
    }));
    await get().refreshRunsOf([result.run.id]);
    return result;
  };
  const mapParam = (map: Record<string, string>) => (Object.keys(map).length > 0 ? { map } : {});
  return {
    async forkRun(runId, snapshotId, name) {
      const params = { run: runId, ...(snapshotId ? { snapshot: snapshotId } : {}), ...(name ? { name } : {}) };
      return shown(await client().call('run.fork', params));
    },
    async listSnapshots(runId) {
      const events = await client().call('run.events', { run: runId });
      return events
        .filter((e) => e.type === 'snapshot' && e.snapshotId !== undefined)
        .map((e) => ({ id: e.snapshotId!, at: e.at, message: e.message ?? 'snapshot' }))
        .reverse();
    },
    exportBundle: (runId, passphrase, snapshotId) =>
      client().call('bundle.export', { run: runId, passphrase, ...(snapshotId ? { snapshot: snapshotId } : {}) }),
    inspectBundle: (bundle, passphrase, map) =>
      client().call('bundle.inspect', { bundle, passphrase, ...mapParam(map) }),
    async importBundle(bundle, passphrase, map) {
      return shown(await client().call('bundle.import', { bundle, passphrase, ...mapParam(map) }));
    },
  };
}
