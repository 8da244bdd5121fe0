// Which transcript paths changed since the last look (docs/search.md §4): each vendor's transcript tree is watched
// folder by folder (inotify through `fs.watch`), down to the depth its transcripts lie at, so a refresh reads only
// the paths named by events instead of stat'ing every file. A folder that appears later (a new project) is watched
// as soon as its creation is seen; a watcher that fails marks the whole watch as failed, and the caller falls back
// to its full pass. Runs in the search worker, never on the core's event loop.
import { watch, readdirSync, statSync, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export interface WatchRoot {
  dir: string;
  /** Folder levels below `dir` that hold transcripts or their folders (0: files directly in `dir`). */
  depth: number;
}

export class TranscriptWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /** Each watched root's inode: a root removed and made again is a new folder, whose watch must be made again. */
  private readonly rootInodes = new Map<string, number>();
  private changed = new Set<string>();
  /** Why watching stopped (then every refresh is a full pass), or null while it works. */
  failure: string | null = null;

  /**
   * Watches every root that exists and is not watched yet (or was removed and made again); true when one was newly
   * watched (what changed in it before is unknown, so the caller makes a full pass). A root that does not exist yet
   * is tried again at the next call.
   */
  ensure(roots: readonly WatchRoot[]): boolean {
    if (this.failure) return false;
    let fresh = false;
    for (const r of roots) {
      const st = statSync(r.dir, { throwIfNoEntry: false });
      const ino = st?.isDirectory() ? st.ino : null;
      if (this.watchers.has(r.dir) && this.rootInodes.get(r.dir) === ino) continue;
      this.unwatch(r.dir);
      this.rootInodes.delete(r.dir);
      if (ino === null) continue;
      this.watchDir(r.dir, r.depth, true);
      this.rootInodes.set(r.dir, ino);
      fresh = true;
    }
    return fresh;
  }

  /** The paths (files, or folders whose contents changed) seen changing since the last call. */
  take(): Set<string> {
    const out = this.changed;
    this.changed = new Set();
    return out;
  }

  /** Folders watched now. */
  get watching(): number {
    return this.watchers.size;
  }

  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = (err as { code?: string }).code ?? (err instanceof Error ? err.name : 'error');
    this.close();
  }

  private watchDir(dir: string, levels: number, root: boolean): void {
    if (this.failure || this.watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: false }, (_type, name) => this.seen(dir, levels, name));
    } catch (err) {
      // The root gone between stat and watch is retried later; anything else (out of inotify watches) is a failure.
      if ((err as { code?: string }).code !== 'ENOENT') this.fail(err);
      return;
    }
    w.on('error', (err) => {
      if (root) return this.fail(err);
      this.unwatch(dir); // a project folder removed: its parent's event says so
      this.changed.add(dir);
    });
    this.watchers.set(dir, w);
    if (levels === 0) return;
    let names: string[] = [];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      // gone meanwhile: its parent's event says so
    }
    for (const name of names) this.watchDir(join(dir, name), levels - 1, false);
  }

  private seen(dir: string, levels: number, name: string | Buffer | null): void {
    if (name === null) {
      this.changed.add(dir); // the event did not say which entry: the folder is looked at whole
      return;
    }
    const path = join(dir, name.toString());
    this.changed.add(path);
    if (levels === 0) return;
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isDirectory()) this.watchDir(path, levels - 1, false);
    else if (!st) this.unwatch(path);
  }

  /** Stops watching `dir` and every folder below it. */
  private unwatch(dir: string): void {
    for (const [d, w] of this.watchers)
      if (d === dir || d.startsWith(`${dir}${sep}`)) {
        w.close();
        this.watchers.delete(d);
      }
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.rootInodes.clear();
  }
}
