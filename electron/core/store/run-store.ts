// The run store (design.md §5): plain files under <dataDir>/runs, with an in-memory index that is only ever
// derived from them, so reopening after a crash (or deleting nothing but the process) gives the same runs.
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BatonError,
  agentStatusSchema,
  describeIssue,
  runEventSchema,
  screenSchema,
  sessionIdRecordSchema,
  snapshotViewSchema,
} from '../../../shared/contract.js';
import {
  AGENT_ID,
  RUN_ID,
  SNAPSHOT_ID,
  absolutePathSchema,
  labelSchema,
  runNameSchema,
  vendorNameSchema,
} from '../../../shared/words.js';
import { fsyncDir, isErrno, isTempName, tempPathFor, writeDirAtomic, writeFileAtomic } from './atomic-file.js';
import { appendJsonLine, readJsonLines } from './jsonl.js';
import type { AgentRecord, RunEvent, RunManifest, SnapshotView, StoredScreen } from './types.js';

/** Screens are bounded so one chatty agent cannot fill the disk; the tail is what a user wants back. */
export const SCREEN_MAX_BYTES = 512 * 1024;
export const SNAPSHOTS_KEPT = 20;

const MANIFEST = 'run.json';
const EVENTS = 'events.jsonl';
const SCREENS = 'screens';
const SNAPSHOT_FILE = 'snapshot.json';

const agentRecordSchema: z.ZodType<AgentRecord> = z.strictObject({
  id: z.string().regex(AGENT_ID, { error: 'agent id is not a Baton agent id' }),
  label: labelSchema,
  vendor: vendorNameSchema,
  cwd: absolutePathSchema,
  args: z.array(z.string()),
  command: z.array(z.string()).nullable(),
  sessionIds: z.array(sessionIdRecordSchema),
  status: agentStatusSchema,
  exitCode: z.number().int().nullable(),
  warning: z.string().nullable(),
  startedAt: z.string().nullable(),
});

export const runManifestSchema: z.ZodType<RunManifest> = z.strictObject({
  v: z.literal(1, { error: 'manifest version must be 1' }),
  id: z.string().regex(RUN_ID, { error: 'run id is not a Baton run id' }),
  name: runNameSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  agents: z.array(agentRecordSchema),
  lastSnapshot: z
    .strictObject({ id: z.string().regex(SNAPSHOT_ID, { error: 'snapshot id is not a Baton snapshot id' }), at: z.string() })
    .nullable(),
});

export class RunStore {
  private readonly index = new Map<string, RunManifest>();
  /** Per-run chains: writes to one run happen in call order, so the index always matches the files. */
  private readonly queues = new Map<string, Promise<unknown>>();

  private constructor(private readonly runsDir: string) {}

  static async open(dataDir: string): Promise<RunStore> {
    const runsDir = join(dataDir, 'runs');
    await mkdir(runsDir, { recursive: true, mode: 0o700 });
    const store = new RunStore(runsDir);
    await store.load();
    return store;
  }

  /** Newest `updatedAt` first. The manifests are copies: change a run through `save`. */
  list(): RunManifest[] {
    return [...this.index.values()].sort(newestFirst).map((m) => structuredClone(m));
  }

  get(runId: string): RunManifest | undefined {
    const m = this.index.get(runId);
    return m && structuredClone(m);
  }

  /** Names need not be unique; the most recently updated run with the name wins. */
  findByName(name: string): RunManifest | undefined {
    const m = [...this.index.values()].sort(newestFirst).find((r) => r.name === name);
    return m && structuredClone(m);
  }

  /** Any session id an agent ever had, not only its current one: old handles still find their run. */
  findAgentBySessionId(sessionId: string): { run: RunManifest; agentId: string } | undefined {
    for (const run of [...this.index.values()].sort(newestFirst)) {
      const agent = run.agents.find((a) => a.sessionIds.some((s) => s.id === sessionId));
      if (agent) return { run: structuredClone(run), agentId: agent.id };
    }
    return undefined;
  }

