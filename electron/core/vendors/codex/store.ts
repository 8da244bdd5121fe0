// Codex CLI's on-disk store (docs/vendors.md §2): rollouts under `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/` in LOCAL
// time (days.ts) and the per-thread writer locks, read without starting the CLI. One CodexStore per vendor context
// remembers where rollouts were seen and caches the listing.
import { join } from 'node:path';
import type { FoundSession, SessionIndex, VendorEnv } from '../adapter.js';
import { stateSlot } from '../kit/context.js';
import { displayPath, vendorHome } from '../kit/home.js';
import { LOWER_UUID, UUID_SOURCE } from '../kit/ids.js';
import { isFile, listDir, pathForms } from '../kit/store-fs.js';
import { FileCache } from '../kit/transcript-cache.js';
import { localDayFolders } from './days.js';
import type { HeldFiles } from './proc.js';
import { readRolloutHead } from './rollout.js';
import { indexCodexRollouts } from './session-index.js';

/** Codex thread ids are UUIDv7 as the CLI mints them; any lowercase UUID is accepted (never a name: see §2 pitfall 2). */
export const CODEX_SESSION_ID = LOWER_UUID;

/** `rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl`. */
export const ROLLOUT_NAME = new RegExp(`^rollout-.+-(${UUID_SOURCE})\\.jsonl$`);
/** `thread-writer-locks/<uuid>.lock`. */
export const LOCK_NAME = new RegExp(`^(${UUID_SOURCE})\\.lock$`);

/** `${CODEX_HOME:-$HOME/.codex}`. */
export function codexHome(env: VendorEnv): string {
  return vendorHome(env, 'CODEX_HOME', '.codex');
}

/** The home as the user would write it (`~/.codex`), for messages. */
export function displayCodexHome(env: VendorEnv): string {
  return displayPath(codexHome(env), env);
}

export const sessionsDir = (env: VendorEnv) => join(codexHome(env), 'sessions');
export const locksDir = (env: VendorEnv) => join(codexHome(env), 'thread-writer-locks');

/** Paths of the Codex home as they may appear in /proc fd links (the link target is the resolved path). */
export async function homeForms(env: VendorEnv): Promise<string[]> {
  return pathForms(codexHome(env)); // not created yet: as written
}

/** Rollout files of one day folder: id → path. */
async function rolloutsIn(dayDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of await listDir(dayDir)) {
    const m = ROLLOUT_NAME.exec(name);
    if (m) out.set(m[1]!, join(dayDir, name));
  }
  return out;
}

/** Every day folder of the store, newest first. */
async function allDayDirs(env: VendorEnv): Promise<string[]> {
  const root = sessionsDir(env);
  const out: string[] = [];
  const years = (await listDir(root))
    .filter((n) => /^\d{4}$/.test(n))
    .sort()
    .reverse();
  for (const y of years) {
    const months = (await listDir(join(root, y)))
      .filter((n) => /^\d{2}$/.test(n))
      .sort()
      .reverse();
    for (const m of months) {
      const days = (await listDir(join(root, y, m)))
        .filter((n) => /^\d{2}$/.test(n))
        .sort()
        .reverse();
      for (const d of days) out.push(join(root, y, m, d));
    }
  }
  return out;
}

/** The day folders (local time) of each of `instants`, today and yesterday, without repeats. */
function recentDayDirs(env: VendorEnv, instants: readonly Date[]): string[] {
  const root = sessionsDir(env);
  const dirs: string[] = [];
  for (const at of instants)
    for (const f of localDayFolders(at, env)) if (!dirs.includes(join(root, f))) dirs.push(join(root, f));
  return dirs;
}

/** Ids of the rollouts in the recent day folders around `instants`, each with its path. */
export async function recentRollouts(env: VendorEnv, instants: readonly Date[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const dir of recentDayDirs(env, instants)) for (const [id, p] of await rolloutsIn(dir)) out.set(id, p);
  return out;
}

/** Ids with a file in `thread-writer-locks/`. */
export async function lockIds(env: VendorEnv): Promise<Set<string>> {
  const out = new Set<string>();
  for (const name of await listDir(locksDir(env))) {
    const m = LOCK_NAME.exec(name);
    if (m) out.add(m[1]!);
  }
  return out;
}

export class CodexStore {
  /** Where rollouts were last seen, so confirmations and `exists` need one stat, not a scan. */
  private readonly knownPaths = new Map<string, string>();
  /** Parsed heads by path, valid while the file's mtime and size stay the same. */
  private readonly listCache = new FileCache<FoundSession | null>();

  /**
   * The rollout of thread `id`, or null: today's and yesterday's local-date folders first, then (unless `recentOnly`)
   * a scan of every day folder. The id must already match CODEX_SESSION_ID (it becomes part of a file name pattern).
   */
  async findRollout(
    id: string,
    env: VendorEnv,
    opts: { now?: Date; also?: readonly Date[]; recentOnly?: boolean } = {},
  ): Promise<string | null> {
    if (!CODEX_SESSION_ID.test(id)) return null;
    const root = sessionsDir(env);
    const known = this.knownPaths.get(id);
    if (known && known.startsWith(`${root}/`) && (await isFile(known))) return known;
    this.knownPaths.delete(id);
    const recent = recentDayDirs(env, [opts.now ?? new Date(), ...(opts.also ?? [])]);
    for (const dir of recent) {
      const hit = (await rolloutsIn(dir)).get(id);
      if (hit && (await isFile(hit))) return this.remember(id, hit);
    }
    if (opts.recentOnly) return null;
    for (const dir of await allDayDirs(env)) {
      if (recent.includes(dir)) continue;
      const hit = (await rolloutsIn(dir)).get(id);
      if (hit && (await isFile(hit))) return this.remember(id, hit);
    }
    return null;
  }

  /** Every rollout at once, for checking many runs (session-index.ts). */
  index(env: VendorEnv): Promise<SessionIndex> {
    return indexCodexRollouts(
      { dayDirs: allDayDirs, rolloutName: ROLLOUT_NAME, root: sessionsDir },
      this.knownPaths,
      env,
    );
  }

  /** Notes the rollouts a live process holds open (proc.ts): their paths are then known without a scan. */
  rememberHeld(held: HeldFiles): HeldFiles {
    for (const [id, path] of held.rollouts) this.remember(id, path);
    return held;
  }

  private remember(id: string, path: string): string {
    this.knownPaths.set(id, path);
    return path;
  }

  /** Every rollout of the store (newest activity first), reading at most the head of a changed file. */
  async list(env: VendorEnv): Promise<FoundSession[]> {
    const out: FoundSession[] = [];
    const seen = new Set<string>();
    for (const dir of await allDayDirs(env)) {
      for (const name of await listDir(dir)) {
        const m = ROLLOUT_NAME.exec(name);
        if (!m) continue;
        const path = join(dir, name);
        seen.add(path);
        const found = await this.listCache.get(path, async (p, { mtimeMs }) => {
          const head = await readRolloutHead(p);
          return head && head.sessionId === m[1]
            ? {
                sessionId: head.sessionId,
                cwd: head.cwd,
                title: null,
                firstPrompt: head.firstPrompt,
                lastActivity: new Date(mtimeMs).toISOString(),
              }
            : null;
        });
        if (found?.value) out.push(found.value);
      }
    }
    this.listCache.prune(sessionsDir(env), seen);
    return out.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
  }
}

export const CODEX_STORE = stateSlot('codex store', () => new CodexStore());
