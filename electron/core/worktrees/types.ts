// The shapes the worktree module takes and gives, kept apart from the code so each part of it can name them.
import type { IncludeResult } from './include.js';
import type { Ledger, LedgerEntry } from './ledger.js';

export interface WorktreesOptions {
  /** Baton's data directory: the ledger (worktrees.json) and the setup approvals (worktree-approvals.json). */
  dataDir: string;
  /** Where new worktrees go, outside any repository. Default `~/.baton/worktrees`. */
  baseDir?: string;
  /** The environment git and setup commands inherit. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface RepoInfo {
  /** The top of the checkout `dir` is in (real path): the main checkout or a linked worktree. */
  repoRoot: string;
  /** null in a repository without commits. */
  headCommit: string | null;
  /** null when HEAD is detached. */
  currentBranch: string | null;
  /** `repoRoot` is a linked worktree, not the main checkout. */
  isWorktree: boolean;
  /** The main checkout (null for a bare repository with linked worktrees). */
  mainWorktree: string | null;
  /** The repository's common git directory (real path): what identifies the repository. */
  commonDir: string;
}

export interface CreateRequest {
  /** A directory inside the checkout to branch from (the user's choice for the agent). */
  repoRoot: string;
  runName: string;
  label: string;
  /** Branch or commit to start from. Default: the checkout's current HEAD. */
  base?: string;
  /** Check out this existing branch in a new worktree instead of creating `baton/<run>/<label>`. */
  existingBranch?: string;
  /** Use this existing worktree of the repository as it is (nothing is created, copied or recorded). */
  existingWorktree?: string;
}

export interface CreatedWorktree {
  /** The checkout the request named (real path): where `.worktreeinclude` came from, and where merges go. */
  repoRoot: string;
  worktreePath: string;
  /** null only for a reused worktree whose HEAD is detached. */
  branch: string | null;
  baseCommit: string;
  /** Baton created this worktree (and so may remove it); false for a reused one. */
  created: boolean;
  /** Baton created the branch too (false: an existing branch, which Baton never deletes). */
  branchCreated: boolean;
  /** What `.worktreeinclude` copied (empty for a reused worktree). */
  included: IncludeResult;
}

export interface MergeRequest {
  repoRoot: string;
  branch: string;
  /** The branch to merge into. Default: the branch checked out in `repoRoot`. */
  into?: string;
}

export type MergeResult =
  | {
      merged: true;
      /** The merge commit (or HEAD when there was nothing to merge). */
      commit: string;
      alreadyUpToDate: boolean;
      /** The branch's worktree has uncommitted changes, which a merge of the branch does not include. */
      uncommittedInWorktree: boolean;
    }
  | { merged: false; conflicts: string[]; message: string };

export interface RemoveRequest {
  worktreePath: string;
  /** Discard uncommitted changes (the user confirmed). */
  force?: boolean;
  /** Delete Baton's branch even when it has commits not merged into the checkout's HEAD. */
  deleteUnmergedBranch?: boolean;
}

export interface RemoveResult {
  worktreePath: string;
  branch: string;
  branchDeleted: boolean;
  /** Why the branch was kept. */
  branchKept?: string;
}

export interface OwnedWorktree extends LedgerEntry {
  /** Its directory is still there. */
  exists: boolean;
}

export type CleanupResult =
  { worktreePath: string; ok: true; result: RemoveResult } | { worktreePath: string; ok: false; error: string };

export interface ReopenRequest {
  repoRoot: string;
  worktreePath: string;
  branch: string;
}

export type ReopenResult =
  | { outcome: 'existing'; worktreePath: string; branch: string | null }
  | { outcome: 'recreated'; worktreePath: string; branch: string; included: IncludeResult }
  | { outcome: 'failed'; reason: string };

/** What every part of the module shares: the environment git runs in, where new worktrees go, the ledger. */
export interface WorktreeContext {
  readonly env: NodeJS.ProcessEnv;
  readonly baseDir: string;
  readonly ledger: Ledger;
}
