// The folders of one directory on this machine, for the working-directory picker of an agent (docs/hosts.md): the
// local core answers for itself, and for a host it asks that host's core (which answers here, for its own machine).
// Only names of directories are listed; nothing is read inside them.
import { lstat, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { FolderListing } from '../../../shared/contract.js';
import { invalid, notFound } from '../runs/errors.js';

/** More than this many folders in one directory: the first ones (by name) and `truncated`. */
const MAX_FOLDERS = 2000;

/** `path`: absolute, `~`, `~/…` (the user's home here), or absent (the home). */
export async function listFolders(path: string | undefined): Promise<FolderListing> {
  const home = homedir();
  const wanted = !path || path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
  if (!isAbsolute(wanted)) throw invalid('give an absolute path, or one starting with ~/', 'path');
  const dir = resolve(wanted);
  let entries;
  try {
    if (!(await stat(dir)).isDirectory()) throw notFound(`${dir} is not a folder`);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw notFound(`there is no folder ${dir} here`);
    if (code === 'EACCES' || code === 'EPERM') throw notFound(`${dir} cannot be read (permission denied)`);
    throw err;
  }
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) folders.push(entry.name);
    // A link to a folder is one to pick (its target is what the agent's directory will be).
    else if (entry.isSymbolicLink() && (await isFolder(join(dir, entry.name)))) folders.push(entry.name);
  }
  // Hidden folders after the others, each group by name.
  folders.sort((a, b) => Number(a.startsWith('.')) - Number(b.startsWith('.')) || a.localeCompare(b));
  const parent = dirname(dir);
  return {
    path: dir,
    parent: parent === dir ? null : parent,
    home,
    folders: folders.slice(0, MAX_FOLDERS),
    truncated: folders.length > MAX_FOLDERS,
  };
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink() && (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
