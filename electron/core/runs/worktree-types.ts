// The shapes the runs' side of worktrees passes around: what was asked, where a resumed worktree is, what is ready.
import type { AgentSpec } from '../../../shared/contract.js';
import type { WorktreeRecord } from '../store/types.js';
import type { Worktrees } from '../worktrees/index.js';

/** The worktree requests the host answers through this part (the agent.* ones go through the run service). */
export type WorktreeMethod = 'worktree.inspect' | 'worktree.approveSetup' | 'worktrees.orphans' | 'worktrees.cleanup';

/** What a run.start or agent.add asked for one agent, checked: everything `create` needs. */
export interface WorktreeIntent {
  repoRoot: string;
  /** The folder the user chose, relative to the top of its checkout ('' for the top). */
  subdir: string;
  existingBranch?: string;
  existingWorktree?: string;
  base?: string;
  /** Where `agent.merge` will merge: the base when it is a branch, else the checkout's branch. */
  baseBranch: string | null;
  /** The run name its branch and folder are named after, when not its run's (a remote agent's local run). */
  runName?: string;
}

/**
 * What run.start or agent.add asked for an agent on another host: passed on to that host's core, which checks it and
 * creates the worktree there, as it does for its own agents (docs/hosts.md "Worktrees on a host").
 */
export interface HostWorktreeIntent {
  onHost: true;
  worktree: Exclude<NonNullable<AgentSpec['worktree']>, 'none'>;
  base?: string;
}

/** A repository root on this machine → where it is now (run.resume's `repoMap`). */
export type RepoMap = Readonly<Record<string, string>>;

/** Where a resumed agent's worktree is, without anything written (the preview, and the plan before the start). */
export type WorktreeAssessment =
  | { state: 'existing'; repoRoot: string; worktreePath: string; branch: string; cwd: string }
  | { state: 'recreate'; repoRoot: string; branch: string; subdir: string; samePath: boolean }
  | { state: 'failed'; reason: string }
  /** The handle names a path that leads elsewhere: the whole resume is refused (never with the path). */
  | { state: 'refused'; field: 'repoRoot' | 'worktreePath' | 'cwd'; reason: string };

/** A worktree made ready for an agent to start in it. */
export interface PreparedWorktree {
  worktree: WorktreeRecord;
  cwd: string;
  /** Lines for the agent's pane, written before its CLI's first output (what was created, copied, set up). */
  notices: string[];
  /** Something the user must know (a setup command not run or failed, a folder not in the worktree). */
  warning: string | null;
  /** For the resume outcome: the worktree was re-created. */
  message: string | null;
}

/** What the worktree helpers of the runs share: the worktree module and the environment git runs in. */
export interface AgentWorktreeContext {
  readonly worktrees: Worktrees;
  readonly env: NodeJS.ProcessEnv;
}
