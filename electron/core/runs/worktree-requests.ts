// The worktree.* and worktrees.* requests: a folder's repository for the New run dialog, setup approval, and the
// worktrees Baton created that no run records any more (listed, and removed on request).
import type { RequestTable, Result } from '../../../shared/contract.js';
import { conflict, invalid } from './errors.js';
import type { RunReader } from './run-repository.js';
import { branches, changedCount } from './worktree-git.js';
import { asBatonError, removedMessage } from './worktree-messages.js';
import type { AgentWorktreeContext, WorktreeMethod } from './worktree-types.js';

export function worktreeRequests(ctx: AgentWorktreeContext, runs: RunReader): RequestTable<WorktreeMethod> {
  const { worktrees, env } = ctx;
  return {
    'worktree.inspect': async ({ cwd }) => {
      const info = await worktrees.inspect(cwd).catch((err: unknown) => {
        throw asBatonError(err);
      });
      // A repository without commits cannot give a worktree: for the dialog it is as good as none.
      if (!info || info.headCommit === null) return null;
      let setup: NonNullable<Result<'worktree.inspect'>>['setup'] = null;
      try {
        const command = await worktrees.setupCommandOf(info.repoRoot);
        if (command)
          setup = { command: command.argv, hash: command.hash, approved: await worktrees.isApproved(command.hash) };
      } catch {
        // A setup file that cannot be used is reported when a worktree is made (a warning in the agent's pane).
      }
      return {
        repoRoot: info.repoRoot,
        currentBranch: info.currentBranch,
        headCommit: info.headCommit,
        branches: await branches(env, info.repoRoot),
        setup,
      };
    },
    'worktree.approveSetup': async ({ repoRoot, hash }) => {
      let command;
      try {
        command = await worktrees.setupCommandOf(repoRoot);
      } catch (err) {
        throw asBatonError(err, 'repoRoot');
      }
      if (!command) throw invalid('this repository has no setup command (.baton/setup.json)', 'repoRoot');
      if (command.hash !== hash)
        throw conflict(
          'the setup command of this repository is not the one shown (it changed, or the hash is wrong): look at it again, then approve it',
        );
      await worktrees.approve(hash);
      return {};
    },
    'worktrees.orphans': async () => {
      const orphans = await worktrees.orphans(claimedPaths(runs));
      return Promise.all(
        orphans.map(async (o) => ({
          worktreePath: o.path,
          repoRoot: o.repoRoot,
          branch: o.branch,
          dirty: o.exists ? (await changedCount(env, o.path)) > 0 : false,
        })),
      );
    },
    'worktrees.cleanup': async ({ paths }) => {
      const claimed = claimants(runs);
      const out: Result<'worktrees.cleanup'> = [];
      for (const worktreePath of paths) {
        const owner = claimed.get(worktreePath);
        if (owner) {
          out.push({
            worktreePath,
            removed: false,
            message: `agent '${owner.label}' of run '${owner.run}' works there: remove it with that agent (or delete the run with its worktrees)`,
          });
          continue;
        }
        const [done] = await worktrees.cleanup([worktreePath]);
        if (!done || !done.ok)
          out.push({ worktreePath, removed: false, message: done && !done.ok ? done.error : 'not removed' });
        else out.push({ worktreePath, removed: true, message: removedMessage(done.result) });
      }
      return out;
    },
  };
}

/** Every worktree path a run's agent records (any run, live or not): what cleanup leaves alone. */
function claimedPaths(runs: RunReader): Set<string> {
  return new Set(claimants(runs).keys());
}

function claimants(runs: RunReader): Map<string, { run: string; label: string }> {
  const out = new Map<string, { run: string; label: string }>();
  for (const run of runs.peek())
    for (const a of run.agents) if (a.worktree) out.set(a.worktree.worktreePath, { run: run.name, label: a.label });
  return out;
}
