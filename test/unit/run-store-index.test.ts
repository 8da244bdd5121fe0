// The summary index (store/manifest-index.ts): a reopened store takes its runs from it, and the index is only ever a
// cache of the manifests on disk. Whatever happened to the runs or to the index while no core ran (a manifest
// changed, a run added or removed, a manifest made unreadable or a link, the index damaged or forged in shape), the
// store opens the same runs, with the same content, as it would without an index: none hidden, none lost, none
// brought back, none stale.
import { createHash } from 'node:crypto';
import { cp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INDEX_FILE, SETTLED_MS } from '../../electron/core/store/manifest-index.js';
import { RunStore } from '../../electron/core/store/run-store.js';
import { RUN_A, RUN_B, dataDir, manifest, stderr, useStoreDataDir } from './run-store-helpers.js';

useStoreDataDir();
afterEach(() => {
  vi.useRealTimers();
});

const RUN_C = 'run_cccccccccccccccc';
const indexPath = () => join(dataDir, INDEX_FILE);
const manifestPath = (id: string) => join(dataDir, 'runs', id, 'run.json');
const logged = (): string => stderr.mock.calls.map((c: unknown[]) => String(c[0])).join('');

/** The clock moved past the time a just-written manifest needs before it may be indexed. */
function later(): void {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SETTLED_MS + 1000 });
}

/** Opens the store (its sweep and index write at once) and waits for the index it found out of date to be written. */
async function openAndIndex(): Promise<RunStore> {
  const store = await RunStore.open(dataDir, 60_000, 0);
  await store.indexSaved();
  return store;
}

/** Three runs on disk, settled, and an index of them; returns what the store lists. */
async function threeRunsIndexed() {
  const store = await RunStore.open(dataDir, 60_000, 60_000);
  await store.save(manifest(RUN_A, 'alpha', '2025-01-01T00:00:00.000Z'));
  await store.save(manifest(RUN_B, 'bravo', '2025-01-02T00:00:00.000Z'));
  await store.save(manifest(RUN_C, 'charlie', '2025-01-03T00:00:00.000Z'));
  store.close();
  later();
  await openAndIndex();
  const reopened = await RunStore.open(dataDir, 60_000, 0);
  expect(reopened.openedFrom()).toEqual({ index: 3, manifests: 0 });
  return reopened.list();
}

