// What a live Codex process holds open (docs/vendors.md §2): `pty.pid` is the node wrapper and the real codex its native
// child, which holds `thread-writer-locks/<uuid>.lock` from start-up (with --no-daemon) and its rollout once written.
// Read from /proc/<pid>/fd of every process of the tree, without starting anything.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readProcesses } from '../../pty/process-tree.js';
import { LOCK_NAME, ROLLOUT_NAME } from './store.js';

/** Whether this kernel has /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN): one stat, asked per walk. */
function hasChildrenFiles(): boolean {
  return existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
}

/** `pid` and every live descendant (the PTY child is a node wrapper; the real codex is its child). */
export function processTree(pid: number): number[] {
  const tree = [pid];
  const inTree = new Set(tree);
  const add = (child: number) => {
    if (Number.isInteger(child) && child > 0 && !inTree.has(child)) {
      inTree.add(child);
      tree.push(child);
    }
  };
  if (hasChildrenFiles()) {
    for (let i = 0; i < tree.length; i++) {
      const p = tree[i]!;
      let tasks: string[];
      try {
        tasks = readdirSync(`/proc/${p}/task`);
      } catch {
        continue; // gone
      }
      for (const t of tasks) {
        try {
          for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').split(' '))
            if (c !== '') add(Number(c));
        } catch {
          /* the thread ended */
        }
      }
    }
    return tree;
  }
  // No `children` files: walk the ppid links of every process instead.
  const kids = new Map<number, number[]>();
  for (const p of readProcesses()) if (!p.zombie) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), p.pid]);
  for (let i = 0; i < tree.length; i++) for (const c of kids.get(tree[i]!) ?? []) add(c);
  return tree;
}

export interface HeldFiles {
  /** Thread ids whose writer lock a process of the tree holds open. */
  locks: string[];
  /** Rollouts a process of the tree holds open: id → path. */
  rollouts: Map<string, string>;
}

/**
 * The writer locks (`<home>/thread-writer-locks/<uuid>.lock`) and rollouts that the processes of the tree under
 * `rootPid` hold open, read from /proc/<pid>/fd. Only files of this Codex home (`homes`: its path forms) count.
 */
export async function heldFiles(rootPid: number, homes: readonly string[]): Promise<HeldFiles> {
  const locks: string[] = [];
  const rollouts = new Map<string, string>();
  for (const pid of processTree(rootPid)) {
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = await readlink(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (target.endsWith(' (deleted)')) continue;
      const name = basename(target);
      const dir = target.slice(0, target.length - name.length - 1);
      const lock = LOCK_NAME.exec(name);
      if (lock && homes.some((h) => dir === join(h, 'thread-writer-locks'))) {
        if (!locks.includes(lock[1]!)) locks.push(lock[1]!);
        continue;
      }
      const rollout = ROLLOUT_NAME.exec(name);
      if (rollout && homes.some((h) => dir.startsWith(`${join(h, 'sessions')}/`))) rollouts.set(rollout[1]!, target);
    }
  }
  return { locks, rollouts };
}
