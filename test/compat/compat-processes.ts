// The compat suite's /proc readers: which processes run with a journey's HOME, an agent's process tree, and the
// check that no process of the agent outlives a stop.
import { readFileSync, readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { descendants, markOf, readProc, waitAllGone, type ProcMark } from '../helpers/processes.js';
import { type CompatVendor } from './install.js';
import { sleep } from './compat-harness.js';

// ---------- processes ----------

function environOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return null;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * Every live process whose environment has this journey's HOME (so: started by its `baton serve` or by an agent
 * of it, daemons and re-parented helpers included), except the given pids.
 */
export function processesWithHome(
  home: string,
  except: readonly number[],
): { pid: number; comm: string; cmdline: string; mark: ProcMark }[] {
  const out: { pid: number; comm: string; cmdline: string; mark: ProcMark }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || except.includes(pid)) continue;
    const env = environOf(pid);
    if (!env || !env.includes(`HOME=${home}`)) continue;
    const p = readProc(pid);
    if (!p || p.state === 'Z' || p.state === 'X') continue;
    out.push({ pid, comm: p.comm, cmdline: cmdlineOf(pid).slice(0, 200), mark: markOf(p) });
  }
  return out;
}

/** The agent's process and everything below it, now. */
export function agentTree(pid: number | null): ProcMark[] {
  if (pid === null) return [];
  const root = readProc(pid);
  return [...(root ? [markOf(root)] : []), ...descendants(pid).map(markOf)];
}

/** After a stop: the agent's whole tree is gone, and nothing else with this HOME outlives it but the server. */
export async function expectNoOrphans(
  vendor: CompatVendor,
  tree: readonly ProcMark[],
  home: string,
  serverPid: number,
  when: string,
): Promise<void> {
  const alive = await waitAllGone(tree, 10_000);
  expect(
    alive.map((m) => `${m.pid} ${m.comm ?? ''}`),
    `${vendor}: processes of the agent still alive ${when}`,
  ).toEqual([]);
  let left = processesWithHome(home, [serverPid]);
  const deadline = Date.now() + 10_000;
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(250);
    left = processesWithHome(home, [serverPid]);
  }
  const daemons = left.filter((p) => /app-server|pid-update-loop/.test(p.cmdline));
  if (vendor === 'codex')
    expect(
      daemons.map((p) => `${p.pid} ${p.cmdline}`),
      `codex app-server daemon left ${when}`,
    ).toEqual([]);
  expect(
    left.map((p) => `${p.pid} ${p.comm}: ${p.cmdline}`),
    `processes started for the ${vendor} agent still alive ${when}`,
  ).toEqual([]);
}
