// What a snapshot records per agent so a later fork or export can cut there (docs/bundles.md §1): the length of the
// session's transcript file and the worktree's HEAD commit. Both are best effort: a vendor without transcript files, or
// a worktree git cannot read, records nothing, and a fork of that snapshot then starts from the conversation as it is.
import { stat } from 'node:fs/promises';
import type { ForkMark } from '../../../shared/contract.js';
import type { AgentRecord } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import { inheritedEnv } from '../vendors/kit/env.js';
import type { Vendors } from '../vendors/registry.js';
import { commitOf } from './worktree-git.js';
import { currentSessionId } from './views.js';

export async function forkMarkOf(agent: AgentRecord, vendors: Vendors, env: VendorEnv): Promise<ForkMark | undefined> {
  const mark: ForkMark = {};
  const sessionId = currentSessionId(agent);
  const files = vendors.get(agent.vendor)?.transcripts;
  if (sessionId && files) {
    const path = await files.locate(sessionId, agent.cwd, env).catch(() => null);
    const size = path
      ? await stat(path).then(
          (s) => s.size,
          () => null,
        )
      : null;
    if (size !== null) mark.transcriptBytes = size;
  }
  if (agent.worktree) {
    const head = await commitOf(inheritedEnv(env), agent.worktree.worktreePath, 'HEAD').catch(() => null);
    if (head) mark.headCommit = head;
  }
  return Object.keys(mark).length > 0 ? mark : undefined;
}
