// Files Baton reads from its data directory are untrusted: garbage, truncated or hostile content, names that are
// not Baton ids, links and FIFOs in place of files. None of it crashes the store or hides the other runs, the bad
// run is skipped with a logged reason and left on disk as it was, and the data directory itself must be the
// user's own and writable by nobody else.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, statSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkServerFile } from '../../electron/core/store/data-dir.js';
import { RunStore } from '../../electron/core/store/run-store.js';
import type { RunEvent, RunManifest, SnapshotView, StoredScreen } from '../../electron/core/store/types.js';

const GOOD = 'run_aaaaaaaaaaaaaaaa';
const BAD = 'run_bbbbbbbbbbbbbbbb';
const AGENT = 'agt_aaaaaaaaaaaaaaaa';
const AGENT_2 = 'agt_bbbbbbbbbbbbbbbb';
const SNAP = 'snp_aaaaaaaaaaaaaaaa';
const isRoot = process.getuid?.() === 0;

let root: string;
let dataDir: string;
let stderr: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-bad-files-'));
  dataDir = join(root, 'data');
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  stderr.mockRestore();
  await rm(root, { recursive: true, force: true });
});

const logged = (): string => stderr.mock.calls.map((c: unknown[]) => String(c[0])).join('');
const runDir = (id: string) => join(dataDir, 'runs', id);

function manifest(id: string, name: string): RunManifest {
  const at = '2025-01-01T00:00:00.000Z';
  const agent = (agentId: string, label: string) => ({
    id: agentId,
    label,
    vendor: 'shell' as const,
    cwd: '/tmp',
    args: [],
    command: null,
    sessionIds: [],
    status: 'exited' as const,
    exitCode: 0,
    warning: null,
    startedAt: at,
  });
  return {
    v: 1,
    id,
    name,
    createdAt: at,
    updatedAt: at,
    agents: [agent(AGENT, 'one'), agent(AGENT_2, 'two')],
    lastSnapshot: null,
  };
}

const snapshot: SnapshotView = {
  id: SNAP,
  at: '2025-01-01T00:00:01.000Z',
  reason: 'user',
  agents: [
    { agentId: AGENT, label: 'one', vendor: 'shell', cwd: '/tmp', sessionId: null, status: 'exited' },
    { agentId: AGENT_2, label: 'two', vendor: 'shell', cwd: '/tmp', sessionId: null, status: 'exited' },
  ],
};
const screen = (agentId: string, text: string): StoredScreen => ({
  agentId,
  label: 'x',
  cols: 80,
  rows: 24,
  text,
  serialized: text,
});
const event = (message: string): RunEvent => ({ at: '2025-01-01T00:00:00.000Z', type: 'renamed', message });

/** A store with one good run and one run (BAD) whose files a test then damages. */
async function twoRuns(): Promise<RunStore> {
  const store = await RunStore.open(dataDir);
  await store.save(manifest(GOOD, 'good'));
  await store.save(manifest(BAD, 'victim'));
  return store;
}

