// Leftover worktrees on connected hosts (docs/hosts.md "Worktrees on a host"): `worktrees.orphans` here lists this
// machine's and, labelled with the host, each connected host's, as its own core lists them (its ledger, its runs);
// `worktrees.cleanup {host}` removes a host's through its core, with that core's checks and messages. A host is never
// connected for this: one out of reach is left out of the list until it is connected again.
import type { RequestTable } from '../../../shared/contract.js';
import type { RemoteCore } from './remote-core.js';

type OrphanMethod = 'worktrees.orphans' | 'worktrees.cleanup';

export function withHostOrphans(
  local: RequestTable<OrphanMethod>,
  hosts: { connected(): string[]; core(alias: string): RemoteCore },
): RequestTable<OrphanMethod> {
  return {
    'worktrees.orphans': async (params) => {
      const here = await local['worktrees.orphans'](params);
      const there = await Promise.all(
        hosts.connected().map(async (host) => {
          try {
            // Only that machine's own (a host's core asked for its hosts' would name them itself).
            const listed = await hosts.core(host).call('worktrees.orphans', {});
            return listed.filter((o) => o.host === undefined).map((o) => ({ ...o, host }));
          } catch (err) {
            process.stderr.write(
              `baton: the leftover worktrees of ${host} could not be listed: ${(err as Error).message}\n`,
            );
            return [];
          }
        }),
      );
      return [...here, ...there.flat()];
    },
    'worktrees.cleanup': ({ paths, host }) =>
      host === undefined
        ? local['worktrees.cleanup']({ paths })
        : hosts.core(host).call('worktrees.cleanup', { paths }),
  };
}
