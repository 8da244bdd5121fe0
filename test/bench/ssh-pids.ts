// For ssh-hops.ts (BATON_BENCH_KEY_LOG=<file>): which process and thread is which hop of a key's path, written next to
// the key log as <file>.pids.json just before the keys are typed: every process then alive (pid, parent, name, command
// line, threads), and the pids the bench knows itself (this process, the local core, the test sshd).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import type { SshChain } from './ssh-chain.js';

export interface ProcSnapshot {
  pid: number;
  ppid: number;
  comm: string;
  cmdline: string;
  threads: { tid: number; comm: string }[];
}

export interface PidsFile {
  targets: string[];
  bench: number;
  localCore: number;
  sshd: number;
  remoteHome: string;
  dataDir: string;
  procs: ProcSnapshot[];
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

function snapshot(pid: number): ProcSnapshot | null {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const close = stat.lastIndexOf(')');
  const comm = stat.slice(stat.indexOf('(') + 1, close);
  const ppid = Number(stat.slice(close + 2).split(' ')[1]);
  const cmdline = (read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ').trim().slice(0, 300);
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    // Gone meanwhile.
  }
  const threads = tids.map((t) => ({ tid: Number(t), comm: (read(`/proc/${pid}/task/${t}/comm`) ?? '').trim() }));
  return { pid, ppid, comm, cmdline, threads };
}

export function recordPids(chain: SshChain, targets: string[]): void {
  const file = process.env.BATON_BENCH_KEY_LOG;
  if (!file) return;
  const procs = readdirSync('/proc')
    .filter((d) => /^[0-9]+$/.test(d))
    .map((d) => snapshot(Number(d)))
    .filter((p): p is ProcSnapshot => p !== null);
  const out: PidsFile = {
    targets,
    bench: process.pid,
    localCore: chain.server.child.pid!,
    sshd: chain.sshd.pid,
    remoteHome: chain.sshd.remoteHome,
    dataDir: chain.dataDir,
    procs,
  };
  writeFileSync(`${file}.pids.json`, JSON.stringify(out));
}
