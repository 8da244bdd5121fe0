// How a remote host is named (docs/hosts.md), apart from the rest of hosts.ts so that agents.ts and handles.ts can
// use it without importing the hosts requests (which import core.ts, which imports handles.ts).
import { z } from 'zod';

/**
 * A host as the user names it: an alias of their ~/.ssh/config (`devbox`) or `user@host[:port]`. Never starts with
 * `-` (it is an argument of ssh, never an option) and holds no space, quote or shell character.
 */
export const HOST_ALIAS = /^(?:[A-Za-z0-9_][A-Za-z0-9._-]{0,31}@)?[A-Za-z0-9_][A-Za-z0-9._-]{0,252}(?::[0-9]{1,5})?$/;
export const hostAliasSchema = z
  .string({ error: 'host must be text' })
  .max(300, { error: 'host must be at most 300 characters' })
  .regex(HOST_ALIAS, { error: 'host must be an ssh alias or user@host[:port] (letters, digits, . _ -)' });
export type HostAlias = z.infer<typeof hostAliasSchema>;

/** A resume's host mapping: the handle's alias → the alias to use here (like repoMap for repositories). */
export const hostMapSchema = z.record(hostAliasSchema, hostAliasSchema);
