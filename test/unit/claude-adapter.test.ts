import { cp, mkdir, mkdtemp, realpath, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation } from '../../electron/core/vendors/adapter.js';
import { encodeClaudeCwd, claudeConfigDir } from '../../electron/core/vendors/claude/store.js';
import { SHELL_RESUME_NOTE } from '../../electron/core/vendors/shell/index.js';
import { createVendors, findOnPath, resolveBin } from '../../electron/core/vendors/registry.js';
import type { VendorName } from '../../shared/words.js';

const vendors = createVendors();
const claudeAdapter = vendors.get('claude')!;
const shellAdapter = vendors.get('shell')!;
const getAdapter = (vendor: VendorName) => vendors.get(vendor);
const { adapters } = vendors;

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/claude/.claude', import.meta.url));
const SAMPLE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let tmp: string;
let config: string;
let env: Record<string, string>;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-claude-')));
  config = join(tmp, 'config');
  await cp(FIXTURE, config, { recursive: true });
  env = { HOME: join(tmp, 'home'), CLAUDE_CONFIG_DIR: config, PATH: '/usr/bin:/bin' };
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'remember', cwd: '/home/u/proj', args: [], command: null, ...over };
}

async function until<T>(get: () => T | undefined, ms = 4000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('claude adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(claudeAdapter.vendor).toBe('claude');
    expect(claudeAdapter.sessionIdPattern?.test(SAMPLE_ID)).toBe(true);
    expect(claudeAdapter.sessionIdPattern?.test(SAMPLE_ID.toUpperCase())).toBe(false);
    expect(claudeAdapter.sessionIdPattern?.test(`${SAMPLE_ID}x`)).toBe(false);
    expect(claudeAdapter.sessionIdPattern?.test('--resume')).toBe(false);
    expect(claudeAdapter.submitDelayMs).toBe(150);
    expect(
      claudeAdapter.resumeErrorTexts.some((r) => r.test(`No conversation found with session ID: ${SAMPLE_ID}`)),
    ).toBe(true);
    expect(claudeAdapter.binEnvVar).toBe('BATON_CLAUDE_BIN');
    expect(claudeAdapter.defaultBin({})).toBe('claude');
    expect(claudeAdapter.resumeCommand(SAMPLE_ID)).toEqual(['claude', '--resume', SAMPLE_ID]);
  });

  it('encodes cwds like the CLI', () => {
    expect(encodeClaudeCwd('/home/u/proj')).toBe('-home-u-proj');
    expect(encodeClaudeCwd('/home/u/My Proj.v2_x@é')).toBe('-home-u-My-Proj-v2-x--');
    const long = `/${'a'.repeat(252)}`;
    const enc = encodeClaudeCwd(long);
    expect(enc.startsWith(`-${'a'.repeat(199)}-`)).toBe(true);
    expect(enc.length).toBeGreaterThan(201);
    expect(claudeConfigDir({ HOME: '/h' })).toBe('/h/.claude');
    expect(claudeConfigDir({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toBe('/c');
  });
});

describe('claude adapter: spawnFresh', () => {
  it('mints a UUIDv4 and passes it and the name as their own argv elements, user args last', async () => {
    const plan = await claudeAdapter.spawnFresh(ctx({ args: ['--model', 'opus', 'a b; rm -rf /'] }), env);
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.argv).toEqual([
      'claude',
      '--session-id',
      plan.sessionId,
      '-n',
      'task-42/remember',
      '--model',
      'opus',
      'a b; rm -rf /',
    ]);
    expect(plan.chosenBy).toBe('baton');
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toBeNull();
    expect(plan.env).toEqual({});
    expect((await claudeAdapter.spawnFresh(ctx(), env)).sessionId).not.toBe(plan.sessionId);
  });

  it('runs BATON_CLAUDE_BIN when set, the same as resolveBin', async () => {
    const e = { ...env, BATON_CLAUDE_BIN: '/opt/fake claude' };
    const plan = await claudeAdapter.spawnFresh(ctx(), e);
    expect(plan.argv[0]).toBe('/opt/fake claude');
    expect(plan.argv[0]).toBe(resolveBin(claudeAdapter, e));
    expect(resolveBin(claudeAdapter, env)).toBe('claude');
  });
});

