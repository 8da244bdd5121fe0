// Shared by the ssh-hosts tests: what runs on the "remote" host (the same machine, told apart by its HOME).
import { readdirSync, readFileSync } from 'node:fs';

/** How many `baton connect --stdio` bridges run from the Baton installed under `remoteHome`. */
export function stdioBridges(remoteHome: string): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const script = argv.findIndex((a) => a.startsWith(`${remoteHome}/.baton/server/`) && a.endsWith('/bin/baton.js'));
    if (script >= 0 && argv[script + 1] === 'connect' && argv.includes('--stdio')) count++;
  }
  return count;
}
