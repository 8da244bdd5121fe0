// The two ways a command fails, which decide what the user sees and the exit code.

/** A mistake in how the command was typed: `baton <command>: <message>`, then that command's usage; exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * How an argument is quoted back in an error. A handle pasted where a name was expected is a secret (it carries
 * session ids and paths), and so is the server's token: neither is ever echoed, whatever the mistake.
 */
export function shownArgument(arg: string, env: NodeJS.ProcessEnv = process.env): string {
  const token = env.BATON_TOKEN;
  if (looksLikeHandle(arg) || (token && arg.includes(token)))
    return 'an argument that looks like a handle or a token (not shown)';
  if (arg.length > 60) return `'${arg.slice(0, 40)}…'`;
  return `'${arg}'`;
}

/** `baton1.…`, another version's `batonN.…`, or a JSON (caw) handle. */
export function looksLikeHandle(text: string): boolean {
  const t = text.trim();
  return /^baton\d+\./.test(t) || t.startsWith('{');
}
