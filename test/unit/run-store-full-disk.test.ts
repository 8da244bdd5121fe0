import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore, type WriteProblem } from '../../electron/core/store/run-store.js';
import type { RunManifest } from '../../electron/core/store/types.js';
import {
  RUN_A,
  RUN_B,
  dataDir,
  useStoreDataDir,
  manifest,
  snapshotId,
  snapshot,
  screen,
  event,
} from './run-store-helpers.js';

useStoreDataDir();

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
