// Keeping every path inside what the user chose. A path given to the module must be absolute and free of `..`
// segments (an escape attempt is refused, not normalised away), and is then used by its real path: a symbolic
// link that leads out of the directory it must stay in is refused.
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { WorktreeError } from './errors.js';

/** `path` as given, checked: absolute, no NUL, no `..` segment. Normalised (duplicate slashes, trailing slash). */
export function checkedAbsolute(path: string, what: string): string {
  if (typeof path !== 'string' || path === '' || path.includes('\0'))
    throw new WorktreeError('invalid', `${what} must be a path`);
  if (!isAbsolute(path)) throw new WorktreeError('invalid', `${what} must be an absolute path (got a relative one)`);
  if (path.split(/[\\/]+/).includes('..')) {
    throw new WorktreeError(
      'escape',
      `${what} ${path} contains "..": give the directory itself, without ".." segments`,
    );
  }
  const norm = normalize(path);
  return norm.length > 1 && norm.endsWith(sep) ? norm.slice(0, -1) : norm;
}

/** Whether `child` is `root` or lies below it (both real, absolute). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

export async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `<root>/<segment>` a real directory of its own inside `root` (created mode 0700 when missing) and returns
 * its real path. A link there, or anything that resolves outside `root`, is refused.
 */
export async function ensureChildDir(root: string, segment: string, what: string): Promise<string> {
  const dir = join(root, segment);
  // A dangling link there makes mkdir fail: the lstat below says what it is.
  await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => undefined);
  let info;
  try {
    info = await lstat(dir);
  } catch (err) {
    throw new WorktreeError('failed', `cannot create ${what} ${dir}: ${(err as Error).message}`);
  }
  if (info.isSymbolicLink()) {
    throw new WorktreeError(
      'escape',
      `${what} ${dir} is a symbolic link: Baton creates worktrees only in real directories under ${root}; remove the link`,
    );
  }
  if (!info.isDirectory()) throw new WorktreeError('invalid', `${what} ${dir} is not a directory: move it away`);
  const real = await realpath(dir);
  if (!isInside(root, real) || real === root) {
    throw new WorktreeError('escape', `${what} ${dir} resolves outside ${root}: remove what redirects it`);
  }
  return real;
}
