// Commands about whole runs: list, snapshot, history, rename, stop, delete.
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec } from '../command.js';
import { json, note, out, plural } from '../output.js';
import { coreNotes } from './core.js';
import { costText } from '../../../shared/cost-text.js';
import { RUN_ARG, runArg } from './common.js';

export const lsCommand: CommandSpec = {
  name: 'ls',
  args: [],
  summary: 'list runs',
  details:
    "Lists every run: its name, how many agents are live, how many need you (waiting for input or asking permission), its vendors and when it last changed. With --json, each run also lists its agents' states.",
  options: [JSON_OPTION, DATA_DIR_OPTION],
  example: 'ls --json',
  async run(ctx) {
    const client = await ctx.server();
    const runs = await client.call('run.list', {});
    if (ctx.args.has('json')) json(runs);
    else if (runs.length === 0) out('No runs yet. Start one with: baton start <run> --agent claude@<dir>');
    else
      for (const r of runs)
        out(
          `${r.name}\t${r.liveAgents}/${r.agentCount} live\t${needYouText(r.needYou)}${r.vendors.join(',')}\tupdated ${r.updatedAt}${r.cost ? `\t${costText(r.cost)}` : ''}`,
        );
    // The footer goes to standard error: a script reading the runs from standard output gets the runs only.
    if (!ctx.args.has('json')) for (const line of await coreNotes(client, ctx)) note(line);
    return 'done';
  },
};

/** "2 need you" and a tab when agents wait for the user; nothing otherwise. */
function needYouText(n: number): string {
  return n > 0 ? `${n} need${n === 1 ? 's' : ''} you\t` : '';
}

export const snapshotCommand: CommandSpec = {
  name: 'snapshot',
  args: [RUN_ARG],
  summary: "snapshot a run (its agents' sessions and screens)",
  options: [DATA_DIR_OPTION],
  example: 'snapshot demo',
  async run(ctx) {
    const snap = await (await ctx.server()).call('run.snapshot', { run: runArg(ctx) });
    out(
      `snapshot ${snap.id} at ${snap.at}: ${plural(snap.agents.length, 'agent')}${snap.cost ? ` · ${costText(snap.cost)}` : ''}`,
    );
    return 'done';
  },
};

export const eventsCommand: CommandSpec = {
  name: 'events',
  args: [RUN_ARG],
  summary: "print the run's history",
  options: [JSON_OPTION, DATA_DIR_OPTION],
  example: 'events demo',
  async run(ctx) {
    const run = runArg(ctx);
    const events = await (await ctx.server()).call('run.events', { run });
    if (ctx.args.has('json')) json(events);
    else for (const e of events) out(`${e.at}  ${e.type}${e.message ? `  ${e.message}` : ''}`);
    return 'done';
  },
};

export const renameCommand: CommandSpec = {
  name: 'rename',
  args: [RUN_ARG, { name: 'new-name', help: 'the name the run will have' }],
  summary: 'rename a run',
  options: [DATA_DIR_OPTION],
  example: "rename demo 'demo (old)'",
  async run(ctx) {
    const run = runArg(ctx);
    const renamed = await (await ctx.server()).call('run.rename', { run, name: ctx.args.required('new-name') });
    out(`renamed to '${renamed.name}'`);
    return 'done';
  },
};

export const stopCommand: CommandSpec = {
  name: 'stop',
  args: [RUN_ARG],
  summary: 'snapshot a run, then stop every agent of it',
  details: 'Snapshots the run, then stops every agent of it. The run stays: `baton resume <run>` brings it back.',
  options: [DATA_DIR_OPTION],
  example: 'stop demo',
  async run(ctx) {
    const run = await (await ctx.server()).call('run.stop', { run: runArg(ctx) });
    out(`stopped ${plural(run.agents.length, 'agent')} of '${run.name}'`);
    return 'done';
  },
};

export const deleteCommand: CommandSpec = {
  name: 'delete',
  args: [RUN_ARG],
  summary: 'stop a run and delete it with its history, snapshots and screens',
  details:
    "Stops every agent of the run, then deletes the run with its history, snapshots and screens. The vendors' own " +
    "conversations stay where they are: a handle kept from before still resumes them. The agents' worktrees stay " +
    '(`baton worktrees` lists them) unless --remove-worktrees is given: then the worktrees Baton made for the run ' +
    'are removed too (branches with unmerged commits are kept), and a worktree with uncommitted changes refuses ' +
    'the whole delete before anything is stopped.',
  options: [
    { name: 'remove-worktrees', help: "also remove the worktrees Baton made for the run's agents" },
    DATA_DIR_OPTION,
  ],
  example: 'delete demo --remove-worktrees',
  async run(ctx) {
    const run = runArg(ctx);
    const removeWorktrees = ctx.args.has('remove-worktrees');
    const client = await ctx.server();
    const paths = removeWorktrees
      ? (await client.call('run.get', { run })).agents.flatMap((a) =>
          a.worktree?.created ? [a.worktree.worktreePath] : [],
        )
      : [];
    await client.call('run.delete', { run, ...(removeWorktrees ? { removeWorktrees } : {}) });
    const left =
      paths.length === 0
        ? []
        : (await client.call('worktrees.orphans', {})).filter((o) => paths.includes(o.worktreePath));
    out(`deleted '${run}'${paths.length > 0 ? ` and ${plural(paths.length - left.length, 'worktree')}` : ''}`);
    for (const o of left) note(`kept the worktree ${o.worktreePath} (see baton worktrees)`);
    return 'done';
  },
};
