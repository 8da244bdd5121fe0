// Whether a directory may be where an agent starts. A vendor CLI loads project configuration from its working
// directory (MCP servers, hooks, settings: code it runs as the user), and a handle, which can come from anyone,
// chooses that directory. So, as git's `safe.directory` does for a repository, only a directory the user owns
// and alone can write is used (docs/architecture.md §10).
//
// Only the directory itself is checked, not its parents, as git does. A parent owned by root (/, /home) is
// normal, and so is a world-writable parent with the sticky bit (/tmp): there others cannot rename or replace a
// directory they do not own. A parent writable by others without the sticky bit would let them swap the
// directory for their own between this check and the spawn; that is a misconfigured machine, and refusing
// every such parent would refuse shared group folders too, which git also accepts.
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';

export type DirectoryProblem =
  | { kind: 'missing' }
  | { kind: 'denied' }
  | { kind: 'not-directory' }
  | { kind: 'foreign-owner'; uid: number; ownUid: number }
  | { kind: 'writable'; by: 'others' | 'group'; mode: string };

export type DirectoryCheck = { ok: true; real: string } | { ok: false; problem: DirectoryProblem };

/** Reads the directory (following links) and says where an agent would really run, or why it cannot. */
export async function inspectDirectory(cwd: string): Promise<DirectoryCheck> {
  let real: string;
  let info: Stats;
  try {
    if (!(await stat(cwd)).isDirectory()) return { ok: false, problem: { kind: 'not-directory' } };
    real = await realpath(cwd);
    // The ownership that counts is the real directory's: a link of the user's may point into someone else's.
    info = await stat(real);
  } catch (err) {
    return { ok: false, problem: { kind: isPermissionError(err) ? 'denied' : 'missing' } };
  }
  const problem = trustProblem(info);
  return problem ? { ok: false, problem } : { ok: true, real };
}

function trustProblem(info: Stats): DirectoryProblem | undefined {
  // Windows has no uids and no POSIX modes.
  if (typeof process.getuid !== 'function') return undefined;
  const ownUid = process.getuid();
  if (info.uid !== ownUid) return { kind: 'foreign-owner', uid: info.uid, ownUid };
  const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
  if (info.mode & 0o002) return { kind: 'writable', by: 'others', mode };
  if (info.mode & 0o020) return { kind: 'writable', by: 'group', mode };
  return undefined;
}

/**
 * The problem in words without the path, for errors about a directory that came from a handle (a secret) and
 * for the preview, which shows the path in its own column. `missing` and `denied` read alike here, so a
 * handle cannot be used to probe which directories exist.
 */
export function problemText(problem: DirectoryProblem): string {
  switch (problem.kind) {
    case 'missing':
    case 'denied':
      return 'directory does not exist';
    case 'not-directory':
      return 'is not a directory';
    case 'foreign-owner':
      return `directory is owned by another user (uid ${problem.uid}; Baton runs as uid ${problem.ownUid}): ${WHY}; use a directory you own`;
    case 'writable':
      return `directory is writable by ${problem.by === 'others' ? 'other users' : 'its group'} (mode ${problem.mode}): ${WHY}; run chmod ${problem.by === 'others' ? 'o-w' : 'g-w'} on it`;
  }
}

/** The same for a path the user typed in this request (run.start, agent.add): the path may be named. */
export function typedProblemText(problem: DirectoryProblem, cwd: string): string {
  switch (problem.kind) {
    case 'missing':
      return `directory ${cwd} does not exist`;
    case 'denied':
      return `directory ${cwd} cannot be opened (permission denied)`;
    case 'not-directory':
      return `${cwd} is not a directory`;
    case 'foreign-owner':
      return `directory ${cwd} is owned by another user (uid ${problem.uid}; Baton runs as uid ${problem.ownUid}): ${WHY}; use a directory you own`;
    case 'writable':
      return `directory ${cwd} is writable by ${problem.by === 'others' ? 'other users' : 'its group'} (mode ${problem.mode}): ${WHY}; run chmod ${problem.by === 'others' ? 'o-w' : 'g-w'} ${shellQuote(cwd)}`;
  }
}

const WHY = 'a CLI started there would load project settings (MCP servers, hooks) someone else could have put there';

function isPermissionError(err: unknown): boolean {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  return code === 'EACCES' || code === 'EPERM';
}

function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
