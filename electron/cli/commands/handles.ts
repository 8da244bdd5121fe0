// Commands about handles: print one, preview one, resume from one.
import { resolve } from 'node:path';
import type { RpcClient } from '../../../shared/client.js';
import type { HandlePreview, ResumeOutcome, SessionCheck } from '../../../shared/contract.js';
import { LIMITS } from '../../../shared/words.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandContext, type CommandSpec, type OptionSpec } from '../command.js';
import { shownArgument, UsageError } from '../errors.js';
import { expandHome } from '../home.js';
import { displayArgv, json, note, out, plural } from '../output.js';
import { readHandle } from '../stdin.js';
import { notAHandle, RUN_ARG, runArg } from './common.js';

/** A directory typed relative to where the user is, as the absolute path the server needs. */
const absolute = (dir: string): string => resolve(dir);

const REPO_MAP_OPTION: OptionSpec = {
  name: 'repo-map',
  value: 'OLD=NEW',
  repeatable: true,
  help: 'the repository the handle names at OLD is at NEW on this machine: its agents and their worktrees follow (repeat for more; ~ is expanded)',
};

/** `--repo-map OLD=NEW …` as run.resume's repoMap; undefined when none was given. */
function repoMapOf(ctx: CommandContext): Record<string, string> | undefined {
  const given = ctx.args.values('repo-map');
  if (given.length === 0) return undefined;
  const map: Record<string, string> = {};
  for (const pair of given) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new UsageError(`--repo-map takes OLD=NEW (two directories), not ${shownArgument(pair, ctx.env)}`);
    const [from, to] = [pair.slice(0, eq), pair.slice(eq + 1)].map((p) =>
      absolute(expandHome(p, ctx.env, '--repo-map')),
    );
    map[from!] = to!;
  }
  return map;
}

const CWD_OPTION: OptionSpec = {
  name: 'cwd',
  value: 'DIR',
  directory: true,
  help: 'the directory for a handle that carries none (a caw handle); ~ and ~user are expanded',
};

export const handleCommand: CommandSpec = {
  name: 'handle',
  args: [RUN_ARG],
  summary: "print the run's handle (or one agent's)",
  details:
    'Prints the handle that resumes the run (every agent) on any machine with the same vendors and directories, ' +
    'and nothing else, so it can go straight to a file. A handle holds session ids: keep it as you would a password.',
  options: [{ name: 'agent', value: 'LABEL', help: 'print the handle of this agent only' }, DATA_DIR_OPTION],
  example: 'handle demo > demo.handle',
  async run(ctx) {
    const run = runArg(ctx);
    const agentOption = ctx.args.value('agent');
    const agent = agentOption === undefined ? undefined : notAHandle(agentOption, '--agent');
    const { handle } = await (
      await ctx.server()
    ).call('run.handle', { run, ...(agent !== undefined ? { agent } : {}) });
    process.stdout.write(`${handle}\n`);
    return 'done';
  },
};

/** Each check of the preview in the user's words: what resume will do with that agent. */
const CHECK_WORDS: Record<SessionCheck, string> = {
  found: 'conversation found',
  missing: 'conversation missing: will start fresh',
  'no-session': 'no conversation (starts anew)',
  'cwd-missing': 'directory missing: cannot start',
  'cwd-unsafe': 'directory refused: cannot start',
  remote: 'on its host: checked there when it starts',
};

const WORKTREE_WORDS: Record<NonNullable<HandlePreview['agents'][number]['worktree']>['state'], string> = {
  existing: 'found',
  recreate: 'gone: will be re-created from its branch',
  failed: 'cannot be used (the agent will fail)',
  unknown: 'not checked',
};

/**
 * Per agent: label, vendor, the directory it will really run in (marked when no run here has used it), the check
 * and the command. The user pasted the handle, so its paths may be shown to them (never in an error line).
 */
function printPreview(preview: HandlePreview, cwdGiven: boolean, write: (line: string) => void = out): void {
  write(`run '${preview.runName}'${preview.knownRun ? ' (in the history)' : ' (new on this machine)'}`);
  if (preview.needsCwd && !cwdGiven) write('  this handle carries no directory: give one with --cwd DIR');
  for (const a of preview.agents) {
    const what = a.check === 'cwd-unsafe' && a.cwdProblem ? `cannot start: ${a.cwdProblem}` : CHECK_WORDS[a.check];
    const command = a.command.length > 0 ? ` — will run: ${displayArgv(a.command)}` : '';
    const where = a.cwd === null ? '(no directory)' : `${a.cwd}${a.newDirectory ? ' [new directory]' : ''}`;
    write(`  ${a.label} (${a.vendor}) in ${where}: ${what}${command}`);
    if (a.worktree)
      write(
        `    worktree on ${a.worktree.branch}: ${WORKTREE_WORDS[a.worktree.state]}${a.worktree.reason && (a.worktree.state === 'failed' || a.worktree.state === 'unknown') ? `: ${a.worktree.reason}` : ''}`,
      );
  }
}

export const inspectCommand: CommandSpec = {
  name: 'inspect',
  args: [],
  summary: 'preview what resuming the handle on standard input would do',
  details:
    'Reads a handle on standard input and shows, per agent, whether its conversation and directory are here and what resume would run. Nothing is started.',
  options: [CWD_OPTION, REPO_MAP_OPTION, JSON_OPTION, DATA_DIR_OPTION],
  example: 'inspect < demo.handle',
  async run(ctx) {
    const cwd = ctx.args.value('cwd');
    const repoMap = repoMapOf(ctx);
    const handle = await readHandle('inspect');
    const preview = await (
      await ctx.server()
    ).call('handle.inspect', {
      handle,
      ...(cwd !== undefined ? { cwd: absolute(cwd) } : {}),
      ...(repoMap ? { repoMap } : {}),
    });
    if (ctx.args.has('json')) json(preview);
    else printPreview(preview, cwd !== undefined);
    return 'done';
  },
};

