// The `baton` command line: `baton serve`, and a scripting client of a running server for everything else.
// Exit codes: 0 success, 1 failure (`baton: <message>`, one line on stderr), 2 usage (the message, then the usage).
import type { RpcClient } from '../../shared/client.js';
import { dataDirFrom, packageVersion } from '../core/paths.js';
import { asksForHelp, parseCommandArgs } from './args.js';
import type { CommandContext, CommandEnd, CommandSpec } from './command.js';
import type { ServerAddress } from './connect.js';
import { shownArgument, UsageError } from './errors.js';
import { out } from './output.js';
import { commandNamed, UnknownCommandError, usageOfBaton } from './registry.js';
import { commandUsage } from './usage.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number | 'keeps-running'> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(usageOfBaton());
    return EXIT_USAGE;
  }
  if (name === '-h' || name === '--help') {
    out(usageOfBaton());
    return EXIT_OK;
  }
  if (name === '--version') {
    out(`baton ${packageVersion()}`);
    return EXIT_OK;
  }
  if (name.startsWith('-'))
    throw new UnknownCommandError(
      `the command comes first (baton <command> [options]), not the option ${shownArgument(name, env)}`,
    );
  const command = commandNamed(name);
  // Before anything else: `baton delete demo --help` must explain delete, not delete the run.
  if (asksForHelp(rest)) {
    out(commandUsage(command));
    return EXIT_OK;
  }
  try {
    const end = await runCommand(command, rest, env);
    return end === 'keeps-running' ? end : EXIT_OK;
  } catch (err) {
    if (!(err instanceof UsageError) || err instanceof UnknownCommandError) throw err;
    process.stderr.write(`baton ${command.name}: ${err.message}\n\n${commandUsage(command)}`);
    return EXIT_USAGE;
  }
}

async function runCommand(command: CommandSpec, argv: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandEnd> {
  const args = parseCommandArgs(command, argv, env);
  const dataDir = dataDirFrom(args.value('data-dir'), env);
  let connection: Promise<RpcClient> | undefined;
  let address: Promise<ServerAddress> | undefined;
  // The client, the contract's schemas and the WebSocket load with the first command that talks to a server: `help`,
  // `hook` and a usage error never pay for them (docs/performance.md "CLI start").
  const ctx: CommandContext = {
    args,
    dataDir,
    env,
    address: () => (address ??= import('./connect.js').then((link) => link.findServer(dataDir, env))),
    server: () =>
      (connection ??= Promise.all([import('./connect.js'), ctx.address()]).then(([link, at]) => link.connect(at))),
  };
  try {
    return await command.run(ctx);
  } finally {
    // A failed connection has already been reported through the command's own await.
    if (connection)
      await connection.then(
        (client) => client.close(),
        () => undefined,
      );
  }
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? '';
}

/** Exits once what was written has reached the terminal or pipe (process.exit alone can cut a pipe short). */
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

function reportAndExit(err: unknown): void {
  if (err instanceof UnknownCommandError) {
    process.stderr.write(`baton: ${err.message}\n\n${usageOfBaton()}`);
    exitAfterOutput(EXIT_USAGE);
    return;
  }
  process.stderr.write(`baton: ${messageOf(err)}\n`);
  exitAfterOutput(EXIT_FAILURE);
}

// A reader that stops early (`baton events demo | head -1`) has what it wanted: not a crash, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT_OK);
  process.stderr.write(`baton: cannot write the output: ${err.message}\n`);
  process.exit(EXIT_FAILURE);
});

main(process.argv.slice(2), process.env)
  .then((end) => {
    if (end !== 'keeps-running') exitAfterOutput(end);
  })
  .catch(reportAndExit);
