// `~` and `~user` at the start of a directory the user typed, expanded as a shell would. The shell itself
// does not expand them after `@` (--agent claude@~/src) or `=` (--cwd=~/src), so Baton does.
import { readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { UsageError } from './errors.js';

/** `path` with a leading `~` or `~user` replaced by that home directory; `what` names where it was typed. */
export function expandHome(path: string, env: NodeJS.ProcessEnv, what: string): string {
  if (!path.startsWith('~')) return path;
  const slash = path.indexOf('/');
  const user = slash < 0 ? path.slice(1) : path.slice(1, slash);
  const rest = slash < 0 ? '' : path.slice(slash);
  if (user === '') return `${env.HOME || homedir()}${rest}`;
  const home = homeOf(user);
  if (home === undefined) throw new UsageError(`no user '${user}' on this machine (in ${what} ${path})`);
  return `${home}${rest}`;
}

/** The home directory /etc/passwd gives `user`, else the current user's own when that is who was named. */
function homeOf(user: string): string | undefined {
  const fromPasswd = passwdLines()
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === user && fields.length >= 7)?.[5];
  if (fromPasswd) return fromPasswd;
  try {
    const me = userInfo();
    return me.username === user && me.homedir ? me.homedir : undefined;
  } catch {
    return undefined; // no entry for the current uid either
  }
}

function passwdLines(): string[] {
  try {
    return readFileSync('/etc/passwd', 'utf8').split('\n');
  } catch {
    return []; // no /etc/passwd (a container, say): only the current user can be named
  }
}
