// What an agent changed in its worktree against the commit it started from: committed, staged, unstaged and
// untracked (not ignored) files alike, without touching the index (`git diff <base>` for tracked files, and
// `git diff --no-index /dev/null <file>` for each untracked one). Read-only: git takes no optional locks, so this
// can run while the agent works. The patch is capped; `truncated` says the cap was reached.
import { git, gitFailure, splitZ } from './git.js';

export interface Changes {
  /** Tracked files that differ from the base, plus untracked files. */
  filesChanged: number;
  /** Lines added and removed in tracked files, plus the lines of the untracked files the patch holds. */
  insertions: number;
  deletions: number;
  /** `git diff --stat` against the base, one line per untracked file, and the total (untracked files included). */
  stat: string;
  /** Untracked (and not ignored) files, relative to the worktree. */
  untracked: string[];
  /** Unified diff against the base, then one new-file diff per untracked file; at most `maxBytes` characters. */
  patch: string;
  truncated: boolean;
}

export const DEFAULT_MAX_PATCH = 1024 * 1024;
/** Untracked files diffed one by one beyond this count are listed but not in the patch. */
const MAX_UNTRACKED_DIFFS = 500;

export async function changesOf(
  worktree: string,
  baseCommit: string,
  env: NodeJS.ProcessEnv,
  maxBytes: number,
): Promise<Changes> {
  const opts = { cwd: worktree, env, readOnly: true };
  const diffFlags = ['--no-color', '--no-ext-diff', '--no-textconv'];
  // One pass for the counts and the summary (a fresh worktree's index is not refreshed yet, and this call may not
  // refresh it: every pass re-reads the files), one for the capped patch.
  const summary = await git(['diff', ...diffFlags, '--numstat', '--stat=200', baseCommit, '--'], opts);
  if (summary.exitCode !== 0) throw gitFailure('comparing the worktree with its base commit', summary);
  let filesChanged = 0;
  let insertions = 0;
  let deletions = 0;
  const statLines: string[] = [];
  for (const line of summary.stdout.split('\n')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(line);
    if (!m) {
      // git's own total counts tracked files only; the total is written below, untracked files included.
      if (line !== '' && !/^ \d+ files? changed/.test(line)) statLines.push(line);
      continue;
    }
    filesChanged += 1;
    insertions += m[1] === '-' ? 0 : Number(m[1]);
    deletions += m[2] === '-' ? 0 : Number(m[2]);
  }
  const others = await git(['ls-files', '-z', '--others', '--exclude-standard'], opts);
  if (others.exitCode !== 0) throw gitFailure('listing untracked files', others);
  const untracked = splitZ(others.stdout);
  filesChanged += untracked.length;

  const tracked = await git(['diff', ...diffFlags, baseCommit, '--'], { ...opts, maxBuffer: maxBytes });
  if (tracked.exitCode !== 0) throw gitFailure('reading the changes', tracked);
  let patch = tracked.stdout;
  let truncated = tracked.truncated;
  let diffed = 0;
  for (const file of untracked) {
    if (truncated) break;
    if (diffed >= MAX_UNTRACKED_DIFFS) {
      truncated = true;
      break;
    }
    diffed += 1;
    const room = maxBytes - patch.length;
    if (room <= 0) {
      truncated = true;
      break;
    }
    // Exit 1 means "they differ", which a new file always does.
    const one = await git(['diff', ...diffFlags, '--no-index', '--', '/dev/null', file], { ...opts, maxBuffer: room });
    if (one.exitCode !== 0 && one.exitCode !== 1) continue;
    patch += one.stdout;
    truncated ||= one.truncated;
    if (!one.truncated) insertions += countAdded(one.stdout);
  }
  if (patch.length > maxBytes) {
    patch = patch.slice(0, maxBytes);
    truncated = true;
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const total = ` ${plural(filesChanged, 'file')} changed, ${plural(insertions, 'insertion')}(+), ${plural(deletions, 'deletion')}(-)`;
  const lines = [...statLines, ...untracked.map((f) => ` ${f} | new, untracked`)];
  const statText = filesChanged === 0 ? '' : [...lines, total].map((l) => `${l}\n`).join('');
  return { filesChanged, insertions, deletions, stat: statText, untracked, patch, truncated };
}

function countAdded(patch: string): number {
  let n = 0;
  for (const line of patch.split('\n')) if (line.startsWith('+') && !line.startsWith('+++ ')) n += 1;
  return n;
}
