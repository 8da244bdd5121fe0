// Crash-safe replacement of files and directories: a reader sees the old content or the new, never a mix, and a
// write that fails (a full disk) leaves the old content and no temp file behind. Temp names start with "." and
// contain ".tmp-" so the store can sweep what a crash left.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_MARK = '.tmp-';

/** The sibling temp name for `target`; `isTempName` recognises it. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}${TEMP_MARK}${randomBytes(6).toString('hex')}`);
}

export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARK);
}

/** Replaces `path` with `data`: temp file in the same directory, fsync, rename over, fsync the directory. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const tmp = tempPathFor(path);
  try {
    await writeAndSync(tmp, data, mode);
    await rename(tmp, path);
  } catch (err) {
    // The write's own error is the one to report, not a failure to clean up after it.
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  // Without this the rename itself may be lost on power failure, leaving the old file.
  await fsyncDir(dirname(path));
}

/**
 * Makes `finalDir` appear with exactly `files` in it, all at once or not at all. `finalDir` must not exist yet:
 * renaming a directory over a non-empty one fails, and snapshots are never rewritten.
 */
export async function writeDirAtomic(finalDir: string, files: Record<string, string>, mode = 0o600): Promise<void> {
  for (const name of Object.keys(files)) {
    if (
      name === '' ||
      name === '.' ||
      name === '..' ||
      name.includes('/') ||
      name.includes('\\') ||
      name.includes('\0')
    ) {
      throw new Error('writeDirAtomic: file names must be plain names');
    }
  }
  const tmp = tempPathFor(finalDir);
  try {
    await mkdir(tmp, { mode: 0o700 });
    for (const [name, content] of Object.entries(files)) await writeAndSync(join(tmp, name), content, mode);
    await fsyncDir(tmp);
    await rename(tmp, finalDir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dirname(finalDir));
}

async function writeAndSync(path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const fh = await open(path, 'wx', mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Flushes a directory's entries. Some platforms (Windows) cannot open a directory: there it is best effort. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
  } catch (err) {
    if (isErrno(err, 'EISDIR') || isErrno(err, 'EPERM') || isErrno(err, 'EACCES')) return;
    throw err;
  }
  try {
    await fh.sync();
  } catch (err) {
    if (!isErrno(err, 'EINVAL') && !isErrno(err, 'EPERM') && !isErrno(err, 'EBADF')) throw err;
  } finally {
    await fh.close();
  }
}

export function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}
