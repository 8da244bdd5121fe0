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

export const hostViewSchema = z.strictObject({
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
});
export type HostView = z.infer<typeof hostViewSchema>;

export const hostRequests = {
  /** This machine, the hosts of ~/.ssh/config and the ones added, each with its state. */
  'hosts.list': { params: z.strictObject({}), result: z.array(hostViewSchema) },
  /** Adds `user@host[:port]` (or an alias) to the list; nothing is connected yet. */
  'hosts.add': { params: z.strictObject({ host: hostAliasSchema }), result: hostViewSchema },
  /**
   * Connects (ssh, BatchMode), checks Node ≥ 20 there and installs Baton's core at this version if it is missing;
   * progress goes out as `host.changed` events. Resolves with the host's state (an error names the step).
   */
  'hosts.connect': { params: z.strictObject({ host: hostAliasSchema }), result: hostViewSchema },
  /** The vendor CLIs installed on that host, as its own core detects them (connecting first). */
  'hosts.vendors': { params: z.strictObject({ host: hostAliasSchema }), result: z.array(vendorInfoSchema) },
} as const;

export const hostEvents = {
  /** A host's state or progress changed. */
  'host.changed': hostViewSchema,
} as const;