describe('the summary index', () => {
  it('gives a reopened store the same runs as their manifests do, without reading them', async () => {
    const listed = await threeRunsIndexed();
    expect(listed.map((r) => r.name)).toEqual(['charlie', 'bravo', 'alpha']);
    const { list: fromManifests } = await withoutIndex();
    expect(listed).toEqual(fromManifests);
    const store = await RunStore.open(dataDir);
    expect(store.findByName('bravo')?.id).toBe(RUN_B);
    expect(store.findAgentBySessionId('sess-1')?.run.id).toBe(RUN_C);
  });

  it('reads a manifest changed behind it again, even one of the same size', async () => {
    await threeRunsIndexed();
    const text = await readFile(manifestPath(RUN_B), 'utf8');
    await writeFile(manifestPath(RUN_B), text.replace('"bravo"', '"delta"'));
    const store = await RunStore.open(dataDir);
    expect(store.get(RUN_B)?.name).toBe('delta');
    expect(store.openedFrom()).toEqual({ index: 2, manifests: 1 });
  });

  it('reads a run the store itself changed, at the next open, and indexes it again', async () => {
    await threeRunsIndexed();
    const store = await RunStore.open(dataDir);
    await store.save({ ...manifest(RUN_A, 'alpha-renamed', '2025-01-04T00:00:00.000Z') });
    store.close();
    later();
    const reopened = await openAndIndex();
    expect(reopened.get(RUN_A)?.name).toBe('alpha-renamed');
    expect(reopened.openedFrom()).toEqual({ index: 2, manifests: 1 });
    const again = await RunStore.open(dataDir);
    expect(again.get(RUN_A)?.name).toBe('alpha-renamed');
    expect(again.openedFrom()).toEqual({ index: 3, manifests: 0 });
  });

  it('is brought up to date at close, so the next open reads no manifest', async () => {
    await threeRunsIndexed();
    const store = await RunStore.open(dataDir, 60_000, 60_000);
    await store.save({ ...manifest(RUN_A, 'alpha-renamed', '2025-01-04T00:00:00.000Z') });
    await store.delete(RUN_B);
    later();
    await store.saveIndex();
    store.close();
    const reopened = await RunStore.open(dataDir);
    expect(reopened.openedFrom()).toEqual({ index: 2, manifests: 0 });
    expect(reopened.list().map((r) => r.name)).toEqual(['alpha-renamed', 'charlie']);
  });

  it('never hides a run added behind it, nor brings back one removed', async () => {
    await threeRunsIndexed();
    const RUN_D = 'run_dddddddddddddddd';
    await cp(join(dataDir, 'runs', RUN_A), join(dataDir, 'runs', RUN_D), { recursive: true });
    const text = await readFile(manifestPath(RUN_D), 'utf8');
    await writeFile(manifestPath(RUN_D), text.replace(RUN_A, RUN_D).replace('"alpha"', '"added"'));
    await rm(join(dataDir, 'runs', RUN_C), { recursive: true });
    const store = await RunStore.open(dataDir);
    expect(store.list().map((r) => r.name)).toEqual(['bravo', 'alpha', 'added']);
    expect(store.get(RUN_C)).toBeUndefined();
  });

  it('skips a run whose manifest became unreadable or a link, as it would without the index', async () => {
    await threeRunsIndexed();
    await writeFile(manifestPath(RUN_A), '{ not json');
    const elsewhere = join(dataDir, 'elsewhere.json');
    await writeFile(elsewhere, await readFile(manifestPath(RUN_B)));
    await rm(manifestPath(RUN_B));
    await symlink(elsewhere, manifestPath(RUN_B));
    const store = await RunStore.open(dataDir);
    expect(store.list().map((r) => r.name)).toEqual(['charlie']);
    expect(store.unreadable().map((u) => [u.path, u.reason])).toEqual(
      expect.arrayContaining([
        [manifestPath(RUN_A), 'is not valid JSON'],
        [manifestPath(RUN_B), 'is a symbolic link'],
      ]),
    );
  });

  const damage: [string, (text: string) => string, string][] = [
    ['garbage', () => 'garbage', 'it has no header'],
    ['cut short', (t) => t.slice(0, Math.floor(t.length / 2)), 'it is damaged'],
    ['a changed byte', (t) => t.replace('"charlie"', '"charlxe"'), 'it is damaged'],
    ['of another format', (t) => t.replace('{"v":1,', '{"v":2,'), 'it is of another format'],
    [
      'an entry filed under another run, its checksum made to match',
      (t) => withBody(t, (b) => b.replace(`"${RUN_C}":`, `"${RUN_B}":`).replace(`"${RUN_B}":[`, `"${RUN_C}":[`)),
      'an entry is not filed under its own run id',
    ],
    [
      'an entry of another shape, its checksum made to match',
      (t) => withBody(t, (b) => b.replace(/"run_aaaaaaaaaaaaaaaa":\[[0-9.e+-]+,/, `"${RUN_A}":["x",`)),
      'an entry is not an index entry',
    ],
  ];
  it.each(damage)('is ignored when %s, and written again; no run is lost or changed', async (_, harm, reason) => {
    const listed = await threeRunsIndexed();
    await writeFile(indexPath(), harm(await readFile(indexPath(), 'utf8')));
    const store = await openAndIndex();
    expect(store.list()).toEqual(listed);
    expect(store.openedFrom()).toEqual({ index: 0, manifests: 3 });
    expect(logged()).toContain(`baton: ignoring ${indexPath()} (${reason}`);
    const reopened = await RunStore.open(dataDir);
    expect(reopened.openedFrom()).toEqual({ index: 3, manifests: 0 });
    expect(reopened.list()).toEqual(listed);
  });

  it('leaves out a manifest changed too recently to be sure of, until it settled', async () => {
    const store = await RunStore.open(dataDir, 60_000, 60_000);
    await store.save(manifest(RUN_A, 'alpha', '2025-01-01T00:00:00.000Z'));
    store.close();
    // Written an instant ago: the index written now leaves it out.
    await openAndIndex();
    const next = await openAndIndex();
    expect(next.openedFrom()).toEqual({ index: 0, manifests: 1 });
    later();
    await openAndIndex();
    const settledStore = await RunStore.open(dataDir);
    expect(settledStore.openedFrom()).toEqual({ index: 1, manifests: 0 });
    expect(settledStore.get(RUN_A)?.name).toBe('alpha');
  });
});

/** What the store lists with the index removed: every run read from its manifest. */
async function withoutIndex() {
  const saved = await readFile(indexPath());
  await rm(indexPath());
  const store = await RunStore.open(dataDir, 60_000, 60_000);
  expect(store.openedFrom()).toEqual({ index: 0, manifests: 3 });
  await writeFile(indexPath(), saved);
  return { list: store.list() };
}

/** The index with its body changed by `edit` and its checksum made to match: a forged shape, not damage. */
function withBody(text: string, edit: (body: string) => string): string {
  const newline = text.indexOf('\n');
  const body = edit(text.slice(newline + 1));
  const header = JSON.parse(text.slice(0, newline)) as { v: number; sha256: string };
  header.sha256 = createHash('sha256').update(body).digest('hex');
  return `${JSON.stringify(header)}\n${body}`;
}
