// The vendors' store indexes (`VendorAdapter.indexSessions`) used by run.list's health checks: read over the sample
// stores' layouts and the cases the per-session lookups handle (symlinked homes, realpath'd project folders, moved
// projects, links), each answer compared with what `exists` says for the same session. A session the index misses
// would show a resumable run as stale.
import { randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HealthBatch } from '../../electron/core/runs/health-batch.js';
import type { VendorAdapter, VendorEnv } from '../../electron/core/vendors/adapter.js';
import { encodeClaudeCwd } from '../../electron/core/vendors/claude/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { SAMPLE_ID as CODEX_SAMPLE_ID, codexVendors, sampleStore, writeRolloutIn } from './codex-fixture.js';

const CLAUDE_FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/claude/.claude', import.meta.url));
const CLAUDE_SAMPLE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';

let tmp: string;
beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-index-')));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Each case's index answer next to `exists`'s, for a table the test compares with what the store holds. */
async function answers(adapter: VendorAdapter, env: VendorEnv, cases: readonly (readonly [string, string])[]) {
  const index = await adapter.indexSessions!(env);
  expect(index).not.toBeNull();
  return Promise.all(
    cases.map(async ([id, cwd]) => ({
      index: index!.has(id, cwd),
      exists: await adapter.exists(id, cwd, env),
    })),
  );
}

