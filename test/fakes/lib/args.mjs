// Command-line helpers shared by the fake vendor CLIs: the argument parsing their parsers have in common, the usage
// error exit, and numbers from the environment. Which flags exist and what they mean stays in each fake.
// Node builtins only.

/** A UUID in any case (the fakes lowercase what they store). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Prints `message` on stderr and exits with `code`. */
export function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** A duration in ms from the environment: `name` if set, else `fallback`; anything not a number is 0 (off). */
export function envMs(name, fallback) {
  return Number(process.env[name] ?? fallback) || 0;
}

/** A `--resume [value]` handler for parseArgs: the value goes to `opts.resume`; none at all opens the picker. */
export function resumeOrPicker(opts) {
  return (arg) => {
    const v = arg.optional();
    if (v !== undefined) opts.resume = v;
    else opts.picker = true;
  };
}

/**
 * Parses `argv` as the vendors' parsers do: `--flag=value` is split at its first "=" (single-dash words never are).
 * `flags` maps space-separated aliases ('-r --resume') to a handler `(arg) => void`; every other word (unknown
 * flags, positionals) goes to `other(word, arg)`. `arg` takes the flag's value, if it has one:
 *   arg.inline      the part after "=", or undefined
 *   arg.value()     inline, else the next word; no next word: `missing(flag)` (which is expected to exit)
 *   arg.optional()  inline, else the next word unless it looks like a flag; else undefined
 *   arg.peek()      the next word, not taken;  arg.take(): the next word, taken
 *   arg.rest()      every word after this one, taken (the parse ends)
 */
export function parseArgs(
  argv,
  flags,
  { other = () => {}, missing = (flag) => fail(`error: option '${flag}' argument missing`) } = {},
) {
  const handlers = new Map();
  for (const [aliases, handler] of Object.entries(flags))
    for (const alias of aliases.split(' ')) handlers.set(alias, handler);
  for (let i = 0; i < argv.length; i++) {
    let name = argv[i];
    let inline;
    const eq = name.startsWith('--') ? name.indexOf('=') : -1;
    if (eq > 0) {
      inline = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const flag = name;
    const arg = {
      inline,
      value() {
        if (inline !== undefined) return inline;
        const v = argv[i + 1];
        if (v === undefined) return missing(flag);
        i++;
        return v;
      },
      optional() {
        if (inline !== undefined) return inline;
        const v = argv[i + 1];
        if (v === undefined || v.startsWith('-')) return undefined;
        i++;
        return v;
      },
      peek: () => argv[i + 1],
      take: () => argv[++i],
      rest() {
        const words = argv.slice(i + 1);
        i = argv.length;
        return words;
      },
    };
    const handler = handlers.get(flag);
    if (handler) handler(arg);
    else other(flag, arg);
  }
}
