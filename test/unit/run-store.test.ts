import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunStore, SCREEN_MAX_BYTES, SNAPSHOTS_KEPT, type WriteProblem } from '../../electron/core/store/run-store.js';
import type { RunEvent, RunManifest, SnapshotView, StoredScreen } from '../../electron/core/store/types.js';

const RUN_A = 'run_aaaaaaaaaaaaaaaa';
const RUN_B = 'run_bbbbbbbbbbbbbbbb';
const AGENT = 'agt_aaaaaaaaaaaaaaaa';

let dataDir: string;
let stderr: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'baton-store-'));
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  stderr.mockRestore();
  await rm(dataDir, { recursive: true, force: true });
});

function manifest(id: string, name: string, updatedAt: string, sessionId = 'sess-1'): RunManifest {
  return {
    v: 1,
    id,
    name,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt,
    agents: [
      {
        id: AGENT,
        label: 'planner',
        vendor: 'claude',
        cwd: '/tmp/project',
        args: [],
        command: null,
        sessionIds: [{ id: sessionId, chosenBy: 'baton', seenAt: updatedAt, confirmed: true }],
        status: 'running',
        exitCode: null,
        warning: null,
        startedAt: updatedAt,
      },
    ],
    lastSnapshot: null,
  };
}

function snapshotId(n: number): string {
  return `snp_${n.toString(36).padStart(16, '0')}`;
}

function snapshot(n: number): SnapshotView {
  return {
    id: snapshotId(n),
    at: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    reason: 'user',
    agents: [
      {
        agentId: AGENT,
        label: 'planner',
        vendor: 'claude',
        cwd: '/tmp/project',
        sessionId: 'sess-1',
        status: 'running',
      },
    ],
  };
}

function screen(text = 'hello'): StoredScreen {
  return { agentId: AGENT, label: 'planner', cols: 80, rows: 24, text, serialized: `\u001b[1m${text}` };
}

const event = (type: RunEvent['type'], message?: string): RunEvent => ({
  at: '2025-01-01T00:00:00.000Z',
  type,
  ...(message === undefined ? {} : { message }),
});

