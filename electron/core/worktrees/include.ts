// `.worktreeinclude` at the root of the checkout (gitignore syntax): the git-ignored files it matches (`.env`,
// local settings) are copied from that checkout into a new worktree, which git alone would leave without them.
// A file is copied only when it is both matched by `.worktreeinclude` and ignored by git's own rules
// (.gitignore, .git/info/exclude, core.excludesFile): an untracked file git would show is never copied.
// Only regular files are copied; a symbolic link is skipped (it could point anywhere), and nothing is written
// through a link inside the worktree (a committed symlinked directory) or outside it.
//
// Cost: a folder git ignores as a whole (node_modules/, dist/, .venv/) can hold hundreds of thousands of files, and
// walking it would cost more than the checkout. So such a folder is searched only when a pattern could reach into
// it: a pattern matching the folder itself (`node_modules`, `.venv/`) or a path pattern leading into it
// (`config/secrets/*.json`, `dist/app.env`). A bare pattern (`.env`, `*.local`) matches in every folder git walks
// anyway, not inside those; git skips them through `:(exclude)` pathspecs, so the walk costs about a `git status`.
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { git, gitFailure, splitZ } from './git.js';
import { isInside } from './paths.js';

export const INCLUDE_FILE = '.worktreeinclude';
/** More than this many matches is almost certainly a mistaken pattern (a whole node_modules). */
const MAX_FILES = 10_000;

export interface IncludeResult {
  copied: string[];
  skipped: { path: string; reason: string }[];
}

/** The relative paths `.worktreeinclude` selects in `checkout` (real path): matched and git-ignored. */
export async function includedFiles(checkout: string, env: NodeJS.ProcessEnv): Promise<string[] | { problem: string }> {
  const file = join(checkout, INCLUDE_FILE);
  let info;
  try {
    info = await lstat(file);
  } catch {
    return [];
  }
  if (!info.isFile()) return { problem: `${file} is not a regular file (a link is not followed); nothing was copied` };
  // The folders git ignores as a whole, cheaply (not descended into): the ones no pattern reaches stay unwalked.
  const ignoredDirs = await git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], {
    cwd: checkout,
    env,
    readOnly: true,
  });
  if (ignoredDirs.exitCode !== 0) throw gitFailure('listing the folders git ignores', ignoredDirs);
  const patterns = await readFile(file, 'utf8').then(parsePatterns, () => []);
  // `--directory` also shows a folder that merely holds only ignored files (config/ with its .env): only the
  // folders a pattern ignores themselves are skipped.
  const dirs = splitZ(ignoredDirs.stdout).filter((e) => e.endsWith('/'));
  let skip: string[] = [];
  if (dirs.length > 0) {
    const whole = await git(['check-ignore', '-z', '--stdin'], {
      cwd: checkout,
      env,
      readOnly: true,
      input: `${dirs.join('\0')}\0`,
    });
    if (whole.exitCode !== 0 && whole.exitCode !== 1) throw gitFailure('checking which folders git ignores', whole);
    skip = splitZ(whole.stdout)
      .map((e) => e.replace(/\/+$/, ''))
      .filter((dir) => dir !== '' && !patterns.some((p) => reaches(p, dir)));
  }
  // --exclude-from with --others --ignored lists the untracked files matching these patterns only (not
  // .gitignore): patterns are read as a root-level ignore file, relative to the checkout's top.
  const pathspecs = ['.', ...skip.map((dir) => `:(exclude,top,literal)${dir}`)];
  const matched = await git(['ls-files', '-z', '--others', '--ignored', `--exclude-from=${file}`, '--', ...pathspecs], {
    cwd: checkout,
    env,
    readOnly: true,
  });
  if (matched.exitCode !== 0) throw gitFailure(`listing the files ${INCLUDE_FILE} matches`, matched, `check ${file}`);
  const candidates = splitZ(matched.stdout);
  if (candidates.length === 0) return [];
  // Of those, the ones git's own rules ignore. check-ignore exits 1 when none is ignored.
  const ignored = await git(['check-ignore', '-z', '--stdin'], {
    cwd: checkout,
    env,
    readOnly: true,
    input: `${candidates.join('\0')}\0`,
  });
  if (ignored.exitCode !== 0 && ignored.exitCode !== 1)
    throw gitFailure('checking which of those files git ignores', ignored);
  return splitZ(ignored.stdout);
}

