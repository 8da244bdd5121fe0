// A new agent's worktree, before its CLI starts: what run.start or agent.add asked for, checked before the run
// changes; then the worktree created (or an existing one taken), and the repository's setup run if approved.
import { relative } from 'node:path';
import { BatonError, type AgentSpec } from '../../../shared/contract.js';
import { isBranchName } from '../handle/branch-name.js';
import type { WorktreeRecord } from '../store/types.js';
import { realOrNull } from '../worktrees/paths.js';
import { listWorktrees } from '../worktrees/porcelain.js';
import type { CreatedWorktree, RepoInfo } from '../worktrees/index.js';
import { conflict, invalid } from './errors.js';
import { branchExists, commitOf, cwdIn } from './worktree-git.js';
import { asBatonError, includeNotices } from './worktree-messages.js';
import type { AgentWorktreeContext, PreparedWorktree, WorktreeIntent } from './worktree-types.js';

const SETUP_LINES_SHOWN = 30;

/**
 * What run.start or agent.add asked for one agent, checked before the run changes: a repository where a
 * worktree is wanted, an existing branch, a base that is a commit. The user typed `cwd` (its real path is
 * `realCwd`), so an error may name it. null: the agent works in its directory as it is.
 */
export async function checkIntent(
  ctx: AgentWorktreeContext,
  spec: AgentSpec,
  realCwd: string,
  field: string,
  who: string,
): Promise<WorktreeIntent | null> {
  const { worktrees, env } = ctx;
  const mode = spec.worktree ?? 'none';
  if (mode === 'none') {
    if (spec.base !== undefined)
      throw invalid('a base is for a new worktree: ask for worktree "new" too', `${field}.base`);
    return null;
  }
  let info: RepoInfo | null;
  try {
    info = await worktrees.inspect(realCwd);
  } catch (err) {
    throw asBatonError(err, `${field}.worktree`);
  }
  if (!info) {
    throw new BatonError({
      code: 'invalid',
      field: `${field}.worktree`,
      message: `${who}: ${spec.cwd} is not inside a git repository, so it cannot have a worktree of its own: choose a folder of a git checkout, or start it without a worktree`,
    });
  }
  if (info.headCommit === null) {
    throw new BatonError({
      code: 'invalid',
      field: `${field}.worktree`,
      message: `${who}: the repository at ${info.repoRoot} has no commits yet: make a first commit, then start the agent`,
    });
  }
  const intent: WorktreeIntent = {
    repoRoot: info.repoRoot,
    subdir: relative(info.repoRoot, realCwd),
    baseBranch: info.currentBranch,
    ...(spec.worktreeName !== undefined ? { runName: spec.worktreeName } : {}),
  };
  if (typeof mode === 'object' && 'existingBranch' in mode) {
    if (spec.base !== undefined)
      throw invalid('an existing branch is checked out as it is: it takes no base', `${field}.base`);
    if (!isBranchName(mode.existingBranch) || !(await branchExists(env, info.repoRoot, mode.existingBranch))) {
      throw invalid(
        `${who}: there is no branch ${JSON.stringify(mode.existingBranch.slice(0, 100))} in ${info.repoRoot}`,
        `${field}.worktree.existingBranch`,
      );
    }
    intent.existingBranch = mode.existingBranch;
  } else if (typeof mode === 'object' && 'existingWorktree' in mode) {
    const real = await realOrNull(mode.existingWorktree);
    const list = await listWorktrees({ cwd: info.repoRoot, env }).catch(() => []);
    const listed =
      real !== null &&
      (
        await Promise.all(list.map(async (w) => !w.bare && (w.path === real || (await realOrNull(w.path)) === real)))
      ).some(Boolean);
    if (!listed) {
      throw invalid(
        `${who}: ${mode.existingWorktree} is not a worktree of the repository at ${info.repoRoot} (git worktree list does not show it)`,
        `${field}.worktree.existingWorktree`,
      );
    }
    intent.existingWorktree = mode.existingWorktree;
  }
  if (spec.base !== undefined) {
    const commit = await commitOf(env, info.repoRoot, spec.base);
    if (commit === null)
      throw invalid(
        `${who}: base ${JSON.stringify(spec.base.slice(0, 100))} is not a branch or commit of ${info.repoRoot}`,
        `${field}.base`,
      );
    intent.base = spec.base;
    intent.baseBranch =
      isBranchName(spec.base) && (await branchExists(env, info.repoRoot, spec.base)) ? spec.base : null;
  }
  return intent;
}