describe('RunStore', () => {
  it('remembers saved runs, newest first, across a restart', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'older', '2025-01-01T00:00:00.000Z'));
    await store.save(manifest(RUN_B, 'newer', '2025-01-02T00:00:00.000Z'));
    expect(store.get(RUN_A)?.name).toBe('older');
    expect(store.list().map((r) => r.id)).toEqual([RUN_B, RUN_A]);

    const reopened = await RunStore.open(dataDir);
    expect(reopened.list()).toEqual(store.list());
    expect(reopened.findByName('newer')?.id).toBe(RUN_B);
    expect(reopened.findAgentBySessionId('sess-1')).toEqual({ run: reopened.get(RUN_B), agentId: AGENT });
    expect(reopened.findAgentBySessionId('nobody')).toBeUndefined();
  });

  it('keeps a rename after a restart', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'before', '2025-01-01T00:00:00.000Z'));
    await store.save({ ...manifest(RUN_A, 'after', '2025-01-01T00:00:01.000Z') });
    const reopened = await RunStore.open(dataDir);
    expect(reopened.get(RUN_A)?.name).toBe('after');
    expect(reopened.findByName('before')).toBeUndefined();
  });

  it('hands out copies, so changing one does not change the store', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'mine', '2025-01-01T00:00:00.000Z'));
    const copy = store.get(RUN_A);
    if (copy) copy.name = 'changed';
    expect(store.get(RUN_A)?.name).toBe('mine');
  });

  it('refuses a manifest that does not validate, naming the field', async () => {
    const store = await RunStore.open(dataDir);
    const bad = { ...manifest(RUN_A, 'x', '2025-01-01T00:00:00.000Z'), name: 'bad\u0007name' };
    await expect(store.save(bad)).rejects.toMatchObject({ code: 'invalid', field: 'manifest.name' });
    expect(store.get(RUN_A)).toBeUndefined();
  });

  it('ignores a torn last line of the history and still reads later events', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'torn', '2025-01-01T00:00:00.000Z'));
    await store.appendEvent(RUN_A, event('started'));
    await appendFile(join(dataDir, 'runs', RUN_A, 'events.jsonl'), '{"at":"2025-01-01T00:00:00.000Z","type":"sna');
    expect((await store.readEvents(RUN_A)).map((e) => e.type)).toEqual(['started']);

    await store.appendEvent(RUN_A, event('exited', 'bye'));
    const reopened = await RunStore.open(dataDir);
    expect(await reopened.readEvents(RUN_A)).toEqual([event('started'), event('exited', 'bye')]);
  });

  it('has an empty history for a run with no events', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'quiet', '2025-01-01T00:00:00.000Z'));
    expect(await store.readEvents(RUN_A)).toEqual([]);
  });

  it('refuses events that do not validate and events for unknown runs', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'x', '2025-01-01T00:00:00.000Z'));
    const bad = { at: 'now', type: 'teleported' } as unknown as RunEvent;
    await expect(store.appendEvent(RUN_A, bad)).rejects.toMatchObject({ code: 'invalid' });
    await expect(store.appendEvent(RUN_B, event('started'))).rejects.toMatchObject({ code: 'not-found' });
  });

  it('after a crash mid-save, the last good manifest is still there and the leftovers are swept', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'good', '2025-01-01T00:00:00.000Z'));
    const runDir = join(dataDir, 'runs', RUN_A);
    await writeFile(join(runDir, '.run.json.tmp-xyz'), '{"v":1,"id":"run_aaaa');
    const halfSnapshot = join(runDir, 'screens', `.${snapshotId(1)}.tmp-abc`);
    await mkdir(halfSnapshot, { recursive: true });
    await writeFile(join(halfSnapshot, 'snapshot.json'), '{"id":');
    const halfDelete = join(dataDir, 'runs', `.${RUN_B}.tmp-def`);
    await mkdir(halfDelete);

    // Left by a core that ran before this process: a temp file of this process's own writes is never swept.
    const earlier = new Date(performance.timeOrigin - 60_000);
    for (const path of [join(runDir, '.run.json.tmp-xyz'), halfSnapshot, halfDelete])
      await utimes(path, earlier, earlier);
    const ours = join(runDir, '.run.json.tmp-now');
    await writeFile(ours, '{"v":1');

    const reopened = await RunStore.open(dataDir, 0);
    expect(reopened.get(RUN_A)?.name).toBe('good');
    await reopened.swept();
    expect((await readdir(runDir)).sort()).toEqual(['.run.json.tmp-now', 'run.json', 'screens']);
    await rm(ours);
    expect(await readdir(join(runDir, 'screens'))).toEqual([]);
    expect(await readdir(join(dataDir, 'runs'))).toEqual([RUN_A]);
    expect(await reopened.readSnapshot(RUN_A, snapshotId(1))).toBeUndefined();
  });

  it('skips a corrupt run.json with a warning naming the file, and opens the rest', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'fine', '2025-01-01T00:00:00.000Z'));
    await store.save(manifest(RUN_B, 'doomed', '2025-01-01T00:00:00.000Z'));
    const corrupt = join(dataDir, 'runs', RUN_B, 'run.json');
    await writeFile(corrupt, '{"v":1,"id":');
    const otherDir = join(dataDir, 'runs', 'run_cccccccccccccccc');
    await mkdir(otherDir);
    await writeFile(join(otherDir, 'run.json'), JSON.stringify({ v: 2 }));

    const reopened = await RunStore.open(dataDir);
    expect(reopened.list().map((r) => r.id)).toEqual([RUN_A]);
    const warnings = stderr.mock.calls.map((c: unknown[]) => String(c[0])).join('');
    expect(warnings).toContain(corrupt);
    expect(warnings).toContain(join(otherDir, 'run.json'));
  });

  it('stores a snapshot with its screens and reads it back', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'snap', '2025-01-01T00:00:00.000Z'));
    await store.writeSnapshot(RUN_A, snapshot(1), [screen('$ ls')]);
    const reopened = await RunStore.open(dataDir);
    expect(await reopened.readSnapshot(RUN_A, snapshotId(1))).toEqual({
      snapshot: snapshot(1),
      screens: [screen('$ ls')],
    });
    expect(await reopened.readSnapshot(RUN_A, snapshotId(2))).toBeUndefined();
  });

  it('keeps only the tail of a huge screen', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'big', '2025-01-01T00:00:00.000Z'));
    const huge = `${'old '.repeat(SCREEN_MAX_BYTES)}é the end`;
    await store.writeSnapshot(RUN_A, snapshot(1), [screen(huge)]);
    const back = await store.readSnapshot(RUN_A, snapshotId(1));
    const s = back?.screens[0];
    expect(Buffer.byteLength(s?.text ?? '', 'utf8')).toBeLessThanOrEqual(SCREEN_MAX_BYTES);
    expect(Buffer.byteLength(s?.serialized ?? '', 'utf8')).toBeLessThanOrEqual(SCREEN_MAX_BYTES);
    expect(s?.text.endsWith('é the end')).toBe(true);
    expect(s?.text.includes('\ufffd')).toBe(false);
  });

  it(`keeps only the newest ${SNAPSHOTS_KEPT} snapshots of a run`, async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'many', '2025-01-01T00:00:00.000Z'));
    for (let n = 1; n <= SNAPSHOTS_KEPT + 5; n++) await store.writeSnapshot(RUN_A, snapshot(n), [screen(`#${n}`)]);
    const left = (await readdir(join(dataDir, 'runs', RUN_A, 'screens'))).sort();
    const expected = Array.from({ length: SNAPSHOTS_KEPT }, (_, i) => snapshotId(i + 6)).sort();
    expect(left).toEqual(expected);
    expect(await store.readSnapshot(RUN_A, snapshotId(5))).toBeUndefined();
    expect((await store.readSnapshot(RUN_A, snapshotId(25)))?.screens[0]?.text).toBe('#25');
  });

  it('deletes a run with its files, and it stays gone after a restart', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'bye', '2025-01-01T00:00:00.000Z'));
    await store.appendEvent(RUN_A, event('started'));
    await store.writeSnapshot(RUN_A, snapshot(1), [screen()]);
    expect(await store.delete(RUN_A)).toBe(true);
    expect(store.get(RUN_A)).toBeUndefined();
    expect(await readdir(join(dataDir, 'runs'))).toEqual([]);
    expect((await RunStore.open(dataDir)).list()).toEqual([]);
    expect(await store.delete(RUN_A)).toBe(false);
  });

  it('refuses ids that are not Baton ids before touching any path', async () => {
    const store = await RunStore.open(dataDir);
    await store.save(manifest(RUN_A, 'x', '2025-01-01T00:00:00.000Z'));
    for (const bad of ['../etc', 'run_../../x', 'run_AAAAAAAAAAAAAAAA', '', 'run_aaaaaaaaaaaaaaaa/..']) {
      await expect(store.readEvents(bad)).rejects.toMatchObject({ code: 'invalid', field: 'runId' });
      await expect(store.delete(bad)).rejects.toMatchObject({ code: 'invalid', field: 'runId' });
      await expect(store.save({ ...manifest(RUN_A, 'x', '2025-01-01T00:00:00.000Z'), id: bad })).rejects.toMatchObject({
        code: 'invalid',
      });
    }
    await expect(store.readSnapshot(RUN_A, '../../run.json')).rejects.toMatchObject({ field: 'snapshotId' });
    const evil = { ...screen(), agentId: '../../run.json' };
    await expect(store.writeSnapshot(RUN_A, snapshot(1), [evil])).rejects.toMatchObject({
      field: 'screens[0].agentId',
    });
    expect(JSON.parse(await readFile(join(dataDir, 'runs', RUN_A, 'run.json'), 'utf8')).name).toBe('x');
  });
});

