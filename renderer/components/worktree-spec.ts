// The New run dialog's isolation choice as the core takes it (docs/worktrees.md): pure, so it is tested without a page.
// An agent whose directory is in a git repository gets a worktree of its own unless the user shares the directory;
// one outside a repository (or not yet inspected) works in the directory itself.
import type { AgentSpec } from '../../shared/contract.js';
import type { RepoInspection } from '../state/worktree-calls.js';
import { validateCwd } from './validate.js';

/** What the dialog knows of a directory: being checked, in no repository, in one, or the check failed. */
export type RepoState =
  | { state: 'checking' }
  | { state: 'none' }
  | { state: 'repo'; repo: RepoInspection }
  | { state: 'error'; message: string };

export interface WorktreeChoice {
  isolation: 'own' | 'share';
  /** The base branch of a new worktree; '' = the repository's current branch (its HEAD). */
  base: string;
  /** Reuse instead of a new branch: an existing branch in a new worktree, or an existing worktree as it is. */
  reuse: 'none' | 'branch' | 'worktree';
  existingBranch: string;
  existingWorktree: string;
}

export const DEFAULT_WORKTREE_CHOICE: WorktreeChoice = {
  isolation: 'own',
  base: '',
  reuse: 'none',
  existingBranch: '',
  existingWorktree: '',
};

/** The repository, when the directory is known to be in one. */
export const repoOf = (state: RepoState | undefined): RepoInspection | null =>
  state?.state === 'repo' ? state.repo : null;

/** The spec's `worktree` and `base` for this choice; nothing (the API's 'none') outside a repository. */
export function worktreeSpec(
  choice: WorktreeChoice,
  state: RepoState | undefined,
): Pick<AgentSpec, 'worktree' | 'base'> {
  const repo = repoOf(state);
  if (!repo) return {};
  if (choice.isolation === 'share') return { worktree: 'none' };
  if (choice.reuse === 'branch') return { worktree: { existingBranch: choice.existingBranch } };
  if (choice.reuse === 'worktree') return { worktree: { existingWorktree: choice.existingWorktree } };
  // The default base is the current branch: say nothing, so the core takes HEAD as it is when the agent starts.
  return choice.base && choice.base !== repo.currentBranch
    ? { worktree: 'new', base: choice.base }
    : { worktree: 'new' };
}

/** What must be fixed before Start, or null. */
export function worktreeError(choice: WorktreeChoice, state: RepoState | undefined): string | null {
  if (!repoOf(state) || choice.isolation === 'share') return null;
  if (choice.reuse === 'branch' && choice.existingBranch === '') return 'Choose the branch to use';
  if (choice.reuse === 'worktree') {
    if (choice.existingWorktree === '') return 'Give the path of the worktree to use';
    const problem = validateCwd(choice.existingWorktree);
    if (problem) return problem.replace(/^Working directory/, 'Worktree path');
  }
  return null;
}

/** Whether this agent would get a new worktree, where the repository's setup command runs. */
export function makesNewWorktree(choice: WorktreeChoice, state: RepoState | undefined): boolean {
  return repoOf(state) !== null && choice.isolation === 'own' && choice.reuse !== 'worktree';
}

/** The setup commands to approve before Start: those the user checked, of repositories where a new worktree is made. */
export function setupsToApprove(
  rows: readonly { choice: WorktreeChoice; state: RepoState | undefined }[],
  approved: ReadonlySet<string>,
): { repoRoot: string; hash: string }[] {
  const out = new Map<string, { repoRoot: string; hash: string }>();
  for (const { choice, state } of rows) {
    const repo = repoOf(state);
    const setup = repo?.setup;
    if (!repo || !setup || setup.approved || !approved.has(setup.hash) || !makesNewWorktree(choice, state)) continue;
    out.set(setup.hash, { repoRoot: repo.repoRoot, hash: setup.hash });
  }
  return [...out.values()];
}

/** Whether the setup command of this directory's repository is among those the user approved in the dialog. */
export function setupApprovedHere(approved: ReadonlySet<string>, state: RepoState | undefined): boolean {
  const hash = repoOf(state)?.setup?.hash;
  return hash !== undefined && approved.has(hash);
}

/** The approved set with this directory's repository's setup command checked or unchecked (all its agents follow). */
export function toggleSetup(
  approved: ReadonlySet<string>,
  state: RepoState | undefined,
  on: boolean,
): ReadonlySet<string> {
  const hash = repoOf(state)?.setup?.hash;
  if (!hash) return approved;
  const next = new Set(approved);
  if (on) next.add(hash);
  else next.delete(hash);
  return next;
}
