// The data directory holds what Baton trusts to act on: the processes it may stop at start (processes.json), the
// runs it resumes, the server address and token clients connect with (server.json). Another user who can write
// there could make Baton stop or start their choice of processes, so a directory or server file that anyone but
// its owner could change, or that someone else owns, is refused with the reason and the fix.
import { lstatSync, mkdirSync, statSync, type Stats } from 'node:fs';

export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

/** Creates the data directory (mode 0700) when it does not exist, then checks it as `checkDataDir` does. */
export function prepareDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new DataDirError(`cannot create the data directory ${dir}: ${(err as Error).message}`);
  }
  checkDataDir(dir);
}

/** Throws a DataDirError when `dir` is not a directory the current user owns and alone can write. */
export function checkDataDir(dir: string): void {
  let info: Stats;
  try {
    // A link to the data directory is fine (it is the user's choice where it lives); what it points to is checked.
    info = statSync(dir);
  } catch (err) {
    throw new DataDirError(`cannot use the data directory ${dir}: ${(err as Error).message}`);
  }
  if (!info.isDirectory()) throw new DataDirError(`the data directory ${dir} is not a directory`);
  const problem = ownershipProblem(info, 0o700);
  if (problem) throw new DataDirError(`the data directory ${dir} ${problem.what}: ${problem.fix(dir)}`);
}

/**
 * Throws a DataDirError when server.json at `path` is a link, not a regular file, someone else's, or writable by
 * others: a client would send its token to whatever address such a file names. A missing file is not checked.
 */
export function checkServerFile(path: string): void {
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch {
    return;
  }
  if (info.isSymbolicLink())
    throw new DataDirError(`the server file ${path} is a symbolic link: remove it and restart \`baton serve\``);
  if (!info.isFile())
    throw new DataDirError(`the server file ${path} is not a regular file: remove it and restart \`baton serve\``);
  const problem = ownershipProblem(info, 0o600);
  if (problem) throw new DataDirError(`the server file ${path} ${problem.what}: ${problem.fix(path)}`);
}

interface Problem {
  what: string;
  fix: (path: string) => string;
}

function ownershipProblem(info: Stats, wantMode: number): Problem | undefined {
  // Windows has no uids and no POSIX modes; its ACLs are a matter for the user's profile directory.
  if (typeof process.getuid !== 'function') return undefined;
  const uid = process.getuid();
  const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
  const chmod = (path: string) => `run chmod ${wantMode.toString(8)} ${quote(path)}`;
  if (info.uid !== uid) {
    return {
      what: `is owned by another user (uid ${info.uid}; Baton runs as uid ${uid})`,
      fix: () => 'use a data directory of your own (--data-dir or BATON_HOME)',
    };
  }
  if (info.mode & 0o002) return { what: `is writable by other users (mode ${mode})`, fix: chmod };
  if (info.mode & 0o020) return { what: `is writable by its group (mode ${mode})`, fix: chmod };
  return undefined;
}

/** Quoted for a POSIX shell when it holds anything but plain path characters. */
function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
