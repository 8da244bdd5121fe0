// The summary index (<dataDir>/runs-index.json): every run's manifest as last read from its run.json, with that file's
// identity (device, inode, size, modification and change times) when it was read. Opening 10,000 runs read, parsed and
// validated 10,000 manifests, about two thirds of a cold start's core time (docs/performance.md "Cold start: the
// core's share"); with the index, the open takes a run's manifest from it when its run.json has the same identity, and
// reads the manifest itself otherwise.
// Only a cache: the directory listing says which runs exist (the index never adds one nor hides one), a manifest whose
// file changed in any way is read again, and an index that is missing, damaged or of another format is ignored whole
// (a damaged one reported once) and written again. The body's SHA-256 in the first line tells damage (a sync tool, a
// failing disk) from what Baton wrote; what it wrote are manifests the schema had accepted when they were read.
import type { Stats } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';
import { readBoundedSync } from './safe-read.js';
import { seal, unseal } from './sealed-text.js';
import type { RunManifest } from './types.js';

export const INDEX_FILE = 'runs-index.json';
/** Far above 100,000 runs (about 500 bytes each); a larger file is not one Baton wrote. */
const INDEX_MAX_BYTES = 512 * 1024 * 1024;
/** This format (sealed-text.ts); a file of another is ignored (and replaced). */
export const INDEX_FORMAT = 1;
/**
 * A file changed this recently when it was read is not put in the index. A change leaves a file's identity as it was
 * only when it lands in the same tick of the file system's clock as the change before it (1–10 ms on Linux, 2 s for
 * FAT's times): a manifest read at least this long after its last change is either unchanged since or has another
 * identity now.
 */
export const SETTLED_MS = 2000;

/** [device, inode, size, mtimeMs, ctimeMs] of a run.json, from `lstat`. */
export type FileIdentity = readonly [number, number, number, number, number];

export interface IndexEntry {
  identity: FileIdentity;
  manifest: RunManifest;
}

export const identityOf = (s: Stats): FileIdentity => [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs];

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];
}

/** Whether a file of this identity, read at `readAt` (ms since the epoch, taken before the read), may be indexed. */
export function settled(identity: FileIdentity, readAt: number): boolean {
  return Math.max(identity[3], identity[4]) <= readAt - SETTLED_MS;
}

/**
 * The entries of the index at `path` by run id; empty when there is none or it cannot be used (`ignored` is told why,
 * once). Synchronous: read once at open, before the core serves anything.
 */
export function readIndex(path: string, ignored: (reason: string) => void): Map<string, IndexEntry> {
  const read = readBoundedSync(path, INDEX_MAX_BYTES);
  if (!read.ok) {
    if (!read.missing) ignored(read.reason);
    return new Map();
  }
  const entries = parseIndex(read.text);
  if (typeof entries === 'string') ignored(entries);
  return typeof entries === 'string' ? new Map() : entries;
}

/** The entries, or why the text is not an index this code wrote. */
function parseIndex(text: string): Map<string, IndexEntry> | string {
  const unsealed = unseal(text, INDEX_FORMAT);
  if (!unsealed.ok) return unsealed.reason;
  let body: unknown;
  try {
    body = JSON.parse(unsealed.body);
  } catch {
    return 'it is not valid JSON';
  }
  if (!isRecord(body)) return 'it is not an index';
  const entries = new Map<string, IndexEntry>();
  for (const [id, value] of Object.entries(body)) {
    // Its checksum matched: these are checks of shape, against a bug of another version, not against damage.
    if (!Array.isArray(value) || value.length !== 6) return 'an entry is not an index entry';
    const [dev, ino, size, mtime, ctime, manifest] = value as unknown[];
    const identity = [dev, ino, size, mtime, ctime];
    if (!identity.every((n) => typeof n === 'number' && Number.isFinite(n)) || !isRecord(manifest))
      return 'an entry is not an index entry';
    if (manifest.id !== id) return 'an entry is not filed under its own run id';
    entries.set(id, { identity: identity as unknown as FileIdentity, manifest: manifest as unknown as RunManifest });
  }
  return entries;
}

/**
 * Writes `entries` as the index at `path` (atomically: a reader sees the old index or the new). Each entry is turned
 * into text in slices with a turn of the event loop between them, so requests are answered meanwhile.
 */
export async function writeIndex(path: string, entries: Iterable<[string, IndexEntry]>): Promise<void> {
  const parts: string[] = [];
  let n = 0;
  for (const [id, { identity, manifest }] of entries) {
    parts.push(`${JSON.stringify(id)}:${JSON.stringify([...identity, manifest])}`);
    if (++n % 500 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await writeFileAtomic(path, seal(INDEX_FORMAT, `{${parts.join(',')}}`));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
