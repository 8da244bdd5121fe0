// What Baton created, as its ledger records it: the only worktrees it will ever remove or clean up.
import { basename, dirname, join } from 'node:path';
import { WorktreeError } from './errors.js';
import type { Ledger, LedgerEntry } from './ledger.js';
import { checkedAbsolute, exists, isSymlink, realOrNull } from './paths.js';
import type { OwnedWorktree } from './types.js';

/** The ledger entry of a path Baton created; refuses escapes, links and anything Baton did not create. */
export async function ownedEntry(ledger: Ledger, worktreePath: string): Promise<LedgerEntry> {
  const path = checkedAbsolute(worktreePath, 'worktreePath');
  if (await isSymlink(path))
    throw new WorktreeError('escape', `${path} is a symbolic link: give the worktree's own path`);
  const real = await realOrNull(path);
  const parentReal = await realOrNull(dirname(path));
  const candidates = [path, real, parentReal === null ? null : join(parentReal, basename(path))];
  const entry = (await ledger.list()).find((e) => candidates.includes(e.path));
  if (!entry) {
    throw new WorktreeError(
      'not-owned',
      `Baton did not create ${path} (it is not in its list of worktrees): Baton leaves it alone; remove it yourself with git worktree remove if you want`,
    );
  }
  if (real !== null && real !== entry.path)
    throw new WorktreeError(
      'escape',
      `${path} now resolves to ${real}, outside the worktree Baton created: not touched`,
    );
  return entry;
}

export async function forget(ledger: Ledger, path: string): Promise<void> {
  await ledger.update((entries) => {
    const i = entries.findIndex((e) => e.path === path);
    if (i >= 0) entries.splice(i, 1);
  });
}

/** Every worktree Baton created and has not removed, with whether its directory is still there. */
export async function listOwned(ledger: Ledger): Promise<OwnedWorktree[]> {
  const entries = await ledger.list();
  return Promise.all(entries.map(async (e) => ({ ...e, exists: await exists(e.path) })));
}

/** Baton's worktrees that no run claims (`ownedByRuns`: the worktree paths recorded in runs). */
export async function orphans(ledger: Ledger, ownedByRuns: ReadonlySet<string>): Promise<OwnedWorktree[]> {
  const claimed = new Set<string>();
  for (const p of ownedByRuns) {
    claimed.add(p);
    const real = await realOrNull(p);
    if (real !== null) claimed.add(real);
  }
  return (await listOwned(ledger)).filter((e) => !claimed.has(e.path));
}
