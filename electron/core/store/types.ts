// What the store keeps per run. The manifest is the current state; events are the history.
import type { AgentStatus, VendorName } from '../../../shared/words.js';
import type { AttentionSettings, RunEvent, SessionIdRecord, SnapshotView } from '../../../shared/contract.js';

export interface AgentRecord {
  id: string;
  label: string;
  vendor: VendorName;
  cwd: string;
  args: string[];
  command: string[] | null;
  /** Every vendor session id the agent had, oldest first; the last one is current. */
  sessionIds: SessionIdRecord[];
  status: AgentStatus;
  exitCode: number | null;
  warning: string | null;
  startedAt: string | null;
  /** The agent's own git worktree (docs/worktrees.md); absent when it works in `cwd` as it is. */
  worktree?: WorktreeRecord;
  /** The host it runs on, an ssh alias or user@host[:port] (docs/hosts.md); absent: this machine. */
  host?: string;
}

/** Where an agent's worktree is and where it came from; `cwd` lies inside `worktreePath`. */
export interface WorktreeRecord {
  /** The checkout the worktree was made from (real path): its `.worktreeinclude`, setup command, and where merges go. */
  repoRoot: string;
  worktreePath: string;
  branch: string;
  /** The commit the worktree started from: what `agent.changes` compares against. */
  baseCommit: string;
  /** Baton created it (and may remove it); false for an existing worktree the user chose, or one found from a handle. */
  created: boolean;
  /** The branch `agent.merge` merges into: the base branch, or the checkout's branch when it was made; null: unknown. */
  baseBranch: string | null;
}

export interface RunManifest {
  v: 1;
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  agents: AgentRecord[];
  lastSnapshot: { id: string; at: string } | null;
  /** Which states notify, and what is muted (docs/attention.md); absent: the defaults. */
  attention?: AttentionSettings;
}

export interface StoredScreen {
  agentId: string;
  label: string;
  cols: number;
  rows: number;
  text: string;
  serialized: string;
}

export type { RunEvent, SnapshotView };
