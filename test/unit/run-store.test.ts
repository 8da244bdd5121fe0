import { appendFile, mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStore, SCREEN_MAX_BYTES, SNAPSHOTS_KEPT } from '../../electron/core/store/run-store.js';
import type { RunEvent } from '../../electron/core/store/types.js';
import {
  RUN_A,
  RUN_B,
  AGENT,
  dataDir,
  stderr,
  useStoreDataDir,
  manifest,
  snapshotId,
  snapshot,
  screen,
  event,
} from './run-store-helpers.js';

useStoreDataDir();

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
