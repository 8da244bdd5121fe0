// Parsed vendor files, re-read only when they changed: a refresh of a store of thousands of sessions then costs
// one stat per file (docs/architecture.md §9 `listSessions`). Each cache lives in a core's vendor context (context.ts).
import { stat } from 'node:fs/promises';

/** What a file looked like when it was parsed. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

export interface CachedFile<T> extends FileStamp {
  value: T;
}

/** Parsed files by path, each valid while its mtime and size stay the same. */
export class FileCache<T> {
  private readonly entries = new Map<string, CachedFile<T>>();

  /** How many files the cache holds (for tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The parsed file at `path`, parsed again only when it changed. Null when it is not a file, or cannot be read or
   * parsed (`parse` threw); a path that is gone is forgotten.
   */
  async get(path: string, parse: (path: string, stamp: FileStamp) => Promise<T>): Promise<CachedFile<T> | null> {
    let st;
    try {
      st = await stat(path);
    } catch {
      this.entries.delete(path);
      return null;
    }
    if (!st.isFile()) return null;
    const hit = this.entries.get(path);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    let value: T;
    try {
      value = await parse(path, { mtimeMs: st.mtimeMs, size: st.size });
    } catch {
      return null;
    }
    const entry = { mtimeMs: st.mtimeMs, size: st.size, value };
    this.entries.set(path, entry);
    return entry;
  }

  /** Forgets the files under `root` that a listing did not see (they are gone). */
  prune(root: string, seen: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${root}/`) && !seen.has(key)) this.entries.delete(key);
  }
}
