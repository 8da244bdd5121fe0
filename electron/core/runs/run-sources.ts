// The agents a fork or an export starts from (docs/bundles.md §1): as a snapshot recorded them (their session id,
// directory, worktree and where to cut), with their settings from the run; or as they are now.
import type { ForkMark } from '../../../shared/contract.js';
import type { AgentRecord, RunManifest, WorktreeRecord } from '../store/types.js';
import { notFound } from './errors.js';
import type { RunRepository } from './run-repository.js';
import { currentSessionId } from './views.js';

export interface RunSource {
  agent: AgentRecord;
  sessionId: string | null;
  cwd: string;
  worktree: Pick<WorktreeRecord, 'repoRoot' | 'worktreePath' | 'branch' | 'baseCommit'> | undefined;
  /** Where the snapshot says to cut; undefined for "now". */
  mark: ForkMark | undefined;
}

export async function runSources(runs: RunRepository, run: RunManifest, snapshotId?: string): Promise<RunSource[]> {
  if (snapshotId === undefined)
    return run.agents.map((agent) => ({
      agent,
      sessionId: currentSessionId(agent),
      cwd: agent.cwd,
      worktree: agent.worktree,
      mark: undefined,
    }));
  const snap = await runs.readSnapshot(run.id, snapshotId);
  if (!snap) throw notFound(`run '${run.name}' has no snapshot ${snapshotId} (only the latest 20 are kept)`);
  const out: RunSource[] = [];
  for (const a of snap.snapshot.agents) {
    const agent = run.agents.find((x) => x.id === a.agentId);
    // An agent removed from the run since has no settings to continue with.
    if (agent)
      out.push({
        agent,
        sessionId: a.sessionId,
        cwd: a.cwd,
        worktree: a.worktree ?? agent.worktree,
        mark: a.fork,
      });
  }
  if (out.length === 0) throw notFound('none of the agents of that snapshot is in the run any more');
  return out;
}
