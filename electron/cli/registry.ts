// Every `baton` command, defined once: the parser, the overall usage and each command's usage come from here.
import type { CommandSpec } from './command.js';
import { UsageError, shownArgument } from './errors.js';
import { screenCommand, sendCommand, startCommand } from './commands/agents.js';
import { handleCommand, inspectCommand, resumeCommand } from './commands/handles.js';
import {
  deleteCommand,
  eventsCommand,
  lsCommand,
  renameCommand,
  snapshotCommand,
  stopCommand,
} from './commands/runs.js';
import { searchCommand } from './commands/search.js';
import { serveCommand } from './commands/serve.js';
import { costCommand } from './commands/cost.js';
import { exportCommand, forkCommand, importCommand } from './commands/portable.js';
import { hookCommand } from './commands/hook.js';
import { resumeInterruptedCommand } from './commands/core.js';
import { connectCommand, hostsCommand } from './commands/hosts.js';
import { changesCommand, mergeCommand, worktreesCommand } from './commands/worktrees.js';
import { out } from './output.js';
import { commandUsage, overallUsage } from './usage.js';

const helpCommand: CommandSpec = {
  name: 'help',
  args: [{ name: 'command', optional: true, help: 'the command to explain; without it, every command' }],
  summary: "print a command's usage (or this list)",
  details:
    "Prints a command's usage (its arguments, its options and an example); without a command, lists every command.",
  options: [],
  example: 'help resume',
  async run({ args }) {
    const name = args.arg('command');
    out(name === undefined ? usageOfBaton() : commandUsage(commandNamed(name)));
    return 'done';
  },
};

/** In the order the overall usage lists them: from starting a server to ending a run. */
export const COMMANDS: readonly CommandSpec[] = [
  serveCommand,
  lsCommand,
  startCommand,
  sendCommand,
  screenCommand,
  changesCommand,
  mergeCommand,
  snapshotCommand,
  handleCommand,
  inspectCommand,
  resumeCommand,
  resumeInterruptedCommand,
  searchCommand,
  forkCommand,
  exportCommand,
  importCommand,
  eventsCommand,
  costCommand,
  renameCommand,
  stopCommand,
  deleteCommand,
  worktreesCommand,
  hostsCommand,
  connectCommand,
  hookCommand,
  helpCommand,
];

/** The command of that name; an unknown name is a usage error of `baton` itself. */
export function commandNamed(name: string): CommandSpec {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UnknownCommandError(`unknown command ${shownArgument(name)}`);
  return command;
}

/** A command name nobody defined: the overall usage follows the message. */
export class UnknownCommandError extends UsageError {}

export const usageOfBaton = (): string => overallUsage(COMMANDS);
