// The command line of one command, checked against what that command declares: its arguments, its options.
import type { ArgSpec, CommandSpec, OptionSpec } from './command.js';
import { shownArgument, UsageError } from './errors.js';
import { expandHome } from './home.js';

/** `-h`/`--help` anywhere before a `--` asks for the command's usage instead of running it. */
export function asksForHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '--help') return true;
  }
  return false;
}

export class ParsedArgs {
  constructor(
    private readonly byName: ReadonlyMap<string, string>,
    private readonly options: ReadonlyMap<string, readonly string[]>,
    /** Every option as typed, in order: for options that belong to the one before them (`--agent … --worktree`). */
    private readonly typed: readonly { name: string; value: string }[] = [],
  ) {}

  /** The options in the order they were typed. */
  inOrder(): readonly { name: string; value: string }[] {
    return this.typed;
  }

  /** A positional argument by its declared name. */
  arg(name: string): string | undefined {
    return this.byName.get(name);
  }

  /** A declared argument the parser has checked is there. */
  required(name: string): string {
    const value = this.byName.get(name);
    if (value === undefined) throw new Error(`internal: argument <${name}> was not checked`);
    return value;
  }

  has(option: string): boolean {
    return this.options.has(option);
  }

  value(option: string): string | undefined {
    return this.options.get(option)?.at(-1);
  }

  values(option: string): readonly string[] {
    return this.options.get(option) ?? [];
  }
}

/** The arguments in the order they are expected, given which switches are set (`--all` replaces `<label>`). */
function expectedArgs(spec: CommandSpec, options: ReadonlyMap<string, readonly string[]>): ArgSpec[] {
  return spec.args.filter((a) => !(a.orSwitch && options.has(a.orSwitch)));
}

export function parseCommandArgs(spec: CommandSpec, argv: readonly string[], env: NodeJS.ProcessEnv): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  const typed: { name: string; value: string }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const shortFor = spec.options.find((o) => o.short !== undefined && argv[i] === `-${o.short}`);
    const arg = shortFor ? `--${shortFor.name}` : argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (/^-[A-Za-z]/.test(arg)) throw new UsageError(`unknown option ${shownArgument(arg, env)} (${optionsOf(spec)})`);
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const option = spec.options.find((o) => o.name === name);
    if (!option) throw new UsageError(`${spec.name} does not take ${optionName(name)} (${optionsOf(spec)})`);
    let value: string;
    if (option.value === undefined) {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      value = '';
    } else if (eq > 0) {
      value = arg.slice(eq + 1);
    } else if (option.optionalValue) {
      // `--socket --data-dir D`: no value; `--socket PATH`: the next word, unless it is another option.
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('-')) value = '';
      else {
        value = next;
        i++;
      }
    } else {
      const next = argv[i + 1];
      // `--cwd --json` is a forgotten value, not a directory named --json (write --cwd=--json for that).
      if (next === undefined || next.startsWith('--'))
        throw new UsageError(`--${name} needs a value (${option.value})`);
      value = next;
      i++;
    }
    const earlier = options.get(name);
    if (earlier && !option.repeatable) throw new UsageError(`--${name} is given more than once`);
    const given = option.directory && value !== '' ? expandHome(value, env, `--${name}`) : value;
    options.set(name, [...(earlier ?? []), given]);
    typed.push({ name, value: given });
  }
  return new ParsedArgs(namePositionals(spec, positionals, options, env), options, typed);
}

function namePositionals(
  spec: CommandSpec,
  positionals: readonly string[],
  options: ReadonlyMap<string, readonly string[]>,
  env: NodeJS.ProcessEnv,
): Map<string, string> {
  const expected = expectedArgs(spec, options);
  const byName = new Map<string, string>();
  for (const [i, arg] of expected.entries()) {
    const value = positionals[i];
    if (value !== undefined) byName.set(arg.name, value);
    else if (!arg.optional) throw new UsageError(`missing <${arg.name}>: ${arg.help}`);
  }
  const extra = positionals[expected.length];
  if (extra !== undefined) {
    const takes = expected.length === 0 ? 'no arguments' : expected.map((a) => `<${a.name}>`).join(' ');
    throw new UsageError(
      `unexpected argument ${shownArgument(extra, env)}: ${spec.name} takes ${takes} (quote an argument that has spaces)`,
    );
  }
  return byName;
}

/** An unknown option's name, shortened: it may be a paste gone wrong. */
function optionName(name: string): string {
  return name.length > 30 || /^baton\d+\./.test(name) ? 'that option' : `--${name}`;
}

/** `its options: --json, --data-dir, -h` */
function optionsOf(spec: CommandSpec): string {
  return `its options: ${[...spec.options.map((o: OptionSpec) => `--${o.name}`), '-h'].join(', ')}`;
}
