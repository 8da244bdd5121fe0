// Every Codex rollout the store holds, read in one pass (`VendorAdapter.indexSessions`, docs/performance.md "Core"):
// checking 10,000 runs' health with `findRollout` per session listed today's and yesterday's folders and then every
// day folder once per session. The index answers what `findRollout` would: a rollout file named for the id in any
// day folder, or the path a live process was seen holding (where `findRollout` looks first).
import type { SessionIndex, VendorEnv } from '../adapter.js';
import { sessionIdsIn } from '../kit/session-walk.js';
import { isFile } from '../kit/store-fs.js';

export interface RolloutTree {
  /** Every day folder of the store. */
  dayDirs(env: VendorEnv): Promise<string[]>;
  /** Rollout file names, the id as group 1. */
  readonly rolloutName: RegExp;
  /** The store's root (`sessions/`). */
  readonly root: (env: VendorEnv) => string;
}

/** The rollouts of every day folder, and the `known` paths (id → path) that are still files under the root. */
export async function indexCodexRollouts(
  tree: RolloutTree,
  known: ReadonlyMap<string, string>,
  env: VendorEnv,
): Promise<SessionIndex> {
  const ids = await sessionIdsIn(await tree.dayDirs(env), {
    idOf: (name) => tree.rolloutName.exec(name)?.[1] || null,
    // A link counts when it leads to a file, as `isFile` says.
    counts: (entry, path) => entry.isFile() || (entry.isSymbolicLink() && isFile(path)),
  });
  const root = `${tree.root(env)}/`;
  for (const [id, path] of known) if (!ids.has(id) && path.startsWith(root) && (await isFile(path))) ids.add(id);
  return { has: (sessionId) => ids.has(sessionId) };
}
