// The fake Codex's command line: the flags it honours (the rest of Codex's flags are taken and ignored, as Baton
// may pass them), `-c key=value` overrides and whether a daemon is started. Node builtins only.
import { fail, parseArgs } from '../lib/args.mjs';

/** The version the fake says it is (`--version`, the header, each rollout's session_meta). */
export const VERSION = '0.169.0';

/** Codex's flags that take a value: their value is never a positional. */
const WITH_VALUE = new Set([
  '-c',
  '--config',
  '--enable',
  '--disable',
  '-m',
  '--model',
  '-p',
  '--profile',
  '-s',
  '--sandbox',
  '-a',
  '--ask-for-approval',
  '-C',
  '--cd',
  '-i',
  '--image',
  '--add-dir',
  '--remote',
  '--remote-auth-token-env',
  '--local-provider',
]);

/** The options of `argv` (the words after the script): `codex [OPTIONS] [PROMPT]` or `codex resume [ID] [PROMPT]`. */
export function parseOptions(argv) {
  const opts = {
    version: false,
    help: false,
    noDaemon: false,
    config: [],
    enable: [],
    disable: [],
    sub: null, // 'resume' | null
    sessionArg: null,
    prompt: null,
    last: false,
    cd: null,
  };
  const positionals = [];
  parseArgs(
    argv,
    {
      '-V --version': () => (opts.version = true),
      '-h --help': () => (opts.help = true),
      '--no-daemon': () => (opts.noDaemon = true),
      '--last': () => (opts.last = true),
    },
    {
      other: (a, arg) => {
        if (a === '--') positionals.push(...arg.rest());
        else if (WITH_VALUE.has(a)) {
          const v = arg.value();
          if (a === '-c' || a === '--config') opts.config.push(v);
          else if (a === '--enable') opts.enable.push(v);
          else if (a === '--disable') opts.disable.push(v);
          else if (a === '-C' || a === '--cd') opts.cd = v;
        } else if (!a.startsWith('-')) positionals.push(a); // other flags (booleans) are accepted and ignored
      },
      missing: (a) => fail(`error: a value is required for '${a} <VALUE>' but none was supplied`, 2),
    },
  );
  if (positionals[0] === 'resume') {
    opts.sub = 'resume';
    opts.sessionArg = positionals[1] ?? null;
    opts.prompt = positionals[2] ?? null;
  } else {
    opts.prompt = positionals[0] ?? null;
  }
  return opts;
}

/** The value of the last `-c key=value` override of `key` (quotes kept), or undefined when there is none. */
export function configValue(opts, key) {
  let v;
  for (const kv of opts.config) {
    const eq = kv.indexOf('=');
    if (eq > 0 && kv.slice(0, eq).trim() === key) v = kv.slice(eq + 1).trim();
  }
  return v;
}

/** Whether a daemon owns the thread: unless `--no-daemon`, `-c features.daemon_auto_start=false` or its --disable. */
export function usesDaemon(opts) {
  const daemonAutoStart = !(
    configValue(opts, 'features.daemon_auto_start') === 'false' || opts.disable.includes('daemon_auto_start')
  );
  return !opts.noDaemon && daemonAutoStart;
}