describe('claude adapter: exists', () => {
  it('finds the sample through the scan although /home/u/proj does not exist here', async () => {
    expect(await claudeAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await claudeAdapter.exists(SAMPLE_ID, '/somewhere/else', env)).toBe(true);
  });

  it('finds a transcript under the realpath encoding of an existing cwd', async () => {
    const cwd = join(tmp, 'work dir');
    await mkdir(cwd);
    const id = '11111111-2222-4333-8444-555555555555';
    await mkdir(join(config, 'projects', encodeClaudeCwd(cwd)), { recursive: true });
    await writeFile(join(config, 'projects', encodeClaudeCwd(cwd), `${id}.jsonl`), '');
    expect(await claudeAdapter.exists(id, cwd, env)).toBe(true);
  });

  it('is false for unknown ids, bad ids, and a missing store', async () => {
    expect(await claudeAdapter.exists('00000000-0000-4000-8000-000000000000', '/home/u/proj', env)).toBe(false);
    expect(await claudeAdapter.exists('../sessions/43117', '/home/u/proj', env)).toBe(false);
    expect(await claudeAdapter.exists(SAMPLE_ID.toUpperCase(), '/home/u/proj', env)).toBe(false);
    expect(await claudeAdapter.exists(SAMPLE_ID, '/home/u/proj', { HOME: join(tmp, 'nohome') })).toBe(false);
  });
});

describe('claude adapter: planResume', () => {
  it('resumes a transcript that exists', async () => {
    const plan = await claudeAdapter.planResume(
      ctx({ args: ['--model', 'opus'] }),
      { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true },
      env,
    );
    expect(plan).toEqual({
      argv: ['claude', '--resume', SAMPLE_ID, '--model', 'opus'],
      env: {},
      sessionId: SAMPLE_ID,
      chosenBy: 'baton',
      outcome: 'resumed',
      warning: null,
    });
  });

  it('respawns under the same id when Baton chose it and nothing was ever said', async () => {
    const id = '22222222-3333-4444-8555-666666666666';
    const plan = await claudeAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
    expect(plan.argv).toEqual(['claude', '--session-id', id, '-n', 'task-42/remember']);
    expect(plan.sessionId).toBe(id);
    expect(plan.outcome).toBe('resumed');
    expect(plan.warning).toBeNull();
  });

  it('starts fresh with a warning when a confirmed transcript is gone', async () => {
    const id = '7f3c2a1e-0000-4000-8000-000000000000';
    const e = { ...env, CLAUDE_CONFIG_DIR: join(env.HOME!, '.claude') };
    const plan = await claudeAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: true }, e);
    expect(plan.outcome).toBe('fresh');
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.sessionId).not.toBe(id);
    expect(plan.argv).toEqual(['claude', '--session-id', plan.sessionId, '-n', 'task-42/remember']);
    expect(plan.warning).toBe(
      'claude: session 7f3c2a1e… is not in ~/.claude/projects any more; starting a fresh conversation in /home/u/proj',
    );
    expect(plan.warning).not.toContain(id);
  });

  it('starts fresh with a warning when the vendor chose a now-missing id', async () => {
    const id = '33333333-4444-4555-8666-777777777777';
    const plan = await claudeAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, env);
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toContain('session 33333333…');
    expect(plan.warning).toContain(`${config}/projects`);
    expect(plan.warning).not.toContain(id);
  });

  it('never puts an invalid id into argv', async () => {
    const plan = await claudeAdapter.planResume(
      ctx(),
      { sessionId: '--dangerously-skip-permissions', chosenBy: 'baton', confirmed: true },
      env,
    );
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toMatch(/not a Claude session id/);
    expect(plan.argv).not.toContain('--dangerously-skip-permissions');
    expect(plan.argv).not.toContain('--resume');
    expect(plan.sessionId).toMatch(UUID);
  });
});

