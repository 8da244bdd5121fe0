// The run directories on disk: finding the runs at open (sweeping what a crash left, skipping what cannot be
// read), and making a new run's directory.
import type { Dirent } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BatonError } from '../../../shared/contract.js';
import { RUN_ID } from '../../../shared/words.js';
import { isErrno, isTempName } from './atomic-file.js';
import { MANIFEST, readManifest } from './manifest.js';
import { directoryState } from './safe-read.js';
import type { RunManifest } from './types.js';

export const SCREENS = 'screens';

/** Run directories read at once at open: a store of 10,000 runs is read in a fraction of the time one by one takes. */
const OPEN_CONCURRENCY = 32;

/**
 * Every run under `runsDir` whose manifest reads well. Anything else is passed to `skip` with the reason and left
 * where it is, except temp files and directories, which only a crash mid-write leaves.
 */
export async function loadRuns(runsDir: string, skip: (path: string, reason: string) => void): Promise<RunManifest[]> {
  const runs: RunManifest[] = [];
  const entries = await readdir(runsDir, { withFileTypes: true });
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const read = await loadEntry(runsDir, entries[next++]!);
      if (read === null) continue;
      if ('manifest' in read) runs.push(read.manifest);
      else skip(read.path, read.reason);
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPEN_CONCURRENCY, entries.length) }, worker));
  return runs;
}

/**
 * One entry of the runs directory: a run, a reason to skip it, or null for a crash's temp left-over (removed).
 * The directory entries' own types (as `lstat` gives them: a link is a link) stand in for an `lstat` of each run
 * directory and of its screens: at open a history of 10,000 runs costs a `readdir` and a manifest read per run.
 */
async function loadEntry(
  runsDir: string,
  entry: Dirent,
): Promise<{ manifest: RunManifest } | { path: string; reason: string } | null> {
  const name = entry.name;
  const path = join(runsDir, name);
  if (isTempName(name)) {
    await rm(path, { recursive: true, force: true });
    return null;
  }
  if (!RUN_ID.test(name)) return { path, reason: 'its name is not a Baton run id' };
  if (!entry.isDirectory())
    return { path, reason: entry.isSymbolicLink() ? 'is a symbolic link, not a directory' : 'is not a directory' };
  const inside = await sweepTemps(path);
  // Through a link the sweep could remove files outside the store.
  if (inside.find((e) => e.name === SCREENS)?.isDirectory()) await sweepTemps(join(path, SCREENS));
  const read = await readManifest(join(path, MANIFEST), name);
  return read.ok ? { manifest: read.value } : { path: join(path, MANIFEST), reason: read.reason };
}

/** Creates a run's directory; false when it was already there (a real directory, never a link). */
export async function makeRunDir(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { mode: 0o700 });
    return true;
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
  }
  const state = await directoryState(dir);
  if (state !== 'ok') throw new BatonError({ code: 'failed', message: `cannot save this run: ${dir} ${state}` });
  return false;
}

/** Removes a crash's temp left-overs in `dir`; returns what else is there. */
async function sweepTemps(dir: string): Promise<Dirent[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return [];
    throw err;
  }
  const kept: Dirent[] = [];
  for (const e of entries)
    if (isTempName(e.name)) await rm(join(dir, e.name), { recursive: true, force: true });
    else kept.push(e);
  return kept;
}
