// How the agents of one run.start or run.resume are started: together, except those that need git's lock.

/**
 * Starts every item at once, except those `inWorktree`, which go one after the other (git takes a lock on the
 * repository to add a worktree) alongside the rest. Results in the items' order. Starting a run's agents together
 * lets their spawns and their store writes overlap: the writes of one run are coalesced (RunStore.save), so 25
 * agents cost a few manifest writes, not 25 in a row.
 */
export async function startTogether<T, R>(
  items: readonly T[],
  inWorktree: (item: T) => boolean,
  start: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const serial = items.map((item, i) => ({ item, i })).filter(({ item }) => inWorktree(item));
  await Promise.all([
    ...items.map(async (item, i) => {
      if (!inWorktree(item)) results[i] = await start(item);
    }),
    (async () => {
      for (const { item, i } of serial) results[i] = await start(item);
    })(),
  ]);
  return results;
}
