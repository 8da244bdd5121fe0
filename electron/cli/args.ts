// A small argv parser: positionals, `--flag value`, `--flag=value`, repeated flags and booleans.
import { UsageError } from './connect.js';

export interface Parsed {
  positionals: string[];
  flags: Map<string, string[]>;
  bools: Set<string>;
}

export function parseArgs(argv: readonly string[], valued: readonly string[], booleans: readonly string[]): Parsed {
  const out: Parsed = { positionals: [], flags: new Map(), bools: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (booleans.includes(name) && eq < 0) {
      out.bools.add(name);
      continue;
    }
    if (!valued.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    out.flags.set(name, [...(out.flags.get(name) ?? []), value]);
  }
  return out;
}

export const flag = (p: Parsed, name: string): string | undefined => p.flags.get(name)?.at(-1);
