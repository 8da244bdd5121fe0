// Codex CLI's on-disk store (vendors.md §2): rollouts under `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/` in LOCAL
// time, the per-thread writer locks, and the live processes that hold them. Read without starting the CLI.
import { readdir, readlink, stat } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FoundSession, VendorEnv } from './adapter.js';
import { readProcesses } from '../pty/process-tree.js';
import { displayPath, isFile, listDir, pathForms } from './store-fs.js';
import { FileCache, HEAD_BYTES, readHeadBytes } from './transcript-cache.js';

/** Codex thread ids are UUIDv7 as the CLI mints them; any lowercase UUID is accepted (never a name: see §2 pitfall 2). */
export const CODEX_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const UUID_IN_NAME = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';
/** `rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl`. */
export const ROLLOUT_NAME = new RegExp(`^rollout-.+-${UUID_IN_NAME}\\.jsonl$`);
const LOCK_NAME = new RegExp(`^${UUID_IN_NAME}\\.lock$`);

/** How much of a rollout is read to find its session_meta and first prompt. */
export const ROLLOUT_HEAD_BYTES = HEAD_BYTES;

/** `${CODEX_HOME:-$HOME/.codex}`. */
export function codexHome(env: VendorEnv): string {
  const dir = env.CODEX_HOME;
  if (dir) return dir;
  return join(env.HOME || '/', '.codex');
}

/** The home as the user would write it (`~/.codex`), for messages. */
export function displayCodexHome(env: VendorEnv): string {
  return displayPath(codexHome(env), env);
}

export const sessionsDir = (env: VendorEnv) => join(codexHome(env), 'sessions');
export const locksDir = (env: VendorEnv) => join(codexHome(env), 'thread-writer-locks');

// ---------------------------------------------------------------- local-time folders

interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** The IANA zone named by TZ, when Intl knows it (POSIX rules such as `UTC0` or `:/etc/localtime` are not). */
function zoneOf(env: VendorEnv): string | null {
  let tz = env.TZ;
  if (!tz) return null;
  if (tz.startsWith(':')) tz = tz.slice(1);
  if (tz === '' || tz.startsWith('/')) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return null;
  }
}

/** The calendar day of `at` where the CLI runs: in env.TZ (the CLI inherits it), else this process's local time. */
function localDay(at: Date, env: VendorEnv): Ymd {
  const zone = zoneOf(env);
  if (zone) {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(at);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const ymd = { y: get('year'), m: get('month'), d: get('day') };
    if (Number.isFinite(ymd.y) && Number.isFinite(ymd.m) && Number.isFinite(ymd.d)) return ymd;
  }
  return { y: at.getFullYear(), m: at.getMonth() + 1, d: at.getDate() };
}

const pad = (n: number) => String(n).padStart(2, '0');
const folderOf = ({ y, m, d }: Ymd) => `${String(y).padStart(4, '0')}/${pad(m)}/${pad(d)}`;

/**
 * `YYYY/MM/DD` of the local day of `at` and of the day before it (calendar arithmetic: DST days are 23 or 25 h long).
 * Codex names folders in local time; never derive them from UTC (vendors.md §2 pitfall 3).
 */
export function localDayFolders(at: Date, env: VendorEnv): [string, string] {
  const today = localDay(at, env);
  const prev = new Date(Date.UTC(today.y, today.m - 1, today.d - 1));
  return [folderOf(today), folderOf({ y: prev.getUTCFullYear(), m: prev.getUTCMonth() + 1, d: prev.getUTCDate() })];
}

// ---------------------------------------------------------------- finding rollouts

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
  const years = (await listDir(root)).filter((n) => /^\d{4}$/.test(n)).sort().reverse();
  for (const y of years) {
    const months = (await listDir(join(root, y))).filter((n) => /^\d{2}$/.test(n)).sort().reverse();
    for (const m of months) {
      const days = (await listDir(join(root, y, m))).filter((n) => /^\d{2}$/.test(n)).sort().reverse();
      for (const d of days) out.push(join(root, y, m, d));
    }
  }
  return out;
}

/** Where rollouts were last seen, so confirmations and `exists` need one stat, not a scan. */
const knownPaths = new Map<string, string>();

/** The day folders (local time) of each of `instants`, today and yesterday, without repeats. */
function recentDayDirs(env: VendorEnv, instants: readonly Date[]): string[] {
  const root = sessionsDir(env);
  const dirs: string[] = [];
  for (const at of instants) for (const f of localDayFolders(at, env)) if (!dirs.includes(join(root, f))) dirs.push(join(root, f));
  return dirs;
}