// Real full disks: a small tmpfs filled to the last byte (mounting needs root; CI runs as root).
const mountProblem = process.getuid?.() === 0 ? '' : 'mounting a tmpfs needs root';

describe.skipIf(mountProblem !== '')(
  `RunStore on a full disk${mountProblem ? ` (skipped: ${mountProblem})` : ''}`,
  () => {
    let disk: string;
    let problems: WriteProblem[];

    beforeEach(async () => {
      disk = join(dataDir, 'disk');
      await mkdir(disk, { mode: 0o700 });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', disk]);
      problems = [];
    });
    afterEach(() => {
      execFileSync('umount', ['-l', disk]);
    });

    async function openOnDisk(): Promise<RunStore> {
      const store = await RunStore.open(disk);
      store.onWriteProblem((p) => problems.push(p));
      return store;
    }

    /** Writes a filler file until not one byte more fits. */
    function fill(): string {
      const path = join(disk, 'filler');
      const fd = openSync(path, 'a');
      try {
        for (const size of [1 << 16, 1 << 12, 1 << 8, 1]) {
          const chunk = Buffer.alloc(size, 0x78);
          for (;;) {
            try {
              if (writeSync(fd, chunk) < size) break;
            } catch {
              break;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return path;
    }

    const runFiles = (...parts: string[]) => join(disk, 'runs', RUN_A, ...parts);
    const onDisk = async () => JSON.parse(await readFile(runFiles('run.json'), 'utf8')) as RunManifest;

    it('keeps a refused change in memory, reports it once, leaves the last good file, and writes it when space returns', async () => {
      const store = await openOnDisk();
      await store.save(manifest(RUN_A, 'before', '2025-01-01T00:00:00.000Z'));
      await store.appendEvent(RUN_A, event('started'));
      const filler = fill();

      await store.save(manifest(RUN_A, 'during', '2025-01-01T00:00:01.000Z'));
      await store.appendEvent(RUN_A, event('renamed', 'to during'));
      await store.save(manifest(RUN_A, 'during again', '2025-01-01T00:00:02.000Z'));
      expect(store.get(RUN_A)?.name).toBe('during again');
      expect((await store.readEvents(RUN_A)).map((e) => e.type)).toEqual(['started', 'renamed']);
      expect(problems).toEqual([
        {
          runId: RUN_A,
          message: expect.stringMatching(
            /^could not save run 'during': the disk is full \(.*\/runs\/run_a+\): free some space; Baton keeps running and will save again$/,
          ),
        },
      ]);
      expect((await onDisk()).name).toBe('before');
      expect(await readdir(runFiles())).toEqual(['events.jsonl', 'run.json']);
      expect(store.unsaved()).toEqual([RUN_A]);

      await rm(filler);
      await store.flush();
      expect((await onDisk()).name).toBe('during again');
      expect(store.unsaved()).toEqual([]);
      const reopened = await RunStore.open(disk);
      expect(reopened.get(RUN_A)?.name).toBe('during again');
      expect((await reopened.readEvents(RUN_A)).map((e) => e.type)).toEqual(['started', 'renamed']);
      store.close();
    });

    it('refuses to create a run it cannot write, leaving nothing of it', async () => {
      const store = await openOnDisk();
      fill();
      await expect(store.save(manifest(RUN_B, 'new', '2025-01-01T00:00:00.000Z'))).rejects.toMatchObject({
        code: 'failed',
        message: expect.stringMatching(
          /^could not create run 'new': the disk is full .*: free some space, then try again$/,
        ),
      });
      expect(store.get(RUN_B)).toBeUndefined();
      expect(await readdir(join(disk, 'runs'))).toEqual([]);
      expect(problems).toEqual([]);
    });

    it('fails a snapshot with the reason, keeping the last one whole and no temp files', async () => {
      const store = await openOnDisk();
      await store.save(manifest(RUN_A, 'snap', '2025-01-01T00:00:00.000Z'));
      await store.writeSnapshot(RUN_A, snapshot(1), [screen('first')]);
      fill();
      await expect(store.writeSnapshot(RUN_A, snapshot(2), [screen('x'.repeat(100_000))])).rejects.toThrow(
        /^could not save run 'snap': the disk is full/,
      );
      expect(await readdir(runFiles('screens'))).toEqual([snapshotId(1)]);
      expect((await store.readSnapshot(RUN_A, snapshotId(1)))?.screens[0]?.text).toBe('first');
      expect(problems).toHaveLength(1);
    });

    it('cuts back a history line the disk took only part of', async () => {
      const store = await openOnDisk();
      await store.save(manifest(RUN_A, 'torn', '2025-01-01T00:00:00.000Z'));
      // History up to a few bytes short of a page, so the next line needs a page the full disk cannot give.
      const first = JSON.stringify(event('started', ''));
      await writeFile(
        runFiles('events.jsonl'),
        `${JSON.stringify(event('started', 'x'.repeat(4096 - 10 - first.length - 1)))}\n`,
      );
      const before = await readFile(runFiles('events.jsonl'));
      expect(before.length).toBe(4086);
      fill();
      await store.appendEvent(RUN_A, event('exited', 'y'.repeat(200)));
      expect(await readFile(runFiles('events.jsonl'))).toEqual(before);
      expect((await stat(runFiles('events.jsonl'))).size).toBe(4086);
      expect((await store.readEvents(RUN_A)).map((e) => e.type)).toEqual(['started', 'exited']);
      store.close();
    });
  },
);
