// The hosts an agent can be put on in New run (docs/hosts.md): every listed host but this machine, asked once when a
// dialog that offers them opens.
import { useEffect, useMemo } from 'react';
import { useBaton } from '../state/store.js';

export function useHostAliases(): string[] {
  const hosts = useBaton((s) => s.hosts);
  const refreshHosts = useBaton((s) => s.refreshHosts);
  const connected = useBaton((s) => s.status === 'connected');
  useEffect(() => {
    // The list is a convenience here: when it cannot be read, the field offers this machine only.
    if (connected) refreshHosts().catch(() => undefined);
  }, [connected, refreshHosts]);
  return useMemo(() => (hosts ?? []).flatMap((h) => (h.alias === null ? [] : [h.alias])), [hosts]);
}
