// Commands about the agents' own git worktrees (docs/worktrees.md): what an agent changed, merging its branch, and
// the worktrees Baton made that no run owns any more (plus approving a repository's setup command).
import { resolve } from 'node:path';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { displayArgv, json, note, out, plural } from '../output.js';
import { agentByLabel, LABEL_ARG, labelArg, RUN_ARG, runArg } from './common.js';

export const changesCommand: CommandSpec = {
  name: 'changes',
  args: [RUN_ARG, LABEL_ARG],
  summary: 'what an agent changed in its worktree (a summary, or --patch)',
  details:
    'Prints what the agent changed in its own worktree since the commit it was made from: its commits, staged, ' +
    'unstaged and new (untracked) files alike, as a per-file summary; with --patch, the diff itself. Read-only, ' +
    'so it is safe while the agent works. Fails for an agent that has no worktree of its own.',
  options: [
    { name: 'patch', help: 'print the diff (new files included) instead of the summary' },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'changes demo planner --patch',
  async run(ctx) {
    const runRef = runArg(ctx);
    const label = labelArg(ctx) ?? ctx.args.required('label');
    const client = await ctx.server();
    const { agent } = await agentByLabel(client, runRef, label);
    const changes = await client.call('agent.changes', { agentId: agent.id });
    if (ctx.args.has('json')) json(changes);
    else if (ctx.args.has('patch')) process.stdout.write(changes.patch);
    else {
      out(
        `${agent.label}: branch ${changes.branch}, since ${changes.baseCommit.slice(0, 8)}: ${plural(changes.files, 'file')} changed (+${changes.insertions} -${changes.deletions})`,
      );
      if (changes.stat !== '') process.stdout.write(changes.stat);
    }
    if (changes.truncated) note('the patch is cut short (it is larger than 1 MiB)');
    return 'done';
  },
};

export const mergeCommand: CommandSpec = {
  name: 'merge',
  args: [RUN_ARG, LABEL_ARG],
  summary: "merge an agent's branch into the branch its worktree was made from",
  details:
    "Merges the agent's worktree branch (its commits; uncommitted work is not carried, and is said so) into the " +
    'branch its worktree was made from, in the checkout that has that branch (your main checkout), with a merge ' +
    'commit. Refused while that checkout has uncommitted changes. A conflict is aborted, so the checkout is as it ' +
    'was: the files are listed and the command exits 1.',
  options: [JSON_OPTION, DATA_DIR_OPTION],
  example: 'merge demo planner',
  async run(ctx) {
    const runRef = runArg(ctx);
    const label = labelArg(ctx) ?? ctx.args.required('label');
    const client = await ctx.server();
    const { agent } = await agentByLabel(client, runRef, label);
    const result = await client.call('agent.merge', { agentId: agent.id });
    if (ctx.args.has('json')) json(result);
    else if (result.merged) out(result.message);
    else for (const file of result.conflicts) out(`conflict: ${file}`);
    if (!result.merged) throw new Error(result.message);
    return 'done';
  },
};

export const worktreesCommand: CommandSpec = {
  name: 'worktrees',
  args: [],
  summary: 'list the worktrees Baton made that no run owns (--prune removes them)',
  details:
    'Lists the worktrees Baton created whose run is gone (deleted without --remove-worktrees, say), with their ' +
    'branch and whether they hold uncommitted changes. --prune removes them: only worktrees Baton created, never ' +
    'one with uncommitted changes, and a branch with unmerged commits is kept. --approve-setup DIR approves the ' +
    'setup command (.baton/setup.json) of the repository DIR is in, so new worktrees run it; it prints the command first.',
  options: [
    { name: 'prune', help: 'remove every worktree listed (exits 1 if one had to be kept)' },
    { name: 'approve-setup', value: 'DIR', directory: true, help: "approve the setup command of DIR's repository" },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'worktrees --prune',
  async run(ctx) {
    const approveDir = ctx.args.value('approve-setup');
    if (approveDir !== undefined && ctx.args.has('prune'))
      throw new UsageError('--approve-setup and --prune are separate: give one');
    const client = await ctx.server();
    if (approveDir !== undefined) {
      const repo = await client.call('worktree.inspect', { cwd: resolve(approveDir) });
      if (!repo) throw new Error(`${approveDir} is not inside a git repository with commits`);
      if (!repo.setup)
        throw new Error(`the repository ${repo.repoRoot} has no usable setup command (.baton/setup.json)`);
      out(`setup command of ${repo.repoRoot}: ${displayArgv(repo.setup.command)}`);
      await client.call('worktree.approveSetup', { repoRoot: repo.repoRoot, hash: repo.setup.hash });
      out('approved: new worktrees of this repository run it before their agent starts');
      return 'done';
    }
    const orphans = await client.call('worktrees.orphans', {});
    if (!ctx.args.has('prune')) {
      if (ctx.args.has('json')) json(orphans);
      else if (orphans.length === 0) out('No worktrees left over: every worktree Baton made belongs to a run.');
      else
        for (const o of orphans)
          out(`${o.worktreePath}\t${o.branch}\t${o.repoRoot}${o.dirty ? '\tuncommitted changes' : ''}`);
      return 'done';
    }
    const results =
      orphans.length === 0 ? [] : await client.call('worktrees.cleanup', { paths: orphans.map((o) => o.worktreePath) });
    if (ctx.args.has('json')) json(results);
    else if (results.length === 0) out('No worktrees left over: nothing to remove.');
    else for (const r of results) out(r.removed ? r.message : `kept ${r.worktreePath}: ${r.message}`);
    const kept = results.filter((r) => !r.removed);
    if (kept.length > 0)
      throw new Error(
        `${plural(kept.length, 'worktree')} kept (see above): commit or discard their changes, then prune again`,
      );
    return 'done';
  },
};