/**
 * The rollout of thread `id`, or null: today's and yesterday's local-date folders first, then (unless `recentOnly`)
 * a scan of every day folder. The id must already match CODEX_SESSION_ID (it becomes part of a file name pattern).
 */
export async function findRollout(
  id: string,
  env: VendorEnv,
  opts: { now?: Date; also?: readonly Date[]; recentOnly?: boolean } = {},
): Promise<string | null> {
  if (!CODEX_SESSION_ID.test(id)) return null;
  const root = sessionsDir(env);
  const known = knownPaths.get(id);
  if (known && known.startsWith(`${root}/`) && (await isFile(known))) return known;
  knownPaths.delete(id);
  const recent = recentDayDirs(env, [opts.now ?? new Date(), ...(opts.also ?? [])]);
  for (const dir of recent) {
    const hit = (await rolloutsIn(dir)).get(id);
    if (hit && (await isFile(hit))) return remember(id, hit);
  }
  if (opts.recentOnly) return null;
  for (const dir of await allDayDirs(env)) {
    if (recent.includes(dir)) continue;
    const hit = (await rolloutsIn(dir)).get(id);
    if (hit && (await isFile(hit))) return remember(id, hit);
  }
  return null;
}

function remember(id: string, path: string): string {
  knownPaths.set(id, path);
  return path;
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

/** When a file came into being (birth time where the filesystem has it, else its inode change time), or null. */
export async function bornAt(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.birthtimeMs > 0 ? s.birthtimeMs : s.ctimeMs;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- reading rollouts

export interface RolloutHead {
  sessionId: string;
  cwd: string | null;
  /** session_meta.timestamp (ISO) when present. */
  startedAt: string | null;
  modelProvider: string | null;
  firstPrompt: string | null;
}

interface Line {
  type?: unknown;
  payload?: Record<string, unknown>;
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content
    .filter((b): b is { text: string } => typeof b === 'object' && b !== null && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => b.text);
  return texts.length > 0 ? texts.join('\n') : null;
}

const ENV_CONTEXT = '<environment_context>';

/**
 * session_meta (line 1) and the first user prompt of a rollout's text: the first user message after the
 * `<environment_context>` item (or, with no such item, the first user message that is not a `<…>` block).
 * A torn or unparsable line is skipped. Null when the first line is not a valid session_meta.
 */
export function parseRolloutHead(text: string): RolloutHead | null {
  const lines = text.split('\n');
  let head: RolloutHead | null = null;
  let seenEnv = false;
  let fallbackPrompt: string | null = null;
  for (const raw of lines) {
    if (raw.trim() === '') continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      if (head === null) return null;
      continue;
    }
    if (head === null) {
      const p = line.payload;
      const id = p && (typeof p.id === 'string' ? p.id : typeof p.session_id === 'string' ? p.session_id : null);
      if (line.type !== 'session_meta' || !p || !id || !CODEX_SESSION_ID.test(id)) return null;
      head = {
        sessionId: id,
        cwd: typeof p.cwd === 'string' ? p.cwd : null,
        startedAt: typeof p.timestamp === 'string' ? p.timestamp : null,
        modelProvider: typeof p.model_provider === 'string' ? p.model_provider : null,
        firstPrompt: null,
      };
      continue;
    }
    const p = line.payload;
    if (line.type !== 'response_item' || !p || p.type !== 'message' || p.role !== 'user') continue;
    const t = textOf(p.content);
    if (t === null) continue;
    if (t.trimStart().startsWith(ENV_CONTEXT)) {
      seenEnv = true;
      continue;
    }
    if (seenEnv) {
      head.firstPrompt = t;
      return head;
    }
    if (fallbackPrompt === null && !t.trimStart().startsWith('<')) fallbackPrompt = t;
  }
  if (head && head.firstPrompt === null) head.firstPrompt = fallbackPrompt;
  return head;
}

/** The first `bytes` of a file as text, cut at the last complete line when the file is longer. */
export async function readHead(path: string, bytes = ROLLOUT_HEAD_BYTES): Promise<string | null> {
  let buf;
  try {
    buf = await readHeadBytes(path, bytes);
  } catch {
    return null;
  }
  let text = buf.toString('utf8');
  if (buf.length === bytes) {
    const nl = text.lastIndexOf('\n');
    text = nl >= 0 ? text.slice(0, nl + 1) : '';
  }
  return text;
}

export async function readRolloutHead(path: string): Promise<RolloutHead | null> {
  const text = await readHead(path);
  return text === null ? null : parseRolloutHead(text);
}

// ---------------------------------------------------------------- listing

/** Parsed heads by path, valid while the file's mtime and size stay the same. */
const listCache = new FileCache<FoundSession | null>();

/** Every rollout of the store (newest activity first), reading at most ROLLOUT_HEAD_BYTES of a changed file. */
export async function listRollouts(env: VendorEnv): Promise<FoundSession[]> {
  const out: FoundSession[] = [];
  const seen = new Set<string>();
  for (const dir of await allDayDirs(env)) {
    for (const name of await listDir(dir)) {
      const m = ROLLOUT_NAME.exec(name);
      if (!m) continue;
      const path = join(dir, name);
      seen.add(path);
      const found = await listCache.get(path, async (p, { mtimeMs }) => {
        const head = await readRolloutHead(p);
        return head && head.sessionId === m[1]
          ? { sessionId: head.sessionId, cwd: head.cwd, title: null, firstPrompt: head.firstPrompt, lastActivity: new Date(mtimeMs).toISOString() }
          : null;
      });
      if (found?.value) out.push(found.value);
    }
  }
  listCache.prune(sessionsDir(env), seen);
  return out.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
}

// ---------------------------------------------------------------- live processes

let childrenFiles: boolean | null = null;

/** Whether this kernel has /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN). */
function hasChildrenFiles(): boolean {
  childrenFiles ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childrenFiles;
}

/** `pid` and every live descendant (the PTY child is a node wrapper; the real codex is its child). */
export function processTree(pid: number): number[] {
  const tree = [pid];
  const inTree = new Set(tree);
  const add = (child: number) => {
    if (Number.isInteger(child) && child > 0 && !inTree.has(child)) {
      inTree.add(child);
      tree.push(child);
    }
  };
  if (hasChildrenFiles()) {
    for (let i = 0; i < tree.length; i++) {
      const p = tree[i]!;
      let tasks: string[];
      try {
        tasks = readdirSync(`/proc/${p}/task`);
      } catch {
        continue; // gone
      }
      for (const t of tasks) {
        try {
          for (const c of readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').split(' ')) if (c !== '') add(Number(c));
        } catch {
          /* the thread ended */
        }
      }
    }
    return tree;
  }
  // No `children` files: walk the ppid links of every process instead.
  const kids = new Map<number, number[]>();
  for (const p of readProcesses()) if (!p.zombie) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), p.pid]);
  for (let i = 0; i < tree.length; i++) for (const c of kids.get(tree[i]!) ?? []) add(c);
  return tree;
}

