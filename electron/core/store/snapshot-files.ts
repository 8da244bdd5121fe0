// A snapshot on disk: runs/<runId>/screens/<snapshotId>/ holding snapshot.json and one file per agent's screen.
// Written as a whole directory (see writeDirAtomic); read back as untrusted files.
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { BatonError, describeIssue, screenSchema, snapshotViewSchema } from '../../../shared/contract.js';
import { AGENT_ID, SNAPSHOT_ID } from '../../../shared/words.js';
import { tempPathFor } from './atomic-file.js';
import { directoryState, readJsonFile } from './safe-read.js';
import type { SnapshotView, StoredScreen } from './types.js';

/** Screens are bounded so one chatty agent cannot fill the disk; the tail is what a user wants back. */
export const SCREEN_MAX_BYTES = 512 * 1024;
export const SNAPSHOTS_KEPT = 20;
export const SNAPSHOT_FILE = 'snapshot.json';

// A stored screen is two capped strings; JSON escapes (\u001b is six bytes) can grow them up to six times.
const SCREEN_FILE_MAX_BYTES = 2 * 6 * SCREEN_MAX_BYTES + 64 * 1024;
const SNAPSHOT_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** The files of a snapshot directory, validated and with each screen capped to its tail. */
export function snapshotFiles(snapshot: SnapshotView, screens: readonly StoredScreen[]): Record<string, string> {
  const snap = snapshotViewSchema.safeParse(snapshot);
  if (!snap.success) throw new BatonError(describeIssue(snap.error, 'snapshot'));
  const files: Record<string, string> = { [SNAPSHOT_FILE]: JSON.stringify(snap.data) };
  for (const [i, screen] of screens.entries()) {
    const parsed = screenSchema.safeParse(screen);
    if (!parsed.success) throw new BatonError(describeIssue(parsed.error, `screens[${i}]`));
    const s = parsed.data;
    if (files[s.agentId] !== undefined) {
      throw new BatonError({
        code: 'invalid',
        field: `screens[${i}].agentId`,
        message: `screens[${i}].agentId: appears twice`,
      });
    }
    const capped: StoredScreen = {
      ...s,
      text: keepTail(s.text, SCREEN_MAX_BYTES),
      serialized: keepTail(s.serialized, SCREEN_MAX_BYTES),
    };
    files[s.agentId] = JSON.stringify(capped);
  }
  return files;
}

/**
 * The snapshot in `dir` with the screens that read well, in the snapshot's agent order; undefined when there is
 * no usable snapshot there (`warn` is told why, unless it is simply missing). A bad screen file is skipped.
 */
export async function readSnapshotDir(
  dir: string,
  warn: (path: string, reason: string) => void,
): Promise<{ snapshot: SnapshotView; screens: StoredScreen[] } | undefined> {
  const state = await directoryState(dir);
  if (state !== 'ok') {
    if (state !== 'missing') warn(dir, state);
    return undefined;
  }
  const snap = await readJsonFile(join(dir, SNAPSHOT_FILE), SNAPSHOT_FILE_MAX_BYTES, snapshotViewSchema);
  if (!snap.ok) {
    // A snapshot directory always holds snapshot.json: it is written whole, so missing means damaged.
    warn(join(dir, SNAPSHOT_FILE), snap.reason);
    return undefined;
  }
  if (snap.value.id !== basename(dir)) {
    warn(join(dir, SNAPSHOT_FILE), 'its id does not match its directory');
    return undefined;
  }
  const names = await readdir(dir).catch(() => [] as string[]);
  const screens: StoredScreen[] = [];
  for (const name of names) {
    if (!AGENT_ID.test(name)) continue;
    const s = await readJsonFile(join(dir, name), SCREEN_FILE_MAX_BYTES, screenSchema);
    if (!s.ok) warn(join(dir, name), s.reason);
    else if (s.value.agentId !== name) warn(join(dir, name), 'its agent id does not match its name');
    else screens.push(s.value);
  }
  // The snapshot's own agent order, which is the order the panes were laid out in.
  const order = new Map(snap.value.agents.map((a, i) => [a.agentId, i]));
  screens.sort((a, b) => (order.get(a.agentId) ?? Infinity) - (order.get(b.agentId) ?? Infinity));
  return { snapshot: snap.value, screens };
}

/** Keeps the newest SNAPSHOTS_KEPT snapshots by their `at` time, and always the one just written. */
export async function pruneSnapshots(screensDir: string, justWritten: string): Promise<void> {
  const ids = (await readdir(screensDir)).filter((n) => SNAPSHOT_ID.test(n));
  if (ids.length <= SNAPSHOTS_KEPT) return;
  const dated = await Promise.all(ids.map(async (id) => ({ id, ...(await snapshotTime(join(screensDir, id))) })));
  dated.sort((a, b) => b.at - a.at || b.mtime - a.mtime);
  const keep = new Set(dated.slice(0, SNAPSHOTS_KEPT).map((d) => d.id));
  keep.add(justWritten);
  for (const { id } of dated) {
    if (keep.has(id)) continue;
    // Renamed first so a crash mid-removal leaves a temp name (swept at open), never half a snapshot.
    const doomed = tempPathFor(join(screensDir, id));
    await rename(join(screensDir, id), doomed);
    await rm(doomed, { recursive: true, force: true });
  }
}

/** The last `max` bytes of UTF-8, starting on a character boundary. */
export function keepTail(s: string, max: number): string {
  if (s.length * 3 <= max || Buffer.byteLength(s, 'utf8') <= max) return s;
  const buf = Buffer.from(s, 'utf8');
  let start = buf.length - max;
  while (start < buf.length && ((buf[start] ?? 0) & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString('utf8');
}

async function snapshotTime(dir: string): Promise<{ at: number; mtime: number }> {
  const mtime = await stat(dir).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  const read = await readJsonFile(join(dir, SNAPSHOT_FILE), SNAPSHOT_FILE_MAX_BYTES, snapshotViewSchema);
  const at = read.ok ? Date.parse(read.value.at) : NaN;
  return { at: Number.isNaN(at) ? mtime : at, mtime };
}