  async save(manifest: RunManifest): Promise<void> {
    const parsed = runManifestSchema.safeParse(manifest);
    if (!parsed.success) throw new BatonError(describeIssue(parsed.error, 'manifest'));
    const m = parsed.data;
    const dir = this.runDir(m.id);
    await this.serial(m.id, async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(join(dir, MANIFEST), `${JSON.stringify(m, null, 2)}\n`);
      this.index.set(m.id, m);
    });
  }

  async appendEvent(runId: string, event: RunEvent): Promise<void> {
    const dir = this.runDir(runId);
    const parsed = runEventSchema.safeParse(event);
    if (!parsed.success) throw new BatonError(describeIssue(parsed.error, 'event'));
    this.requireKnown(runId);
    await this.serial(runId, () => appendJsonLine(join(dir, EVENTS), parsed.data));
  }

  async readEvents(runId: string): Promise<RunEvent[]> {
    return readJsonLines(join(this.runDir(runId), EVENTS), runEventSchema);
  }

  async writeSnapshot(runId: string, snapshot: SnapshotView, screens: StoredScreen[]): Promise<void> {
    const dir = this.runDir(runId);
    const snap = snapshotViewSchema.safeParse(snapshot);
    if (!snap.success) throw new BatonError(describeIssue(snap.error, 'snapshot'));
    const files: Record<string, string> = { [SNAPSHOT_FILE]: JSON.stringify(snap.data) };
    for (const [i, screen] of screens.entries()) {
      const parsed = screenSchema.safeParse(screen);
      if (!parsed.success) throw new BatonError(describeIssue(parsed.error, `screens[${i}]`));
      const s = parsed.data;
      if (files[s.agentId] !== undefined) {
        throw new BatonError({ code: 'invalid', field: `screens[${i}].agentId`, message: `screens[${i}].agentId: appears twice` });
      }
      const capped: StoredScreen = { ...s, text: keepTail(s.text, SCREEN_MAX_BYTES), serialized: keepTail(s.serialized, SCREEN_MAX_BYTES) };
      files[s.agentId] = JSON.stringify(capped);
    }
    this.requireKnown(runId);
    await this.serial(runId, async () => {
      const screensDir = join(dir, SCREENS);
      await mkdir(screensDir, { recursive: true, mode: 0o700 });
      await writeDirAtomic(join(screensDir, snap.data.id), files);
      await this.prune(screensDir, snap.data.id);
    });
  }

  async readSnapshot(runId: string, snapshotId: string): Promise<{ snapshot: SnapshotView; screens: StoredScreen[] } | undefined> {
    const runDir = this.runDir(runId);
    checkId(snapshotId, SNAPSHOT_ID, 'snapshotId', 'snapshot');
    const dir = join(runDir, SCREENS, snapshotId);
    const raw = await readJson(join(dir, SNAPSHOT_FILE));
    if (raw === undefined) return undefined;
    const snap = snapshotViewSchema.safeParse(raw);
    if (!snap.success) {
      warn(join(dir, SNAPSHOT_FILE), describeIssue(snap.error).message);
      return undefined;
    }
    const screens: StoredScreen[] = [];
    for (const name of await readdir(dir)) {
      if (!AGENT_ID.test(name)) continue;
      const s = screenSchema.safeParse(await readJson(join(dir, name)));
      if (s.success && s.data.agentId === name) screens.push(s.data);
    }
    // The snapshot's own agent order, which is the order the panes were laid out in.
    const order = new Map(snap.data.agents.map((a, i) => [a.agentId, i]));
    screens.sort((a, b) => (order.get(a.agentId) ?? Infinity) - (order.get(b.agentId) ?? Infinity));
    return { snapshot: snap.data, screens };
  }

  /** Removes the run and everything it holds. Returns false when there was nothing to remove. */
  async delete(runId: string): Promise<boolean> {
    const dir = this.runDir(runId);
    return this.serial(runId, async () => {
      // Renamed first so a crash mid-delete leaves a temp dir (swept at open), never half a run.
      const doomed = tempPathFor(dir);
      try {
        await rename(dir, doomed);
      } catch (err) {
        if (isErrno(err, 'ENOENT')) return this.index.delete(runId);
        throw err;
      }
      this.index.delete(runId);
      await fsyncDir(this.runsDir);
      await rm(doomed, { recursive: true, force: true });
      return true;
    });
  }

  // ---------- internals ----------

  /** Every path is built from a checked id: nothing from a handle or a request can walk out of the store. */
  private runDir(runId: string): string {
    checkId(runId, RUN_ID, 'runId', 'run');
    return join(this.runsDir, runId);
  }

  private requireKnown(runId: string): void {
    if (!this.index.has(runId)) throw new BatonError({ code: 'not-found', field: 'runId', message: 'no run with this id' });
  }

  private serial<T>(runId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(runId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(runId, tail);
    void tail.then(() => {
      if (this.queues.get(runId) === tail) this.queues.delete(runId);
    });
    return next;
  }

  private async load(): Promise<void> {
    for (const entry of await readdir(this.runsDir, { withFileTypes: true })) {
      const path = join(this.runsDir, entry.name);
      if (isTempName(entry.name)) {
        await rm(path, { recursive: true, force: true });
        continue;
      }
      if (!entry.isDirectory() || !RUN_ID.test(entry.name)) continue;
      await sweepTemps(path);
      await sweepTemps(join(path, SCREENS));
      const manifest = await loadManifest(join(path, MANIFEST), entry.name);
      if (manifest) this.index.set(manifest.id, manifest);
    }
  }

  /** Keeps the newest SNAPSHOTS_KEPT snapshots by their `at` time, and always the one just written. */
  private async prune(screensDir: string, justWritten: string): Promise<void> {
    const ids = (await readdir(screensDir)).filter((n) => SNAPSHOT_ID.test(n));
    if (ids.length <= SNAPSHOTS_KEPT) return;
    const dated = await Promise.all(ids.map(async (id) => ({ id, ...(await snapshotTime(join(screensDir, id))) })));
    dated.sort((a, b) => b.at - a.at || b.mtime - a.mtime);
    const keep = new Set(dated.slice(0, SNAPSHOTS_KEPT).map((d) => d.id));
    keep.add(justWritten);
    for (const { id } of dated) {
      if (keep.has(id)) continue;
      const doomed = tempPathFor(join(screensDir, id));
      await rename(join(screensDir, id), doomed);
      await rm(doomed, { recursive: true, force: true });
    }
  }
}

