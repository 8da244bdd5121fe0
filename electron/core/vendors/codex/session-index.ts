// Every Codex rollout the store holds, read in one pass (`VendorAdapter.indexSessions`, docs/performance.md "Core"):
// checking 10,000 runs' health with `findRollout` per session listed today's and yesterday's folders and then every
// day folder once per session. The index answers what `findRollout` would: a rollout file named for the id in any
// day folder, or the path a live process was seen holding (where `findRollout` looks first).
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionIndex, VendorEnv } from '../adapter.js';
import { isFile } from '../kit/store-fs.js';

export interface RolloutTree {
  /** Every day folder of the store. */
  dayDirs(env: VendorEnv): Promise<string[]>;
  /** Rollout file names, the id as group 1. */
  readonly rolloutName: RegExp;
  /** The store's root (`sessions/`). */
  readonly root: (env: VendorEnv) => string;
}

/** Ids of the rollout files of one day folder (a link counts when it leads to a file, as `isFile` says). */
async function idsIn(dir: string, name: RegExp): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const ids: string[] = [];
  for (const e of entries) {
    const id = name.exec(e.name)?.[1];
    if (id && (e.isFile() || (e.isSymbolicLink() && (await isFile(join(dir, e.name)))))) ids.push(id);
  }
  return ids;
}

/** The rollouts of every day folder, and the `known` paths (id → path) that are still files under the root. */
export async function indexCodexRollouts(
  tree: RolloutTree,
  known: ReadonlyMap<string, string>,
  env: VendorEnv,
): Promise<SessionIndex> {
  const ids = new Set<string>();
  const days = await tree.dayDirs(env);
  const BATCH = 16;
  for (let i = 0; i < days.length; i += BATCH)
    for (const found of await Promise.all(days.slice(i, i + BATCH).map((d) => idsIn(d, tree.rolloutName))))
      for (const id of found) ids.add(id);
  const root = `${tree.root(env)}/`;
  for (const [id, path] of known) if (!ids.has(id) && path.startsWith(root) && (await isFile(path))) ids.add(id);
  return { has: (sessionId) => ids.has(sessionId) };
}
