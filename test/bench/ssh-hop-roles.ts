// Which process is which hop of a key's path (ssh-hops.ts), from the process snapshot ssh-pids.ts wrote before the
// keys were typed; and each target's path, as the processes a key wakes in turn.
import type { PidsFile, ProcSnapshot } from './ssh-pids.js';

export interface Roles {
  bench: number;
  /** Role → the pids (main threads) that play it. */
  byRole: Map<string, number[]>;
  /** Thread id → its process's role (the main thread's own id included). */
  threadRole: Map<number, { role: string; main: boolean }>;
}

/** The processes a key to `target` wakes, in order; null for a target without one here (host B, a base build). */
const CHAINS: Record<string, string[]> = {
  remote: ['local core', 'ssh master', 'sshd', 'host core', 'agent', 'host core', 'sshd', 'ssh master', 'local core'],
  'plain ssh': ['ssh cat', 'ssh master', 'sshd', 'cat', 'sshd', 'ssh master', 'ssh cat'],
  'local agent': ['local core', 'local agent', 'local core'],
};

export function chainOf(target: string, roles: Roles): string[] | null {
  const chain = CHAINS[target];
  return chain && chain.every((r) => (roles.byRole.get(r) ?? []).length > 0) ? chain : null;
}

export function rolesFrom(pids: PidsFile): Roles {
  const children = (pid: number) => pids.procs.filter((p) => p.ppid === pid);
  const descendants = (pid: number): ProcSnapshot[] => children(pid).flatMap((c) => [c, ...descendants(c.pid)]);
  const hostCores = pids.procs.filter(
    (p) => p.cmdline.includes(`${pids.remoteHome}/.baton/server/`) && p.cmdline.includes(' serve '),
  );
  const echo = (p: ProcSnapshot) => p.cmdline.includes('setRawMode');
  const found: [string, ProcSnapshot[]][] = [
    ['local core', pids.procs.filter((p) => p.pid === pids.localCore)],
    ['ssh master', pids.procs.filter((p) => p.cmdline.startsWith('ssh: ') && p.cmdline.includes(pids.dataDir))],
    ['sshd', descendants(pids.sshd).filter((p) => p.comm === 'sshd')],
    ['host core', hostCores],
    ['agent', hostCores.flatMap((c) => children(c.pid)).filter(echo)],
    ['local agent', children(pids.localCore).filter(echo)],
    ['ssh cat', children(pids.bench).filter((p) => p.comm === 'ssh')],
    ['cat', descendants(pids.sshd).filter((p) => p.comm === 'cat')],
    ['bench', pids.procs.filter((p) => p.pid === pids.bench)],
  ];
  const byRole = new Map(found.map(([role, procs]) => [role, procs.map((p) => p.pid)]));
  const threadRole = new Map<number, { role: string; main: boolean }>();
  for (const [role, procs] of found)
    for (const p of procs) for (const t of p.threads) threadRole.set(t.tid, { role, main: t.tid === p.pid });
  return { bench: pids.bench, byRole, threadRole };
}

/** The kernel's own threads: a PTY's flip-buffer work, softirqs, an interrupt taken while idle. */
export function kernelThread(names: Map<number, string>, tid: number): boolean {
  return tid === 0 || /^(kworker|ksoftirqd|swapper|rcu)/.test(names.get(tid) ?? '');
}

/** A thread's name for the CPU-time list: its role (other threads of a role apart), else its name. */
export function roleOf(tid: number, roles: Roles, names: Map<number, string>): string {
  const r = roles.threadRole.get(tid);
  if (r) return r.main ? r.role : `${r.role} (other threads)`;
  const name = names.get(tid) ?? `tid ${tid}`;
  return /^kworker/.test(name) ? 'kworker' : tid === 0 ? 'idle' : name;
}
