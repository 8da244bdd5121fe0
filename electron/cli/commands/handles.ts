// Commands about handles: print one, preview one, resume from one.
import { resolve } from 'node:path';
import { BatonError, type HandlePreview, type ResumeOutcome, type SessionCheck } from '../../../shared/contract.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec, type OptionSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { displayArgv, json, out, plural } from '../output.js';
import { readHandle } from '../stdin.js';
import { notAHandle, RUN_ARG, runArg } from './common.js';

/** A directory typed relative to where the user is, as the absolute path the server needs. */
const absolute = (dir: string): string => resolve(dir);

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
  options: [{ name: 'agent', value: 'LABEL', help: "print the handle of this agent only" }, DATA_DIR_OPTION],
  example: 'handle demo > demo.handle',
  async run(ctx) {
    const run = runArg(ctx);
    const agentOption = ctx.args.value('agent');
    const agent = agentOption === undefined ? undefined : notAHandle(agentOption, '--agent');
    const { handle } = await (await ctx.server()).call('run.handle', { run, ...(agent !== undefined ? { agent } : {}) });
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
};

function printPreview(preview: HandlePreview, cwdGiven: boolean): void {
  out(`run '${preview.runName}'${preview.knownRun ? ' (in the history)' : ' (new on this machine)'}`);
  if (preview.needsCwd && !cwdGiven) out('  this handle carries no directory: give one with --cwd DIR');
  for (const a of preview.agents) {
    const what = CHECK_WORDS[a.check];
    const command = a.command.length > 0 ? ` — will run: ${displayArgv(a.command)}` : '';
    out(`  ${a.label} (${a.vendor}) in ${a.cwd ?? '(no directory)'}: ${what}${command}`);
  }
}

export const inspectCommand: CommandSpec = {
  name: 'inspect',
  args: [],
  summary: 'preview what resuming the handle on standard input would do',
  details: 'Reads a handle on standard input and shows, per agent, whether its conversation and directory are here and what resume would run. Nothing is started.',
  options: [CWD_OPTION, JSON_OPTION, DATA_DIR_OPTION],
  example: 'inspect < demo.handle',
  async run(ctx) {
    const cwd = ctx.args.value('cwd');
    const handle = await readHandle('inspect');
    const preview = await (await ctx.server()).call('handle.inspect', { handle, ...(cwd !== undefined ? { cwd: absolute(cwd) } : {}) });
    if (ctx.args.has('json')) json(preview);
    else printPreview(preview, cwd !== undefined);
    return 'done';
  },
};

function printOutcomes(outcomes: readonly ResumeOutcome[]): void {
  for (const o of outcomes) out(`${o.label} (${o.vendor}): ${o.outcome}${o.message ? ` — ${o.message}` : ''}`);
}

export const resumeCommand: CommandSpec = {
  name: 'resume',
  args: [{ name: 'run', optional: true, help: 'a run of this server; without it, the handle on standard input' }],
  summary: 'resume a run (by name, or from the handle on standard input)',
  details:
    'Brings every agent of the run back, each in its own conversation, and says per agent whether it was resumed, ' +
    'started fresh (and why) or failed. A handle is read from standard input, never from an argument, so it ' +
    'never shows in a process list. Exits 1 when an agent failed to resume.',
  options: [CWD_OPTION, JSON_OPTION, DATA_DIR_OPTION],
  example: 'resume < demo.handle',
  async run(ctx) {
    const cwd = ctx.args.value('cwd');
    const run = ctx.args.arg('run') === undefined ? undefined : runArg(ctx);
    // Read before connecting: a bad paste is reported without a server, and the connection is not left waiting.
    const source: { run: string } | { handle: string } = run === undefined ? { handle: await readHandle('resume') } : { run };
    const client = await ctx.server();
    const handle = 'handle' in source ? source.handle : (await client.call('run.handle', { run: source.run })).handle;
    const result = await client.call('run.resume', { handle, ...(cwd !== undefined ? { cwd: absolute(cwd) } : {}) }).catch((err: unknown) => {
      // The core names the field; the user needs the option that fills it.
      if (err instanceof BatonError && err.field === 'cwd' && cwd === undefined) throw new UsageError('this handle carries no directory: give one with --cwd DIR');
      throw err;
    });
    if (ctx.args.has('json')) json(result);
    else {
      out(`run '${result.run.name}'`);
      printOutcomes(result.outcomes);
    }
    const failed = result.outcomes.filter((o) => o.outcome === 'failed');
    const [first] = failed;
    if (first) throw new Error(`${plural(failed.length, 'agent')} failed to resume: ${first.label}: ${first.message ?? 'unknown reason'}`);
    return 'done';
  },
};