describe('claude store index', () => {
  const claude = () => createVendors().get('claude')!;

  async function transcript(config: string, folder: string, id: string): Promise<string> {
    const dir = join(config, 'projects', folder);
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${id}.jsonl`);
    await writeFile(file, '{"type":"user"}\n');
    return file;
  }

  it('holds every session exists finds: sample layout, realpath of a linked cwd, a moved project, linked folders', async () => {
    const home = join(tmp, 'real-home');
    const config = join(home, '.claude');
    await mkdir(home);
    await cp(CLAUDE_FIXTURE, config, { recursive: true });
    // HOME itself a link, no CLAUDE_CONFIG_DIR: the store is found through it.
    await symlink(home, join(tmp, 'home'));
    const env = { HOME: join(tmp, 'home'), PATH: '/usr/bin:/bin' };

    // The agent's cwd is a link; the CLI names its project folder after the resolved directory.
    const realProj = join(tmp, 'work', 'proj');
    await mkdir(realProj, { recursive: true });
    await symlink(realProj, join(tmp, 'proj-link'));
    const viaRealpath = randomUUID();
    await transcript(config, encodeClaudeCwd(realProj), viaRealpath);
    // A project that moved: its folder is named after a directory that no longer exists.
    const moved = randomUUID();
    await transcript(config, '-old-place-of-proj', moved);
    // A project folder that is a link to one kept elsewhere.
    const elsewhere = join(tmp, 'elsewhere');
    const linkedFolder = randomUUID();
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, `${linkedFolder}.jsonl`), '{}\n');
    await symlink(elsewhere, join(config, 'projects', '-linked-folder'));
    // A transcript that is a link, and one whose link leads nowhere.
    const linkedFile = randomUUID();
    const dangling = randomUUID();
    await writeFile(join(tmp, 'kept.jsonl'), '{}\n');
    await symlink(join(tmp, 'kept.jsonl'), join(config, 'projects', '-home-u-proj', `${linkedFile}.jsonl`));
    await symlink(join(tmp, 'gone.jsonl'), join(config, 'projects', '-home-u-proj', `${dangling}.jsonl`));
    // Not sessions: a file beside the project folders, a name that is no id.
    await writeFile(join(config, 'projects', 'stray.jsonl'), '{}\n');
    await writeFile(join(config, 'projects', '-home-u-proj', 'notes.jsonl'), '{}\n');
    const never = randomUUID();

    const cases = [
      [CLAUDE_SAMPLE_ID, '/home/u/proj'],
      [viaRealpath, join(tmp, 'proj-link')],
      [moved, join(tmp, 'proj-link')],
      [linkedFolder, '/anywhere'],
      [linkedFile, '/home/u/proj'],
      [dangling, '/home/u/proj'],
      [never, '/home/u/proj'],
      ['notes', '/home/u/proj'],
    ] as const;
    const found = await answers(claude(), env, cases);
    const truth = [true, true, true, true, true, false, false, false];
    expect(found.map((f) => f.exists)).toEqual(truth);
    expect(found.map((f) => f.index)).toEqual(truth);
  });

  it('a session removed since the last index is missing from the next; no store: nothing exists', async () => {
    const config = join(tmp, 'config');
    const env = { HOME: join(tmp, 'home'), CLAUDE_CONFIG_DIR: config };
    expect((await answers(claude(), env, [[CLAUDE_SAMPLE_ID, '/home/u/proj']]))[0]).toEqual({
      index: false,
      exists: false,
    });
    const id = randomUUID();
    const file = await transcript(config, '-home-u-proj', id);
    expect((await answers(claude(), env, [[id, '/home/u/proj']]))[0]).toEqual({ index: true, exists: true });
    await unlink(file);
    expect((await answers(claude(), env, [[id, '/home/u/proj']]))[0]).toEqual({ index: false, exists: false });
  });
});

describe('codex store index', () => {
  it('holds every rollout findRollout finds: sample, today, an old day, a linked home, a held path', async () => {
    const { store, env: base } = await sampleStore();
    // CODEX_HOME given as a link to the store.
    await symlink(store, join(tmp, 'codex-link'));
    const env = { ...base, CODEX_HOME: join(tmp, 'codex-link') };
    const { codexAdapter, rollouts } = codexVendors();
    const today = randomUUID();
    const oldDay = randomUUID();
    await writeRolloutIn(store, env, today, '/home/u/proj');
    await writeRolloutIn(store, env, oldDay, '/home/u/proj', { folder: '2024/02/29' });
    // A rollout that is a link to a file, and one whose link leads nowhere.
    const linked = randomUUID();
    const dangling = randomUUID();
    const day = join(store, 'sessions', '2024', '02', '29');
    await writeFile(join(tmp, 'kept.jsonl'), '{}\n');
    await symlink(join(tmp, 'kept.jsonl'), join(day, `rollout-2024-02-29T00-00-00-${linked}.jsonl`));
    await symlink(join(tmp, 'gone.jsonl'), join(day, `rollout-2024-02-29T00-00-01-${dangling}.jsonl`));
    // A rollout a live process was seen holding, outside the day folders.
    const held = randomUUID();
    const heldPath = join(env.CODEX_HOME, 'sessions', 'elsewhere', `rollout-x-${held}.jsonl`);
    await mkdir(join(store, 'sessions', 'elsewhere'));
    await writeFile(heldPath, '{}\n');
    rollouts.rememberHeld({ locks: [], rollouts: new Map([[held, heldPath]]) });
    const never = randomUUID();

    const ids = [CODEX_SAMPLE_ID, today, oldDay, linked, dangling, held, never];
    const found = await answers(
      codexAdapter,
      env,
      ids.map((id) => [id, '/home/u/proj'] as const),
    );
    const truth = [true, true, true, true, false, true, false];
    expect(found.map((f) => f.exists)).toEqual(truth);
    expect(found.map((f) => f.index)).toEqual(truth);
    await rm(join(store, '..'), { recursive: true, force: true });
  });

  it('a rollout removed since the last index is missing from the next', async () => {
    const { store, env } = await sampleStore();
    const { codexAdapter } = codexVendors();
    const file = await writeRolloutIn(store, env, CODEX_SAMPLE_ID.replace(/ab$/, 'cd'), '/p', { folder: '2025/01/01' });
    const id = CODEX_SAMPLE_ID.replace(/ab$/, 'cd');
    expect((await answers(codexAdapter, env, [[id, '/p']]))[0]).toEqual({ index: true, exists: true });
    await unlink(file);
    expect((await answers(codexAdapter, env, [[id, '/p']]))[0]).toEqual({ index: false, exists: false });
    await rm(join(store, '..'), { recursive: true, force: true });
  });
});

describe('a batch of health checks', () => {
  it('reads each store once for many sessions, and a new batch reads it again', async () => {
    const config = join(tmp, 'config');
    await cp(CLAUDE_FIXTURE, config, { recursive: true });
    const env = { HOME: join(tmp, 'home'), CLAUDE_CONFIG_DIR: config };
    const real = createVendors().get('claude')!;
    let reads = 0;
    const claude: VendorAdapter = {
      ...real,
      indexSessions: (e) => {
        reads++;
        return real.indexSessions!(e);
      },
    };
    const batch = new HealthBatch();
    const ids = [CLAUDE_SAMPLE_ID, ...Array.from({ length: 50 }, () => randomUUID())];
    const seen = await Promise.all(ids.map((id) => batch.sessionExists(claude, id, '/home/u/proj', env)));
    expect(seen).toEqual(ids.map((id) => id === CLAUDE_SAMPLE_ID));
    expect(reads).toBe(1);

    await rm(join(config, 'projects'), { recursive: true });
    expect(await new HealthBatch().sessionExists(claude, CLAUDE_SAMPLE_ID, '/home/u/proj', env)).toBe(false);
    expect(reads).toBe(2);
  });

  it('reads a store again once its index is older than a health answer may be', async () => {
    const config = join(tmp, 'config');
    await cp(CLAUDE_FIXTURE, config, { recursive: true });
    const env = { HOME: join(tmp, 'home'), CLAUDE_CONFIG_DIR: config };
    const claude = createVendors().get('claude')!;
    let now = 0;
    const batch = new HealthBatch(() => now);
    expect(await batch.sessionExists(claude, CLAUDE_SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    await rm(join(config, 'projects'), { recursive: true });
    now = 61_000;
    expect(await batch.sessionExists(claude, CLAUDE_SAMPLE_ID, '/home/u/proj', env)).toBe(false);
  });
});