/** Copies `files` (relative, from `includedFiles`) from `checkout` to `worktree` (both real paths). */
export async function copyIncluded(
  checkout: string,
  worktree: string,
  files: readonly string[],
): Promise<IncludeResult> {
  const result: IncludeResult = { copied: [], skipped: [] };
  if (files.length > MAX_FILES) {
    result.skipped.push({
      path: INCLUDE_FILE,
      reason: `it matches ${files.length} files (more than ${MAX_FILES}): narrow its patterns (dependencies are better installed by a setup command); nothing was copied`,
    });
    return result;
  }
  for (const rel of files) {
    const reason = await copyOne(checkout, worktree, rel);
    if (reason === null) result.copied.push(rel);
    else result.skipped.push({ path: rel, reason });
  }
  return result;
}

/** null when copied, else why not. */
async function copyOne(checkout: string, worktree: string, rel: string): Promise<string | null> {
  const parts = rel.split('/');
  if (rel === '' || isAbsolute(rel) || rel.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    return 'not a plain relative path';
  }
  const from = join(checkout, rel);
  try {
    const info = await lstat(from);
    if (info.isSymbolicLink()) return 'is a symbolic link (links are not copied)';
    if (!info.isFile()) return 'is not a regular file';
    if (!isInside(checkout, await realpath(from))) return 'resolves outside the checkout';
  } catch {
    return 'disappeared before it could be copied';
  }
  // Create the parents one by one, refusing any that is a link (it could lead out of the worktree).
  let dir = worktree;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    try {
      const info = await lstat(dir);
      if (info.isSymbolicLink())
        return `its directory ${part} is a symbolic link in the worktree (not written through)`;
      if (!info.isDirectory()) return `${part} is not a directory in the worktree`;
    } catch {
      try {
        await mkdir(dir);
      } catch {
        return `cannot create its directory ${part} in the worktree`;
      }
    }
  }
  try {
    // EXCL: never replace (or write through a link at) a file the worktree already has.
    await copyFile(from, join(worktree, rel), constants.COPYFILE_EXCL);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EEXIST' ? 'the worktree already has it (kept)' : `cannot be copied (${code ?? 'unknown error'})`;
  }
  return null;
}

interface Pattern {
  /** Components of a pattern holding a slash (anchored at the top), else null. */
  path: string[] | null;
  /** The single component of a bare pattern. */
  bare: string;
}

/** The positive patterns of a gitignore-syntax file, reduced to what `reaches` needs. */
export function parsePatterns(text: string): Pattern[] {
  const out: Pattern[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let p = raw.replace(/(?<!\\)\s+$/, '');
    // A negation only takes files away; comments and blank lines say nothing.
    if (p === '' || p.startsWith('#') || p.startsWith('!')) continue;
    p = p.replace(/\/+$/, '');
    while (p.startsWith('**/')) p = p.slice(3);
    const anchored = p.includes('/');
    p = p.replace(/^\/+/, '');
    if (p === '') continue;
    out.push(anchored ? { path: p.split('/').filter((c) => c !== ''), bare: '' } : { path: null, bare: p });
  }
  return out;
}

/** Whether `pattern` could match the folder `dir` (relative, no trailing slash) or anything inside it. */
export function reaches(pattern: Pattern, dir: string): boolean {
  const parts = dir.split('/');
  if (pattern.path === null) return globMatch(pattern.bare, parts.at(-1) ?? '');
  const n = Math.min(pattern.path.length, parts.length);
  for (let i = 0; i < n; i++) {
    const component = pattern.path[i] ?? '';
    if (component.includes('**')) return true;
    if (!globMatch(component, parts[i] ?? '')) return false;
  }
  return true;
}

/** One path component against one glob component (`*`, `?`, `[…]`, backslash escapes), as gitignore reads it. */
export function globMatch(glob: string, name: string): boolean {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '\\' && i + 1 < glob.length) re += escapeRe(glob[++i] ?? '');
    else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += escapeRe(c);
  }
  try {
    return new RegExp(`^${re}$`).test(name);
  } catch {
    // A bracket expression JavaScript cannot read: search the folder rather than miss a file.
    return true;
  }
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
