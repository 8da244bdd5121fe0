// The per-run caches a core keeps for the next one (store/saved-runs-file.ts, store/delayed-save.ts; used for the
// runs' health and cost sums): a damaged file is reported once and ignored rather than ending the core, an entry of
// another shape drops the whole file, what is written reads back, and a burst of changes is one write, made at once
// when the core closes.
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DelayedSave } from '../../electron/core/store/delayed-save.js';
import { savedRunsFile } from '../../electron/core/store/saved-runs-file.js';

const RUN_A = 'run_0123456789abcdef';
const RUN_B = 'run_fedcba9876543210';
const entrySchema = z.strictObject({ updatedAt: z.string().max(64), n: z.number().int() });
const cache = savedRunsFile(entrySchema, 'run-things.json');

let tmp: string;
let path: string;
let stderr: string[];

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-saved-runs-')));
  path = join(tmp, cache.name);
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  await rm(tmp, { recursive: true, force: true });
});

describe('savedRunsFile', () => {
  it('reads back what it wrote, by run id', async () => {
    const runs = new Map([
      [RUN_A, { updatedAt: '2026-11-25T21:47:05.000Z', n: 1 }],
      [RUN_B, { updatedAt: '2026-11-26T08:00:00.000Z', n: 2 }],
    ]);
    await cache.write(path, runs);
    expect(await cache.read(path)).toEqual(runs);
    expect(stderr).toEqual([]);
  });

  it('still reads a file of the first format, checking each entry', async () => {
    await writeFile(path, `{"v":1,"runs":{"${RUN_A}":{"updatedAt":"x","n":1}}}`);
    expect(await cache.read(path)).toEqual(new Map([[RUN_A, { updatedAt: 'x', n: 1 }]]));
    expect(stderr).toEqual([]);
  });

  it('ignores a file damaged after it was written, reported once', async () => {
    await cache.write(path, new Map([[RUN_A, { updatedAt: '2026-11-25T21:47:05.000Z', n: 1 }]]));
    await writeFile(path, (await readFile(path, 'utf8')).replace('"n":1', '"n":7'));
    expect((await cache.read(path)).size).toBe(0);
    expect(stderr).toEqual([
      `baton: ignoring ${path} (it is damaged (its checksum does not match)); it will be written again\n`,
    ]);
  });

  it('a missing file is empty and not reported', async () => {
    expect((await cache.read(path)).size).toBe(0);
    expect(stderr).toEqual([]);
  });

  it.each([
    ['cut short', '{"v":1,"runs":{"run_'],
    ['from another version', `{"v":2,"runs":{}}`],
    ['with an entry of another shape', `{"v":1,"runs":{"${RUN_A}":{"updatedAt":"x","n":"one"}}}`],
    ['with a key that is not a run id', `{"v":1,"runs":{"../etc":{"updatedAt":"x","n":1}}}`],
  ])('a file %s is ignored whole and reported once, naming it', async (_, text) => {
    await writeFile(path, text);
    expect((await cache.read(path)).size).toBe(0);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toContain(`ignoring ${path}`);
    // The next save replaces it with a good file.
    await cache.write(path, new Map([[RUN_A, { updatedAt: 'x', n: 1 }]]));
    expect(await cache.read(path)).toEqual(new Map([[RUN_A, { updatedAt: 'x', n: 1 }]]));
    expect(stderr).toHaveLength(1);
  });
});

describe('DelayedSave', () => {
  it('a burst of changes is one save, made after the delay', async () => {
    vi.useFakeTimers();
    let saves = 0;
    const saver = new DelayedSave(() => Promise.resolve(void saves++), 2000, 'the things');
    for (let i = 0; i < 5; i++) saver.soon();
    await vi.advanceTimersByTimeAsync(1999);
    expect(saves).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves).toBe(1);
    saver.soon();
    await vi.advanceTimersByTimeAsync(2000);
    expect(saves).toBe(2);
  });

  it('flush at close writes a due save at once, and only once', async () => {
    vi.useFakeTimers();
    const runs = new Map([[RUN_A, { updatedAt: 'x', n: 7 }]]);
    const saver = new DelayedSave(() => cache.write(path, runs), 2000, 'the things');
    await saver.flush();
    await expect(readFile(path, 'utf8')).rejects.toThrow();
    saver.soon();
    await saver.flush();
    expect(await cache.read(path)).toEqual(runs);
    await rm(path);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(readFile(path, 'utf8')).rejects.toThrow();
  });

  it('a failed save is reported, not thrown', async () => {
    vi.useFakeTimers();
    const saver = new DelayedSave(() => Promise.reject(new Error('disk full')), 2000, 'the things');
    saver.soon();
    await vi.advanceTimersByTimeAsync(2000);
    expect(stderr).toEqual(['baton: could not save the things: disk full\n']);
  });
});
