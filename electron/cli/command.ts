// What a command of the registry declares: its arguments, its own options, its help and what it does.
import type { RpcClient } from '../../shared/client.js';
import type { ParsedArgs } from './args.js';
import type { ServerAddress } from './connect.js';

export interface OptionSpec {
  /** Without the dashes: `agent` for --agent. */
  readonly name: string;
  /** A one-letter form (`o` for -o), for the few options that conventionally have one. */
  readonly short?: string;
  /** The value's name in the usage (DIR, N); left out for a switch such as --json. */
  readonly value?: string;
  readonly help: string;
  /** May be given more than once; every value is kept, in order. */
  readonly repeatable?: boolean;
  /** The value is a directory: a leading `~` or `~user` is expanded as a shell would (it doesn't after `=`). */
  readonly directory?: boolean;
  /** The value may be left out (`--socket` or `--socket PATH`); left out, the option's value is ''. */
  readonly optionalValue?: boolean;
}

export interface ArgSpec {
  readonly name: string;
  readonly help: string;
  readonly optional?: boolean;
  /** A switch that takes this argument's place: `send <run> (<label> | --all) <text>`. */
  readonly orSwitch?: string;
}

export interface CommandContext {
  readonly args: ParsedArgs;
  /** The data directory whose server.json finds the server (and that `serve` serves). */
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * The running server, connected on first use. Commands check everything they can first, so a usage
   * error never needs a server and never touches one.
   */
  server(): Promise<RpcClient>;
  /** Where the server is (a web address or the background core's socket), found as `server()` finds it. */
  address(): Promise<ServerAddress>;
}

/** `keeps-running`: the command serves until a signal ends the process (baton serve). */
export type CommandEnd = 'done' | 'keeps-running';

export interface CommandSpec {
  readonly name: string;
  readonly args: readonly ArgSpec[];
  /** One line for the overall usage. */
  readonly summary: string;
  /** More about what it does, for the command's own usage; the summary when left out. */
  readonly details?: string;
  /** Every option this command takes (and no other); -h/--help is always taken. */
  readonly options: readonly OptionSpec[];
  /** One typical use, as typed after `baton `. */
  readonly example: string;
  run(ctx: CommandContext): Promise<CommandEnd>;
}

/** The option every command but help takes, to find its server. */
export const DATA_DIR_OPTION: OptionSpec = {
  name: 'data-dir',
  value: 'DIR',
  help: "the server's data directory (default: $BATON_HOME, else ~/.baton)",
  directory: true,
};

export const JSON_OPTION: OptionSpec = { name: 'json', help: 'print the result as JSON' };
