// Small file-system helpers the vendor stores share. Each answers "no" (false, [], null, the path as written) where
// the file system cannot tell: a vendor store may be missing, half-written or from another machine.
import { access, readdir, realpath, stat } from 'node:fs/promises';

/** Something (file or folder) is at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** A regular file is at `path`. */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A folder is at `path`. */
export async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The names in a folder; none when it cannot be read. */
export async function listDir(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch {
    return [];
  }
}

/** `path` as written and, when different, as resolved (a missing path: as written only). */
export async function pathForms(path: string): Promise<string[]> {
  try {
    const real = await realpath(path);
    return real === path ? [path] : [path, real];
  } catch {
    return [path];
  }
}

/** When a file or folder came into being (birth time where the filesystem has it, else its inode change time), or null. */
export async function bornAt(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.birthtimeMs > 0 ? s.birthtimeMs : s.ctimeMs;
  } catch {
    return null;
  }
}

/** The realpath of a directory that exists here, else the path as given (a bundle's directory, not made yet). */
export async function realOrGiven(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}
