// `git worktree list --porcelain`: every worktree of a repository, the main one first.
import { git, gitFailure, type GitOptions } from './git.js';

export interface WorktreeListing {
  path: string;
  head: string | null;
  /** Short branch name, null when detached or bare. */
  branch: string | null;
  bare: boolean;
  locked: boolean;
  /** Its directory is gone (git would prune it). */
  prunable: boolean;
}

export async function listWorktrees(options: GitOptions): Promise<WorktreeListing[]> {
  // -z (git ≥ 2.36) keeps any path intact; older git gets the line format, whose paths hold no newline in practice.
  let result = await git(['worktree', 'list', '--porcelain', '-z'], { ...options, readOnly: true });
  let sep = '\0';
  if (result.exitCode === 129) {
    result = await git(['worktree', 'list', '--porcelain'], { ...options, readOnly: true });
    sep = '\n';
  }
  if (result.exitCode !== 0) throw gitFailure('listing the worktrees of the repository', result);
  return parsePorcelain(result.stdout, sep);
}

export function parsePorcelain(text: string, sep: string): WorktreeListing[] {
  const out: WorktreeListing[] = [];
  let cur: WorktreeListing | null = null;
  for (const line of text.split(sep)) {
    if (line === '') {
      if (cur) out.push(cur);
      cur = null;
      continue;
    }
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? '' : line.slice(space + 1);
    if (key === 'worktree') {
      if (cur) out.push(cur);
      cur = { path: value, head: null, branch: null, bare: false, locked: false, prunable: false };
    } else if (cur) {
      if (key === 'HEAD') cur.head = value;
      else if (key === 'branch') cur.branch = value.replace(/^refs\/heads\//, '');
      else if (key === 'bare') cur.bare = true;
      else if (key === 'locked') cur.locked = true;
      else if (key === 'prunable') cur.prunable = true;
    }
  }
  if (cur) out.push(cur);
  return out;
}