function printOutcomes(outcomes: readonly ResumeOutcome[]): void {
  for (const o of outcomes) out(`${o.label} (${o.vendor}): ${o.outcome}${o.message ? ` — ${o.message}` : ''}`);
}

const YES_OPTION: OptionSpec = {
  name: 'yes',
  help: 'resume a run this Baton does not know without asking (after printing the plan)',
};
const ALLOW_SHELL_OPTION: OptionSpec = {
  name: 'allow-shell',
  help: "start the handle's shell agents too: each runs a command in the directory the handle names",
};

export const resumeCommand: CommandSpec = {
  name: 'resume',
  args: [{ name: 'run', optional: true, help: 'a run of this server; without it, the handle on standard input' }],
  summary: 'resume a run (by name, or from the handle on standard input)',
  details:
    'Brings every agent of the run back, each in its own conversation, and says per agent whether it was resumed, ' +
    'started fresh (and why) or failed. A handle is read from standard input, never from an argument, so it ' +
    'never shows in a process list. A handle chooses the directories its agents start in, so for a run this Baton ' +
    'does not know the plan is printed first and resume asks on the terminal (or needs --yes); shell agents from a ' +
    'handle start only with --allow-shell. Exits 1 when an agent failed to resume.',
  options: [CWD_OPTION, REPO_MAP_OPTION, YES_OPTION, ALLOW_SHELL_OPTION, JSON_OPTION, DATA_DIR_OPTION],
  example: 'resume < demo.handle',
  async run(ctx) {
    const cwd = ctx.args.value('cwd');
    const repoMap = repoMapOf(ctx);
    const run = ctx.args.arg('run') === undefined ? undefined : runArg(ctx);
    // Read before connecting: a bad paste is reported without a server, and the connection is not left waiting.
    const source: { run: string } | { handle: string } =
      run === undefined ? { handle: await readHandle('resume') } : { run };
    const client = await ctx.server();
    let handle: string;
    let confirmShell: number[];
    if ('handle' in source) {
      handle = source.handle;
      confirmShell = await confirmPlan(client, handle, cwd, ctx, repoMap);
    } else {
      handle = (await client.call('run.handle', { run: source.run })).handle;
      // The user's own run, named by them: its agents were typed here or confirmed when they came in.
      confirmShell = Array.from({ length: LIMITS.agentsPerRun }, (_, i) => i);
    }
    const result = await client.call('run.resume', {
      handle,
      ...(cwd !== undefined ? { cwd: absolute(cwd) } : {}),
      confirmShell,
      ...(repoMap ? { repoMap } : {}),
    });
    if (ctx.args.has('json')) json(result);
    else {
      out(`run '${result.run.name}'`);
      printOutcomes(result.outcomes);
    }
    const failed = result.outcomes.filter((o) => o.outcome === 'failed');
    const [first] = failed;
    if (first)
      throw new Error(
        `${plural(failed.length, 'agent')} failed to resume: ${first.label}: ${first.message ?? 'unknown reason'}`,
      );
    return 'done';
  },
};

/**
 * Before resuming from a pasted handle: the preview, printed when the handle asks for more than the user's own
 * known run (an unknown run, a refused directory, a shell agent), then what must be confirmed. Returns the shell
 * agents to start; throws, having started nothing, when something is refused or not confirmed.
 */
async function confirmPlan(
  client: RpcClient,
  handle: string,
  cwd: string | undefined,
  ctx: CommandContext,
  repoMap: Record<string, string> | undefined,
): Promise<number[]> {
  const preview = await client.call('handle.inspect', {
    handle,
    ...(cwd !== undefined ? { cwd: absolute(cwd) } : {}),
    ...(repoMap ? { repoMap } : {}),
  });
  if (preview.needsCwd && cwd === undefined)
    throw new UsageError('this handle carries no directory: give one with --cwd DIR');
  const shells = preview.agents.flatMap((a, i) => (a.vendor === 'shell' ? [i] : []));
  const allowShell = ctx.args.has('allow-shell');
  const refused = preview.agents.filter((a) => a.cwdProblem !== null);
  if (!preview.knownRun || refused.length > 0 || (shells.length > 0 && !allowShell)) {
    // With --json, standard output is for the result only.
    printPreview(preview, cwd !== undefined, ctx.args.has('json') ? note : out);
  }
  const [bad] = refused;
  // The reason, not the path: an error line can end up in a log.
  if (bad) throw new Error(`agent '${bad.label}' cannot start: ${bad.cwdProblem ?? 'its directory cannot be used'}`);
  if (shells.length > 0 && !allowShell) {
    const labels = shells.map((i) => preview.agents[i]!.label).join(', ');
    throw new Error(
      `the handle has ${plural(shells.length, 'shell agent')} (${labels}), which run${shells.length === 1 ? 's' : ''} a command in the directory the handle names: check the plan above, then add --allow-shell to start ${shells.length === 1 ? 'it' : 'them'}`,
    );
  }
  if (!preview.knownRun && !ctx.args.has('yes')) {
    // Loaded here, not at the top: every other command would load Node's terminal modules for nothing.
    const { askOnTerminal } = await import('../tty-confirm.js');
    const yes = await askOnTerminal(
      `Resume '${preview.runName}' as planned above (${plural(preview.agents.length, 'agent')})? [y/N] `,
    );
    if (yes === null)
      throw new Error(
        "this run is not in this Baton's history: check the plan above, then run again with --yes (there is no terminal to ask on)",
      );
    if (!yes) throw new Error('not resumed: nothing was started');
  }
  return allowShell ? shells : [];
}
