// Processes found by an environment variable that every process of a soak round inherits: a job that left its
// session (setsid) or was re-parented to init is still found, which walking parent links would miss.
import { readFileSync, readdirSync } from 'node:fs';
import { readProc } from '../helpers/processes.js';

export function taggedPids(name: string, value: string, except: readonly number[] = []): number[] {
  const needle = `${name}=${value}`;
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (except.includes(pid) || pid === process.pid) continue;
    let env: string;
    try {
      env = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!env.split('\0').includes(needle)) continue;
    const proc = readProc(pid);
    if (proc && proc.state !== 'Z' && proc.state !== 'X') out.push(pid);
  }
  return out;
}

/** Kills what a failed round left behind, so the next round and the machine start clean. */
export function killTagged(name: string, value: string, except: readonly number[] = []): void {
  for (const pid of taggedPids(name, value, except)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
}