describe('claude adapter: follow', () => {
  it('reports the registry id, its confirmation, and a change of id (/clear)', async () => {
    const pid = 4242;
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const sessions = join(config, 'sessions');
    const reg = (sessionId: string) =>
      JSON.stringify({
        pid,
        sessionId,
        cwd,
        startedAt: 1,
        procStart: '1',
        version: '2.1.332',
        kind: 'interactive',
        entrypoint: 'cli',
        name: null,
        status: 'idle',
        updatedAt: 1,
      });
    const seen: SessionObservation[] = [];
    // A partial file first: ignored.
    await writeFile(join(sessions, `${pid}.json`), '{"pid": 4242, "sessionId": "1111');
    const stop = claudeAdapter.follow({ pid, cwd, hints: {}, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    try {
      await new Promise((r) => setTimeout(r, 700));
      expect(seen).toEqual([]);

      const first = '44444444-5555-4666-8777-888888888888';
      await writeFile(join(sessions, `${pid}.json`), reg(first));
      await until(() => seen[0]);
      expect(seen).toEqual([{ sessionId: first, confirmed: false }]);

      // The first prompt writes the transcript.
      const dir = join(config, 'projects', encodeClaudeCwd(cwd));
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${first}.jsonl`), '{}\n');
      await until(() => seen[1]);
      expect(seen[1]).toEqual({ sessionId: first, confirmed: true });

      // /clear: a new id in the same registry file.
      const second = '55555555-6666-4777-8888-999999999999';
      await writeFile(join(sessions, `${pid}.json`), reg(second));
      await until(() => seen[2]);
      expect(seen[2]).toEqual({ sessionId: second, confirmed: false });

      // Another pid's file and a wrong pid inside are not this terminal's.
      await writeFile(join(sessions, `${pid}.json`), reg(second).replace('"pid":4242', '"pid":4243'));
      await new Promise((r) => setTimeout(r, 700));
      expect(seen).toHaveLength(3);
    } finally {
      stop();
    }
    const before = seen.length;
    await writeFile(join(sessions, `${pid}.json`), reg('66666666-7777-4888-8999-aaaaaaaaaaaa'));
    await new Promise((r) => setTimeout(r, 700));
    expect(seen).toHaveLength(before);
  });
});

describe('shell adapter and registry', () => {
  it('runs the shell or the command, never with a session', async () => {
    const e = { SHELL: '/bin/zsh' };
    const c = ctx({ args: ['-l'] });
    expect(await shellAdapter.spawnFresh(c, e)).toEqual({
      argv: ['/bin/zsh', '-l'],
      env: {},
      sessionId: null,
      chosenBy: null,
      outcome: 'fresh',
      warning: null,
    });
    expect((await shellAdapter.spawnFresh(ctx({ command: ['htop', '-d', '5'] }), e)).argv).toEqual(['htop', '-d', '5']);
    expect((await shellAdapter.spawnFresh(ctx(), {})).argv).toEqual(['/bin/sh']);
    expect((await shellAdapter.spawnFresh(ctx(), { SHELL: '/bin/zsh', BATON_SHELL_BIN: '/bin/bash' })).argv).toEqual([
      '/bin/bash',
    ]);
    const resumed = await shellAdapter.planResume(c, { sessionId: 'x', chosenBy: 'vendor', confirmed: true }, e);
    expect(resumed).toEqual({
      argv: ['/bin/zsh', '-l'],
      env: {},
      sessionId: null,
      chosenBy: null,
      outcome: 'fresh',
      warning: SHELL_RESUME_NOTE,
    });
    expect(await shellAdapter.exists('x', '/', e)).toBe(false);
    const stop = shellAdapter.follow({ pid: 1, cwd: '/', hints: {}, spawnedAt: Date.now() }, e, () => {
      throw new Error('no sessions in a shell');
    });
    stop();
    expect(shellAdapter.sessionIdPattern).toBeNull();
    expect(shellAdapter.submitDelayMs).toBe(0);
    expect(resolveBin(shellAdapter, e)).toBe('/bin/zsh');
    expect(resolveBin(shellAdapter, {})).toBe('/bin/sh');
  });

  it('lists the adapters by vendor', () => {
    expect(getAdapter('claude')).toBe(claudeAdapter);
    expect(getAdapter('shell')).toBe(shellAdapter);
    expect([...adapters.keys()]).toEqual(expect.arrayContaining(['claude', 'shell']));
    for (const [vendor, adapter] of adapters) expect(adapter.vendor).toBe(vendor);
  });

  it('finds binaries on PATH', async () => {
    const bin = join(tmp, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'tool'), '#!/bin/sh\n');
    await chmod(join(bin, 'tool'), 0o755);
    await writeFile(join(bin, 'plain'), '');
    await mkdir(join(bin, 'dir'));
    const e = { PATH: `/nonexistent::${bin}` };
    expect(findOnPath('tool', e)).toBe(join(bin, 'tool'));
    expect(findOnPath(join(bin, 'tool'), {})).toBe(join(bin, 'tool'));
    expect(findOnPath('plain', e)).toBeNull();
    expect(findOnPath('dir', e)).toBeNull();
    expect(findOnPath(join(bin, 'plain'), e)).toBeNull();
    expect(findOnPath('nope', e)).toBeNull();
    expect(findOnPath('tool', {})).toBeNull();
    expect(findOnPath('sh', { PATH: '/usr/bin:/bin' })).toMatch(/\/sh$/);
  });
});
