// The store's actions for remote hosts (docs/hosts.md): the Hosts list with each host's state, adding one, and
// connecting to one (which installs Baton's core there on first use). Like core-calls.ts, the only way components
// reach the core about hosts.
import type { BatonClient } from '../../shared/client.js';
import type { FolderListing, HostView, VendorInfo } from '../../shared/contract.js';
import type { Store } from './store.js';

export interface HostCalls {
  /** This machine first, then the ssh config's hosts and the ones added; null until first asked. */
  hosts: HostView[] | null;
  refreshHosts(): Promise<void>;
  addHost(host: string): Promise<HostView>;
  /** Connects (installing the core there on first use); the result's state and message say how it went. */
  connectHost(host: string): Promise<HostView>;
  /** A `host.changed` event: that host's row, replaced. */
  hostChanged(view: HostView): void;
  /** Per host alias: the vendor CLIs installed there, once asked (null: asking, or it could not be reached). */
  hostVendors: Record<string, VendorInfo[] | null>;
  /** Asks the host's core which vendor CLIs it has (connecting to it first); a failure leaves null. */
  loadHostVendors(host: string): Promise<void>;
  /** The folders of a directory on a host ('' = this machine), listed by that host's core; absent path: its home. */
  listFolders(host: string, path?: string): Promise<FolderListing>;
}

type Set = (partial: Partial<Store> | ((s: Store) => Partial<Store>)) => void;

export function hostCalls({
  set,
  get,
  client: current,
}: {
  set: Set;
  get: () => Store;
  client: () => BatonClient | null;
}): HostCalls {
  const client = (): BatonClient => {
    const c = current();
    if (!c) throw new Error('not connected to the Baton core');
    return c;
  };
  const replace = (view: HostView) =>
    set((s) => {
      const hosts = s.hosts ?? [];
      const i = hosts.findIndex((h) => h.alias === view.alias);
      // The event does not know where a host was listed from: the list's own row keeps it.
      if (i >= 0) return { hosts: hosts.map((h, j) => (j === i ? { ...view, source: h.source } : h)) };
      return { hosts: [...hosts, view] };
    });
  return {
    hosts: null,
    async refreshHosts() {
      set({ hosts: await client().call('hosts.list', {}) });
    },
    async addHost(host) {
      const view = await client().call('hosts.add', { host });
      await get().refreshHosts();
      return view;
    },
    async connectHost(host) {
      const view = await client().call('hosts.connect', { host });
      replace(view);
      return view;
    },
    hostChanged: replace,
    listFolders: (host, path) =>
      client().call('hosts.folders', { host: host || null, ...(path !== undefined ? { path } : {}) }),
    hostVendors: {},
    async loadHostVendors(host) {
      if (host in get().hostVendors) return;
      set((s) => ({ hostVendors: { ...s.hostVendors, [host]: null } }));
      try {
        const vendors = await client().call('hosts.vendors', { host });
        set((s) => ({ hostVendors: { ...s.hostVendors, [host]: vendors } }));
      } catch {
        // Asked again when the host is chosen again; the agent's start says why it cannot run there.
        set((s) => {
          const { [host]: _gone, ...rest } = s.hostVendors;
          return { hostVendors: rest };
        });
      }
    },
  };
}