function checkId(id: string, pattern: RegExp, field: string, what: string): void {
  if (typeof id !== 'string' || !pattern.test(id)) {
    throw new BatonError({ code: 'invalid', field, message: `${field} is not a Baton ${what} id` });
  }
}

function newestFirst(a: RunManifest, b: RunManifest): number {
  const ta = Date.parse(a.updatedAt);
  const tb = Date.parse(b.updatedAt);
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return tb - ta;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The last `max` bytes of UTF-8, starting on a character boundary. */
export function keepTail(s: string, max: number): string {
  if (s.length * 3 <= max || Buffer.byteLength(s, 'utf8') <= max) return s;
  const buf = Buffer.from(s, 'utf8');
  let start = buf.length - max;
  while (start < buf.length && ((buf[start] ?? 0) & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString('utf8');
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A manifest that cannot be read is reported and skipped: one bad run must not hide all the others. */
async function loadManifest(path: string, dirName: string): Promise<RunManifest | undefined> {
  let raw: unknown;
  try {
    raw = await readJson(path);
  } catch (err) {
    warn(path, err instanceof Error ? err.message : 'cannot be read');
    return undefined;
  }
  if (raw === undefined) {
    warn(path, 'missing');
    return undefined;
  }
  if (raw === null) {
    warn(path, 'not valid JSON');
    return undefined;
  }
  const parsed = runManifestSchema.safeParse(raw);
  if (!parsed.success) {
    warn(path, describeIssue(parsed.error).message);
    return undefined;
  }
  if (parsed.data.id !== dirName) {
    warn(path, 'id does not match its directory');
    return undefined;
  }
  return parsed.data;
}

async function sweepTemps(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return;
    throw err;
  }
  for (const name of names) if (isTempName(name)) await rm(join(dir, name), { recursive: true, force: true });
}

async function snapshotTime(dir: string): Promise<{ at: number; mtime: number }> {
  const mtime = await stat(dir).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  const raw = await readJson(join(dir, SNAPSHOT_FILE)).catch(() => undefined);
  const parsed = snapshotViewSchema.safeParse(raw);
  const at = parsed.success ? Date.parse(parsed.data.at) : NaN;
  return { at: Number.isNaN(at) ? mtime : at, mtime };
}

function warn(path: string, reason: string): void {
  process.stderr.write(`baton: skipping ${path}: ${reason}\n`);
}
