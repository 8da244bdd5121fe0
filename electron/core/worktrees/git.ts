// Every git call of the worktree module: argv arrays through execa (never a shell), never throwing on a non-zero
// exit (the caller decides what it means), with an environment that cannot prompt and prints parseable text.
import { execa } from 'execa';
import { WorktreeError, firstLines } from './errors.js';

export interface GitResult {
  /** null when git could not be started at all. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout was cut at `maxBuffer` characters. */
  truncated: boolean;
}

export interface GitOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to git's standard input (otherwise it gets none). */
  input?: string;
  /** Characters of stdout kept; git is stopped beyond that (`truncated`). Default 64 MiB. */
  maxBuffer?: number;
  /** Read-only calls: git must not take optional locks (a status refreshing the index under a running agent). */
  readOnly?: boolean;
}

// An inherited GIT_DIR or GIT_WORK_TREE (Baton started from a hook, say) would point every call at one repository.
const REPO_OVERRIDES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_PREFIX',
  'GIT_NAMESPACE',
];

/** The environment git runs with: the given one, minus repository overrides, never prompting, in the C locale. */
export function gitEnvironment(env: NodeJS.ProcessEnv, readOnly = false): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const key of REPO_OVERRIDES) delete out[key];
  out.GIT_TERMINAL_PROMPT = '0';
  out.LC_ALL = 'C';
  out.LANGUAGE = 'C';
  // A merge must never wait for an editor (Baton passes --no-edit; this holds if a hook or config asks anyway).
  out.GIT_MERGE_AUTOEDIT = 'no';
  out.GIT_EDITOR = ':';
  if (readOnly) out.GIT_OPTIONAL_LOCKS = '0';
  return out;
}

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const maxBuffer = options.maxBuffer ?? 64 * 1024 * 1024;
  const result = await execa('git', [...args], {
    cwd: options.cwd,
    env: gitEnvironment(options.env, options.readOnly),
    extendEnv: false,
    reject: false,
    shell: false,
    stripFinalNewline: false,
    maxBuffer,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  if (result.exitCode === undefined && !result.isMaxBuffer) {
    const why = result.originalMessage ?? result.shortMessage ?? 'unknown error';
    return { exitCode: null, stdout: '', stderr: `git could not be started: ${why}`, truncated: false };
  }
  return {
    exitCode: result.isMaxBuffer ? 0 : (result.exitCode ?? null),
    stdout: typeof result.stdout === 'string' ? result.stdout : '',
    stderr: typeof result.stderr === 'string' ? result.stderr : '',
    truncated: result.isMaxBuffer,
  };
}

/** Runs git and returns stdout, or throws a WorktreeError naming the action, git's own words and what to do. */
export async function gitOk(
  args: readonly string[],
  options: GitOptions,
  what: string,
  hint?: string,
): Promise<string> {
  const result = await git(args, options);
  if (result.exitCode !== 0) throw gitFailure(what, result, hint);
  return result.stdout;
}

export function gitFailure(
  what: string,
  result: GitResult,
  hint?: string,
  code: 'failed' | 'conflict' | 'invalid' = 'failed',
): WorktreeError {
  const said = firstLines(result.stderr) || firstLines(result.stdout) || `exit code ${String(result.exitCode)}`;
  const text = `${what}: git said: ${said}${hint ? `. ${hint}` : ''}`;
  return new WorktreeError(result.exitCode === null ? 'failed' : code, text);
}

/** Splits `-z` output into its entries (the trailing empty one dropped). */
export function splitZ(text: string): string[] {
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
