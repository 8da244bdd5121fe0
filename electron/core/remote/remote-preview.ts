// The resume preview's worktree row of an agent on another host (docs/hosts.md "Worktrees on a host"): that host's
// core is asked about the worktree's folder and its repository (`worktree.inspect` there), and the answer is put the
// way a local agent's is: still there, to be re-created there from its branch, or failed (why). A host that cannot be
// asked now gets a row of its own (`unknown`): its core decides when the agent resumes.
import { BatonError, type HandlePreview } from '../../../shared/contract.js';
import type { WorktreeRecord } from '../store/types.js';
import type { RemoteCores } from './remote-launcher.js';

type PreviewWorktree = NonNullable<HandlePreview['agents'][number]['worktree']>;

export async function previewRemoteWorktree(
  cores: RemoteCores,
  host: string,
  worktree: Pick<WorktreeRecord, 'repoRoot' | 'worktreePath' | 'branch'>,
): Promise<PreviewWorktree> {
  const { branch } = worktree;
  const core = cores.core(host);
  try {
    await core.connect();
  } catch (err) {
    const why = (err as Error).message;
    return {
      branch,
      state: 'unknown',
      reason: `${host} cannot be reached now (${why}): it is checked there at resume`,
    };
  }
  try {
    const there = await inspect(core, worktree.worktreePath);
    if (there && there.currentBranch === branch) return { branch, state: 'existing', reason: null };
    const repo = await inspect(core, worktree.repoRoot);
    if (repo?.branches.includes(branch))
      return {
        branch,
        state: 'recreate',
        reason: `its worktree on ${host} is gone: it will be re-created there from branch ${branch}`,
      };
    return {
      branch,
      state: 'failed',
      reason: repo
        ? `its worktree and its branch ${branch} are gone from ${host}`
        : `the repository ${worktree.repoRoot} is not on ${host}`,
    };
  } catch (err) {
    return { branch, state: 'unknown', reason: `${host} could not say (${(err as Error).message})` };
  }
}

/** `worktree.inspect` there; a folder that is missing (or not a repository) is null: that core's own refusal. */
async function inspect(core: ReturnType<RemoteCores['core']>, cwd: string) {
  try {
    return await core.call('worktree.inspect', { cwd });
  } catch (err) {
    if (err instanceof BatonError) return null;
    throw err;
  }
}