export interface HeldFiles {
  /** Thread ids whose writer lock a process of the tree holds open. */
  locks: string[];
  /** Rollouts a process of the tree holds open: id → path. */
  rollouts: Map<string, string>;
}

/** Paths of the Codex home as they may appear in /proc fd links (the link target is the resolved path). */
export async function homeForms(env: VendorEnv): Promise<string[]> {
  return pathForms(codexHome(env)); // not created yet: as written
}

/**
 * The writer locks (`<home>/thread-writer-locks/<uuid>.lock`) and rollouts that the processes of the tree under
 * `rootPid` hold open, read from /proc/<pid>/fd. Only files of this Codex home count.
 */
export async function heldFiles(rootPid: number, homes: readonly string[]): Promise<HeldFiles> {
  const locks: string[] = [];
  const rollouts = new Map<string, string>();
  for (const pid of processTree(rootPid)) {
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = await readlink(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (target.endsWith(' (deleted)')) continue;
      const name = basename(target);
      const dir = target.slice(0, target.length - name.length - 1);
      const lock = LOCK_NAME.exec(name);
      if (lock && homes.some((h) => dir === join(h, 'thread-writer-locks'))) {
        if (!locks.includes(lock[1]!)) locks.push(lock[1]!);
        continue;
      }
      const rollout = ROLLOUT_NAME.exec(name);
      if (rollout && homes.some((h) => dir.startsWith(`${join(h, 'sessions')}/`))) {
        rollouts.set(rollout[1]!, target);
        remember(rollout[1]!, target);
      }
    }
  }
  return { locks, rollouts };
}