describe('a damaged run.json', () => {
  const valid = () => manifest(BAD, 'victim');
  const cases: [string, () => string][] = [
    ['truncated', () => JSON.stringify(valid()).slice(0, 40)],
    ['empty', () => ''],
    ['not JSON at all', () => '\u0000\u00ff garbage \ufffd'],
    ['an array', () => '[1,2,3]'],
    ['null', () => 'null'],
    ['wrong types', () => JSON.stringify({ ...valid(), agents: 'many', createdAt: 42 })],
    ['an unknown version', () => JSON.stringify({ ...valid(), v: 2 })],
    ['an extra field', () => JSON.stringify({ ...valid(), pwned: true })],
    ['a __proto__ key', () => `{"__proto__":{"polluted":true},${JSON.stringify(valid()).slice(1)}`],
    ['a huge name', () => JSON.stringify({ ...valid(), name: 'x'.repeat(1_000_000) })],
    [
      'a huge argument',
      () => JSON.stringify({ ...valid(), agents: [{ ...valid().agents[0], args: ['y'.repeat(1_000_000)] }] }),
    ],
    ['a file over the size bound', () => JSON.stringify({ ...valid(), pad: 'z'.repeat(9 * 1024 * 1024) })],
    ['deep nesting', () => `{"v":1,"agents":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['a path traversal in its id', () => JSON.stringify({ ...valid(), id: '../../x' })],
    ['the id of another run', () => JSON.stringify({ ...valid(), id: GOOD })],
    [
      'a path traversal in an agent id',
      () => JSON.stringify({ ...valid(), agents: [{ ...valid().agents[0], id: '../../../etc/passwd' }] }),
    ],
    [
      'a path traversal in its snapshot id',
      () => JSON.stringify({ ...valid(), lastSnapshot: { id: '../../x', at: valid().createdAt } }),
    ],
    ['a relative cwd', () => JSON.stringify({ ...valid(), agents: [{ ...valid().agents[0], cwd: '../..' }] })],
    ['two agents with one id', () => JSON.stringify({ ...valid(), agents: [valid().agents[0], valid().agents[0]] })],
    ['a date that is not a date', () => JSON.stringify({ ...valid(), updatedAt: 'yesterday' })],
  ];
  for (const [what, content] of cases) {
    it(`is skipped with a logged reason, left as it was, and the other runs open: ${what}`, async () => {
      await twoRuns();
      const file = join(runDir(BAD), 'run.json');
      const text = content();
      await writeFile(file, text);

      const reopened = await RunStore.open(dataDir);
      expect(reopened.list().map((r) => r.id)).toEqual([GOOD]);
      expect(reopened.get(BAD)).toBeUndefined();
      expect(reopened.unreadable().map((u) => u.path)).toEqual([file]);
      expect(logged()).toContain(`skipping run ${file}: `);
      // Never silently lost: the damaged file is still there for the user to repair.
      expect(await readFile(file, 'utf8')).toBe(text);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // The rest of the store still works.
      await reopened.appendEvent(GOOD, event('still here'));
      expect((await reopened.readEvents(GOOD)).map((e) => e.message)).toEqual(['still here']);
    });
  }

  it('is kept aside, not overwritten, when a run with its id is created again (from a handle, say)', async () => {
    await twoRuns();
    const file = join(runDir(BAD), 'run.json');
    await writeFile(file, '{"v":1,"id":');
    const reopened = await RunStore.open(dataDir);
    await reopened.save(manifest(BAD, 'again'));
    expect(reopened.get(BAD)?.name).toBe('again');
    expect(await readFile(join(runDir(BAD), 'run.json.unreadable'), 'utf8')).toBe('{"v":1,"id":');
  });
});

describe('entries of the runs directory that are not runs', () => {
  it('skips directories whose names are not run ids, links, files and FIFOs, logging each, and touches none', async () => {
    await twoRuns();
    const runs = join(dataDir, 'runs');
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'run.json'), JSON.stringify(manifest('run_cccccccccccccccc', 'lured')));
    await mkdir(join(runs, 'run_AAAAAAAAAAAAAAAA'));
    await mkdir(join(runs, 'notes'));
    await writeFile(join(runs, 'run_dddddddddddddddd'), 'a file, not a directory');
    await symlink(outside, join(runs, 'run_cccccccccccccccc'));
    await rm(join(runDir(BAD), 'run.json'));
    await symlink(join(outside, 'run.json'), join(runDir(BAD), 'run.json'));
    execFileSync('mkfifo', [join(runs, 'run_eeeeeeeeeeeeeeee')]);
    await mkdir(join(runs, 'run_ffffffffffffffff'));
    execFileSync('mkfifo', [join(runs, 'run_ffffffffffffffff', 'run.json')]);

    const reopened = await RunStore.open(dataDir);
    expect(reopened.list().map((r) => r.id)).toEqual([GOOD]);
    const reasons = new Map(reopened.unreadable().map((u) => [u.path.slice(runs.length + 1), u.reason]));
    expect(reasons.get('run_AAAAAAAAAAAAAAAA')).toMatch(/not a Baton run id/);
    expect(reasons.get('notes')).toMatch(/not a Baton run id/);
    expect(reasons.get('run_dddddddddddddddd')).toMatch(/not a directory/);
    expect(reasons.get('run_cccccccccccccccc')).toMatch(/symbolic link/);
    expect(reasons.get(`${BAD}/run.json`)).toMatch(/symbolic link/);
    expect(reasons.get('run_eeeeeeeeeeeeeeee')).toMatch(/not a directory/);
    expect(reasons.get('run_ffffffffffffffff/run.json')).toMatch(/not a regular file/);
    for (const name of reasons.keys()) expect(logged()).toContain(join(runs, name));
    expect((await readdir(runs)).sort()).toEqual(
      [
        GOOD,
        BAD,
        'run_AAAAAAAAAAAAAAAA',
        'notes',
        'run_dddddddddddddddd',
        'run_cccccccccccccccc',
        'run_eeeeeeeeeeeeeeee',
        'run_ffffffffffffffff',
      ].sort(),
    );
  });
});

describe('a damaged history (events.jsonl)', () => {
  it('keeps every good line, skips garbage, and logs the damage once', async () => {
    const store = await twoRuns();
    await store.appendEvent(BAD, event('first'));
    const file = join(runDir(BAD), 'events.jsonl');
    await appendFile(file, 'not json\n{"at":5}\n[]\nnull\n\u0000\u0001\n');
    await appendFile(file, `${JSON.stringify({ ...event('x'), type: 'teleported' })}\n`);
    await appendFile(file, `${JSON.stringify({ ...event('x'), agentId: '../../x' })}\n`);
    await appendFile(file, Buffer.from([0xff, 0xfe, 0x0a]));
    await store.appendEvent(BAD, event('second'));

    expect((await store.readEvents(BAD)).map((e) => e.message)).toEqual(['first', 'second']);
    expect((await store.readEvents(BAD)).map((e) => e.message)).toEqual(['first', 'second']);
    const warnings = logged()
      .split('\n')
      .filter((l) => l.includes(file));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/8 unreadable lines skipped/);
  });

  it('reads only the newest lines of a history too large to load', async () => {
    const store = await twoRuns();
    const file = join(runDir(BAD), 'events.jsonl');
    const filler = `${JSON.stringify(event('old'))}\n`.repeat(Math.ceil((17 * 1024 * 1024) / 70));
    await writeFile(file, filler);
    await store.appendEvent(BAD, event('newest'));
    const events = await store.readEvents(BAD);
    expect(events.at(-1)?.message).toBe('newest');
    expect(events.every((e) => e.type === 'renamed')).toBe(true);
    expect(logged()).toMatch(/only its last \d+ bytes were read/);
  });

  it('is never written through a symbolic link, nor read from one', async () => {
    const store = await twoRuns();
    const target = join(root, 'elsewhere.txt');
    await writeFile(target, 'precious\n');
    await symlink(target, join(runDir(BAD), 'events.jsonl'));
    await store.appendEvent(BAD, event('kept in memory'));
    expect(await readFile(target, 'utf8')).toBe('precious\n');
    expect((await store.readEvents(BAD)).map((e) => e.message)).toEqual(['kept in memory']);
    expect(logged()).toMatch(/symbolic link/);
    store.close();
  });
});

describe('a damaged snapshot', () => {
  async function withSnapshot(): Promise<RunStore> {
    const store = await twoRuns();
    await store.writeSnapshot(BAD, snapshot, [screen(AGENT, 'screen one'), screen(AGENT_2, 'screen two')]);
    return store;
  }
  const snapDir = () => join(runDir(BAD), 'screens', SNAP);

  it('with garbage in snapshot.json reads as no snapshot, logged, without throwing', async () => {
    for (const garbage of [
      '',
      '{"id":',
      '[]',
      JSON.stringify({ ...snapshot, id: 'snp_zzzzzzzzzzzzzzzz' }),
      JSON.stringify({ ...snapshot, reason: 'hacked' }),
    ]) {
      const store = await withSnapshot();
      await writeFile(join(snapDir(), 'snapshot.json'), garbage);
      expect(await store.readSnapshot(BAD, SNAP)).toBeUndefined();
      expect(logged()).toContain(join(snapDir(), 'snapshot.json'));
      await rm(runDir(BAD), { recursive: true });
    }
  });

  it('keeps the screens that read well and skips a garbage or mislabelled one', async () => {
    const store = await withSnapshot();
    await writeFile(join(snapDir(), AGENT), '{"agentId":');
    const back = await store.readSnapshot(BAD, SNAP);
    expect(back?.screens.map((s) => s.text)).toEqual(['screen two']);
    await writeFile(join(snapDir(), AGENT), JSON.stringify(screen(AGENT_2, 'impostor')));
    expect((await store.readSnapshot(BAD, SNAP))?.screens.map((s) => s.text)).toEqual(['screen two']);
    expect(logged()).toContain(join(snapDir(), AGENT));
  });

  it('is neither read nor written through a symbolic link in place of its directory', async () => {
    const store = await withSnapshot();
    const outside = join(root, 'outside-screens');
    await mkdir(outside);
    await rm(join(runDir(BAD), 'screens'), { recursive: true });
    await symlink(outside, join(runDir(BAD), 'screens'));
    expect(await store.readSnapshot(BAD, SNAP)).toBeUndefined();
    await expect(store.writeSnapshot(BAD, { ...snapshot, id: 'snp_bbbbbbbbbbbbbbbb' }, [])).rejects.toThrow(
      /symbolic link/,
    );
    expect(await readdir(outside)).toEqual([]);
    expect(lstatSync(join(runDir(BAD), 'screens')).isSymbolicLink()).toBe(true);
  });
});

describe('the data directory', () => {
  it('is created with mode 0700 when it does not exist', async () => {
    await RunStore.open(join(dataDir, 'deeper'));
    expect(statSync(join(dataDir, 'deeper')).mode & 0o777).toBe(0o700);
  });

  it('is refused, with the fix, when other users or its group can write it', async () => {
    await mkdir(dataDir);
    chmodSync(dataDir, 0o777);
    await expect(RunStore.open(dataDir)).rejects.toThrow(
      `the data directory ${dataDir} is writable by other users (mode 0777): run chmod 700 ${dataDir}`,
    );
    chmodSync(dataDir, 0o770);
    await expect(RunStore.open(dataDir)).rejects.toThrow(
      `the data directory ${dataDir} is writable by its group (mode 0770): run chmod 700 ${dataDir}`,
    );
    chmodSync(dataDir, 0o755);
    await expect(RunStore.open(dataDir)).resolves.toBeInstanceOf(RunStore);
    expect(await readdir(dataDir)).toEqual(['runs']);
  });

  it.skipIf(!isRoot)('is refused when another user owns it (needs root to give it away)', async () => {
    await mkdir(dataDir, { mode: 0o700 });
    chownSync(dataDir, 12345, 12345);
    await expect(RunStore.open(dataDir)).rejects.toThrow(/is owned by another user \(uid 12345; Baton runs as uid 0\)/);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('has its server.json refused when it is a link, writable by others, or someone else’s', async () => {
    await mkdir(dataDir, { mode: 0o700 });
    const file = join(dataDir, 'server.json');
    expect(() => checkServerFile(file)).not.toThrow();
    await writeFile(file, '{}', { mode: 0o600 });
    expect(() => checkServerFile(file)).not.toThrow();
    chmodSync(file, 0o666);
    expect(() => checkServerFile(file)).toThrow(
      `the server file ${file} is writable by other users (mode 0666): run chmod 600 ${file}`,
    );
    if (isRoot) {
      chmodSync(file, 0o600);
      chownSync(file, 12345, 12345);
      expect(() => checkServerFile(file)).toThrow(/is owned by another user/);
    }
    await rm(file);
    await symlink(join(root, 'evil.json'), file);
    expect(() => checkServerFile(file)).toThrow(/symbolic link/);
  });
});
