// A pane header's worktree part: the agent's branch, how many files it changed (kept current by the core's
// `agent.changes` event, docs/worktrees.md), and the Changes button that opens its diff, merge and removal.
import { useEffect } from 'react';
import type { AgentView } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { shownWorktree } from '../state/worktree-calls.js';
import './worktrees.css';

export const changedFilesText = (files: number): string => `${files} changed file${files === 1 ? '' : 's'}`;

export function WorktreeBadge({ agent }: { agent: AgentView }) {
  const worktree = useBaton((s) => shownWorktree(s, agent));
  const files = useBaton((s) => s.changes[agent.id]?.files);
  const connected = useBaton((s) => s.status === 'connected');
  const loadChangeCount = useBaton((s) => s.loadChangeCount);
  const openDialog = useBaton((s) => s.openDialog);
  const path = worktree?.worktreePath;

  // The event says when the count changes; until the first one, ask once (a page just opened, a stopped agent).
  useEffect(() => {
    if (path && connected && files === undefined) void loadChangeCount(agent.id).catch(() => undefined);
  }, [path, connected, files, agent.id, loadChangeCount]);

  if (!worktree) return null;
  return (
    <>
      <span className="bt-chip bt-branch" title={`Branch ${worktree.branch}, in the worktree ${worktree.worktreePath}`}>
        <span aria-hidden="true">⎇ </span>
        <bdi>{worktree.branch}</bdi>
      </span>
      <span className="bt-pane-changes">{files === undefined ? 'changes…' : changedFilesText(files)}</span>
      <button
        type="button"
        className="bt-small-button"
        onClick={() => openDialog({ kind: 'changes', agentId: agent.id })}
      >
        Changes
      </button>
    </>
  );
}
