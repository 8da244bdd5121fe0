// Remote hosts reached over the user's own OpenSSH (docs/hosts.md): how a host is named, what state it is in, and the
// requests and event about them. An agent on a host carries the host's alias; no alias means this machine.
import { z } from 'zod';
import { vendorInfoSchema } from './core.js';
import { hostAliasSchema } from './host-alias.js';

export * from './host-alias.js';

/**
 * `connected`: its core answers; `connecting`: ssh is connecting (or Baton is installing its core there);
 * `unreachable`: ssh failed, `message` is ssh's own error; `needs-setup`: reachable, but Baton's core at this version
 * is not installed there yet (or Node is missing: `message` says so); `idle`: listed, not connected yet.
 */
export const hostStateSchema = z.enum(['local', 'idle', 'connecting', 'connected', 'unreachable', 'needs-setup']);
export type HostState = z.infer<typeof hostStateSchema>;

export const hostViewSchema = z.lazy(() =>
  z.strictObject({
    /** null: this machine. */
    alias: hostAliasSchema.nullable(),
    /** Where ssh goes (`user@hostname:port` from `ssh -G`); null for this machine or before it was resolved. */
    target: z.string().nullable(),
    /** Listed in ~/.ssh/config (`config`), added by the user (`added`), or this machine (`local`). */
    source: z.enum(['local', 'config', 'added']),
    state: hostStateSchema,
    /** The last error or what is happening now (an install step), in ssh's or npm's words where they were the cause. */
    message: z.string().nullable(),
    /** The login directory there (what `~` means in a directory on that host); null until first connected. */
    home: z.string().nullable(),
    /** How many agents of this core's runs are live there. */
    liveAgents: z.number().int().nonnegative(),
  }),
);
export type HostView = z.infer<typeof hostViewSchema>;

/** The folders of one directory of a machine, for the working-directory picker. */
export const folderListingSchema = z.lazy(() =>
  z.strictObject({
    /** The directory listed, absolute and normalized. */
    path: z.string().max(4096),
    /** Its parent; null at the root. */
    parent: z.string().max(4096).nullable(),
    /** The user's home on that machine (what `~` means there). */
    home: z.string().max(4096),
    /** The names of the folders in it (links to folders included), hidden ones last. */
    folders: z.array(z.string().max(1024)).max(2000),
    /** More folders than listed. */
    truncated: z.boolean(),
  }),
);
export type FolderListing = z.infer<typeof folderListingSchema>;

export const hostRequests = {
  /** This machine, the hosts of ~/.ssh/config and the ones added, each with its state. */
  'hosts.list': () => ({ params: z.strictObject({}), result: z.array(hostViewSchema) }),
  /** Adds `user@host[:port]` (or an alias) to the list; nothing is connected yet. */
  'hosts.add': () => ({ params: z.strictObject({ host: hostAliasSchema }), result: hostViewSchema }),
  /**
   * Connects (ssh, BatchMode), checks Node ≥ 20 there and installs Baton's core at this version if it is missing;
   * progress goes out as `host.changed` events. Resolves with the host's state (an error names the step).
   */
  'hosts.connect': () => ({ params: z.strictObject({ host: hostAliasSchema }), result: hostViewSchema }),
  /** The vendor CLIs installed on that host, as its own core detects them (connecting first). */
  'hosts.vendors': () => ({ params: z.strictObject({ host: hostAliasSchema }), result: z.array(vendorInfoSchema) }),
  /**
   * The folders of a directory on a host (null: this machine), as that host's own core lists them. `path`: absolute,
   * `~` or `~/…` (that host's home); absent: the home.
   */
  'hosts.folders': () => ({
    params: z.strictObject({ host: hostAliasSchema.nullable(), path: z.string().min(1).max(4096).optional() }),
    result: folderListingSchema,
  }),
} as const;

export const hostEvents = {
  /** A host's state or progress changed. */
  'host.changed': () => hostViewSchema,
} as const;