/** A new agent's worktree: created (or an existing one taken), its include files copied, its setup run if approved. */
export async function createPrepared(
  ctx: AgentWorktreeContext,
  runName: string,
  label: string,
  intent: WorktreeIntent,
): Promise<PreparedWorktree> {
  let made: CreatedWorktree;
  try {
    made = await ctx.worktrees.create({
      repoRoot: intent.repoRoot,
      runName: intent.runName ?? runName,
      label,
      ...(intent.base !== undefined ? { base: intent.base } : {}),
      ...(intent.existingBranch !== undefined ? { existingBranch: intent.existingBranch } : {}),
      ...(intent.existingWorktree !== undefined ? { existingWorktree: intent.existingWorktree } : {}),
    });
  } catch (err) {
    throw asBatonError(err);
  }
  if (made.branch === null)
    throw conflict(
      `the worktree ${made.worktreePath} has a detached HEAD: check out a branch there first (git switch <branch>)`,
    );
  const worktree: WorktreeRecord = {
    repoRoot: made.repoRoot,
    worktreePath: made.worktreePath,
    branch: made.branch,
    baseCommit: made.baseCommit,
    created: made.created,
    baseBranch: intent.baseBranch === made.branch ? null : intent.baseBranch,
  };
  const notices = [
    made.created
      ? `worktree ${made.worktreePath} on new branch ${made.branch} (from ${made.baseCommit.slice(0, 8)})`
      : `working in the existing worktree ${made.worktreePath} (branch ${made.branch})`,
    ...includeNotices(made.included),
  ];
  const where = await cwdIn(made.worktreePath, intent.subdir);
  const warnings = where.warning ? [where.warning] : [];
  if (made.created) {
    const setup = await runSetup(ctx, made.worktreePath, made.repoRoot);
    notices.push(...setup.notices);
    if (setup.warning) warnings.push(setup.warning);
  }
  return { worktree, cwd: where.cwd, notices, warning: warnings.length > 0 ? warnings.join(' ') : null, message: null };
}

/** The setup command of the repository, run in the new worktree only if the user approved it. */
export async function runSetup(
  ctx: AgentWorktreeContext,
  worktreePath: string,
  repoRoot: string,
): Promise<{ notices: string[]; warning: string | null }> {
  const { worktrees } = ctx;
  let command;
  try {
    command = await worktrees.setupCommandOf(repoRoot);
  } catch (err) {
    return { notices: [], warning: `the setup command was not run: ${(err as Error).message}` };
  }
  if (!command) return { notices: [], warning: null };
  const shown = command.argv.join(' ');
  if (!(await worktrees.isApproved(command.hash))) {
    return {
      notices: [],
      warning: `the setup command (${shown}) of ${repoRoot} was not run: it has not been approved. Approve it in the New run dialog, or with: baton worktrees --approve-setup ${repoRoot}`,
    };
  }
  const started = Date.now();
  try {
    const ran = await worktrees.runSetup(worktreePath);
    if (!ran) return { notices: [], warning: null };
    const lines = ran.output.split(/\r?\n/).filter((l) => l.trim() !== '');
    const shownLines = lines.slice(-SETUP_LINES_SHOWN).map((l) => `setup | ${l}`);
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const head = `setup: ${shown}${lines.length > SETUP_LINES_SHOWN ? ` (last ${SETUP_LINES_SHOWN} lines of its output)` : ''}`;
    if (ran.ok) return { notices: [head, ...shownLines, `setup finished in ${took}`], warning: null };
    const why = ran.timedOut ? `timed out after ${took}` : `failed with exit code ${String(ran.exitCode)}`;
    return { notices: [head, ...shownLines], warning: `the setup command (${shown}) ${why}; the agent started anyway` };
  } catch (err) {
    return { notices: [], warning: `the setup command (${shown}) was not run: ${(err as Error).message}` };
  }
}
