// The run directories on disk: finding the runs at open (skipping what cannot be read), sweeping what a crash left
// once open, and making a new run's directory.
import type { Dirent } from 'node:fs';
import { lstatSync, readdirSync } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BatonError } from '../../../shared/contract.js';
import { RUN_ID } from '../../../shared/words.js';
import { isErrno, isTempName, writeDirAtomic, writeFileAtomic } from './atomic-file.js';
import { identityOf, sameIdentity, settled, type IndexEntry } from './manifest-index.js';
import { MANIFEST, manifestText, readManifestSync } from './manifest.js';
import { directoryState } from './safe-read.js';
import type { RunManifest } from './types.js';
import { isFileSystemError, saveFailure } from './write-errors.js';

export const SCREENS = 'screens';

/** Run directories swept at once after open: a few, so the first requests are not queued behind the sweep. */
const SWEEP_CONCURRENCY = 4;

/** What the open found: the runs, and for the summary index, each run whose manifest is known with its file's identity. */
export interface LoadedRuns {
  runs: RunManifest[];
  /** The index's entries still true and the manifests read now that may be indexed (manifest-index.ts `settled`). */
  indexable: Map<string, IndexEntry>;
  /** How many of `runs` were taken from the index. */
  fromIndex: number;
  /** Whether the index on disk is not every run's (a run read from its manifest, one gone): write it again. */
  stale: boolean;
}

/**
 * Every run under `runsDir` whose manifest reads well. Anything else is passed to `skip` with the reason and left
 * where it is. Read synchronously: the core serves nothing before its runs are known, and 10,000 manifests read
 * through libuv's pool (four trips per file) took several times as long as plain system calls.
 * A run whose run.json has the identity `index` holds for it is taken from there (one `lstat`, no read, no parse);
 * any other is read, the file's identity taken just before the read (a change after it gives another identity).
 * The temp files and directories a crash mid-write leaves are not looked for here (a `readdir` of every run
 * directory doubled the open): `sweepLeftovers` removes them after open.
 */
export function loadRuns(
  runsDir: string,
  skip: (path: string, reason: string) => void,
  index: ReadonlyMap<string, IndexEntry> = new Map(),
): LoadedRuns {
  const readAt = Date.now();
  const runs: RunManifest[] = [];
  const indexable = new Map<string, IndexEntry>();
  let fromIndex = 0;
  for (const entry of readdirSync(runsDir, { withFileTypes: true })) {
    const name = entry.name;
    const path = join(runsDir, name);
    if (isTempName(name)) continue;
    if (!RUN_ID.test(name)) skip(path, 'its name is not a Baton run id');
    else if (!entry.isDirectory())
      skip(path, entry.isSymbolicLink() ? 'is a symbolic link, not a directory' : 'is not a directory');
    else {
      const file = join(path, MANIFEST);
      const info = lstatSync(file, { throwIfNoEntry: false });
      const identity = info?.isFile() ? identityOf(info) : null;
      const known = index.get(name);
      if (identity && known && sameIdentity(known.identity, identity)) {
        runs.push(known.manifest);
        indexable.set(name, known);
        fromIndex++;
        continue;
      }
      const read = readManifestSync(file, name);
      if (!read.ok) {
        skip(file, read.reason);
        continue;
      }
      runs.push(read.value);
      if (identity && settled(identity, readAt)) indexable.set(name, { identity, manifest: read.value });
    }
  }
  return { runs, indexable, fromIndex, stale: fromIndex !== index.size || fromIndex !== runs.length };
}

/**
 * Removes what interrupted writes left under `runsDir` (a run directory half deleted, a manifest or snapshot half
 * written) that was last changed before `before`, the store's open: a temp file of a write this core is making has
 * a later time and stays. The directory entries' own types (as `lstat` gives them) keep the sweep from following a
 * link out of the store.
 */
export async function sweepLeftovers(runsDir: string, before: number): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(runsDir, { withFileTypes: true });
  } catch (err) {
    // The data directory removed meanwhile (a test's, say): nothing left to sweep.
    if (isErrno(err, 'ENOENT')) return;
    throw err;
  }
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const entry = entries[next++]!;
      const path = join(runsDir, entry.name);
      if (isTempName(entry.name)) await removeIfOld(path, before);
      else if (RUN_ID.test(entry.name) && entry.isDirectory()) {
        const inside = await sweepTemps(path, before);
        if (inside.find((e) => e.name === SCREENS)?.isDirectory()) await sweepTemps(join(path, SCREENS), before);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, entries.length) }, worker));
}

async function removeIfOld(path: string, before: number): Promise<void> {
  const info = await lstat(path).catch(() => null);
  if (info && info.mtimeMs < before) await rm(path, { recursive: true, force: true });
}

const UNREADABLE_MANIFEST = 'run.json.unreadable';

/**
 * A new run's directory `dir` in `runsDir` with its first manifest. A new directory appears whole, manifest and all
 * (written under a temp name, then renamed): a crash between making it and writing the manifest would otherwise leave
 * a run directory without a readable manifest. On failure nothing of it stays; a refusal of the disk is reported on
 * stderr and thrown as the save failure the user sees.
 */
export async function writeNewRun(runsDir: string, dir: string, m: RunManifest): Promise<void> {
  try {
    await mkdir(runsDir, { recursive: true, mode: 0o700 });
    const state = await directoryState(dir);
    if (state === 'missing') await writeDirAtomic(dir, { [MANIFEST]: manifestText(m) });
    else if (state === 'ok') {
      // The directory of a run that could not be read (a handle names it again): keep its old manifest aside.
      await rename(join(dir, MANIFEST), join(dir, UNREADABLE_MANIFEST)).catch(() => undefined);
      await writeFileAtomic(join(dir, MANIFEST), manifestText(m));
    } else throw new BatonError({ code: 'failed', message: `cannot save this run: ${dir} ${state}` });
  } catch (err) {
    if (!isFileSystemError(err)) throw err;
    const problem = saveFailure(err, m.name, dir, true);
    process.stderr.write(`baton: ${problem.message}\n`);
    throw problem;
  }
}

/** Removes a crash's temp left-overs in `dir` (older than `before`); returns what else is there. */
async function sweepTemps(dir: string, before: number): Promise<Dirent[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return [];
    throw err;
  }
  const kept: Dirent[] = [];
  for (const e of entries)
    if (isTempName(e.name)) await removeIfOld(join(dir, e.name), before);
    else kept.push(e);
  return kept;
}
