// Usage text, generated from the registry so that what a command takes and what its help says never differ.
import type { ArgSpec, CommandSpec, OptionSpec } from './command.js';

const WIDTH = 100;
const COLUMN_MAX = 30;

function argSynopsis(arg: ArgSpec): string {
  if (arg.orSwitch) return `(<${arg.name}> | --${arg.orSwitch})`;
  return arg.optional ? `[<${arg.name}>]` : `<${arg.name}>`;
}

/** `send <run> (<label> | --all) <text>` */
export function synopsis(spec: CommandSpec): string {
  return [spec.name, ...spec.args.map(argSynopsis)].join(' ');
}

function optionSynopsis(option: OptionSpec): string {
  if (option.value === undefined) return `--${option.name}`;
  return option.optionalValue ? `--${option.name} [${option.value}]` : `--${option.name} ${option.value}`;
}

/** Words wrapped to the width, every line after the first indented by `indent`. */
function wrap(text: string, indent: number, firstWidth = WIDTH): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const width = lines.length === 0 ? firstWidth : WIDTH - indent;
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** Two columns: a term, then its help; a term wider than the column gets its help on the next line. */
function table(rows: readonly (readonly [string, string])[]): string {
  const column = Math.min(COLUMN_MAX, Math.max(...rows.map(([term]) => term.length)) + 2);
  const indent = 2 + column;
  return rows
    .map(([term, help]) =>
      term.length + 2 <= column
        ? `  ${term.padEnd(column)}${wrap(help, indent, WIDTH - indent)}`
        : `  ${term}\n${' '.repeat(indent)}${wrap(help, indent, WIDTH - indent)}`,
    )
    .join('\n');
}

const HELP_ROW: readonly [string, string] = ['-h, --help', 'print this help and do nothing else'];

/** A command's own usage: synopsis, what it does, its arguments and options, one example. */
export function commandUsage(spec: CommandSpec): string {
  const parts = [
    `usage: baton ${synopsis(spec)}${spec.options.length > 0 ? ' [options]' : ''}`,
    wrap(spec.details ?? `${spec.summary}.`, 0),
  ];
  if (spec.args.length > 0)
    parts.push(
      `arguments:\n${table(spec.args.map((a) => [`<${a.name}>`, a.help + (a.optional ? ' (optional)' : '')]))}`,
    );
  const optionRows = spec.options.map((o): [string, string] => [optionSynopsis(o), o.help]);
  parts.push(`options:\n${table([...optionRows, HELP_ROW])}`);
  parts.push(`example:\n  baton ${spec.example}`);
  return `${parts.join('\n\n')}\n`;
}

/** The usage of `baton` itself: every command with its synopsis and summary. */
export function overallUsage(commands: readonly CommandSpec[]): string {
  return `usage: baton <command> [arguments] [options]

commands:
${table(commands.map((c) => [synopsis(c), c.summary]))}

\`baton <command> --help\` (or \`baton help <command>\`) shows a command's arguments, options and an example;
\`baton --version\` prints this baton's version.

${wrap(
  'Every command but serve talks to a running `baton serve` (or the background core the desktop app runs): the one ' +
    'BATON_URL and BATON_TOKEN name when both are set, else the one whose server.json is in the data directory ' +
    '(--data-dir DIR; default $BATON_HOME, else ~/.baton).',
  0,
)}
Exit codes: 0 success, 1 failure (one line on standard error), 2 usage error.
`;
}
