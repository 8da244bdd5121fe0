// What can go wrong with a worktree, in words a user can act on: what happened, git's own first lines when git
// said no, and what to do. `code` lets the caller map it onto the contract's error codes (docs/worktrees.md).

export type WorktreeErrorCode =
  /** The directory is not inside a git work tree (or is a bare repository). */
  | 'not-a-repo'
  /** Input refused before git ran: a bad name, a base that is not a commit, an unknown branch. */
  | 'invalid'
  /** A path leaves the directory it must stay in (`..`, a symbolic link pointing elsewhere). */
  | 'escape'
  /** The worktree (or checkout) has uncommitted changes and the operation would lose or mix them. */
  | 'dirty'
  /** The state of the repository forbids it: the branch is checked out elsewhere, a merge is in progress. */
  | 'conflict'
  /** Not a worktree Baton created: Baton never removes or cleans those. */
  | 'not-owned'
  /** The setup command was not approved (or changed since it was). */
  | 'not-approved'
  /** Git (or the setup command) ran and failed. */
  | 'failed';

export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
  constructor(
    readonly code: WorktreeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The first non-empty lines of what git printed on stderr, for an error message. */
export function firstLines(text: string, max = 3): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, max)
    .join(' / ');
}
