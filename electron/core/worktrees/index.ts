// The worktree module's public surface (docs/worktrees.md).
export { Worktrees, defaultBaseDir } from './worktrees.js';
export type {
  CleanupResult,
  CreateRequest,
  CreatedWorktree,
  MergeRequest,
  MergeResult,
  OwnedWorktree,
  RemoveRequest,
  RemoveResult,
  ReopenRequest,
  ReopenResult,
  RepoInfo,
  WorktreesOptions,
} from './types.js';
export type { Changes } from './changes.js';
export type { IncludeResult } from './include.js';
export type { SetupCommand, SetupRun } from './setup.js';
export { WorktreeError, type WorktreeErrorCode } from './errors.js';
export { LEDGER_FILE, type LedgerEntry } from './ledger.js';
export { APPROVALS_FILE, SETUP_FILE } from './setup.js';
export { INCLUDE_FILE } from './include.js';
