import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation } from '../../electron/core/vendors/adapter.js';
import { qwenAdapter, QWEN_FACTS } from '../../electron/core/vendors/qwen.js';
import {
  encodeQwenCwd,
  parseQwenChat,
  parseQwenRuntime,
  qwenCacheSize,
  qwenHome,
  readQwenRuntime,
} from '../../electron/core/vendors/qwen-store.js';
import { getAdapter, resolveBin } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/qwen/.qwen', import.meta.url));
const SAMPLE_ID = '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let tmp: string;
let qhome: string;
let env: Record<string, string>;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-qwen-')));
  qhome = join(tmp, 'qwen-home');
  await cp(FIXTURE, qhome, { recursive: true });
  env = { HOME: join(tmp, 'home'), QWEN_HOME: qhome, PATH: '/usr/bin:/bin' };
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'remember', cwd: '/home/u/proj', args: [], command: null, ...over };
}

const sampleFile = () => join(qhome, 'projects', '-home-u-proj', 'chats', `${SAMPLE_ID}.jsonl`);
const userLine = (sessionId: string, cwd: string, text: string, provenance = 'real_user') =>
  JSON.stringify({ uuid: 'u', parentUuid: null, sessionId, timestamp: 't', type: 'user', provenance, cwd, version: '0.24.4', message: { role: 'user', parts: [{ text }] } });

async function addTranscript(id: string, cwd: string, lines: string[], at?: Date): Promise<string> {
  const dir = join(qhome, 'projects', encodeQwenCwd(cwd), 'chats');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${id}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  if (at) await utimes(file, at, at);
  return file;
}

describe('qwen adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(qwenAdapter.vendor).toBe('qwen');
    expect(getAdapter('qwen')).toBe(qwenAdapter);
    const p = qwenAdapter.sessionIdPattern!;
    expect(p.test(SAMPLE_ID)).toBe(true);
    expect(p.test(SAMPLE_ID.toUpperCase())).toBe(false);
    expect(p.test('my title')).toBe(false);
    expect(p.test('--yolo')).toBe(false);
    expect(qwenAdapter.submitDelayMs).toBe(300);
    expect(qwenAdapter.binEnvVar).toBe('BATON_QWEN_BIN');
    expect(qwenAdapter.defaultBin({})).toBe('qwen');
    expect(qwenAdapter.versionArgs).toEqual(['--version']);
    expect(qwenAdapter.resumeCommand(SAMPLE_ID)).toEqual(['qwen', '--resume', SAMPLE_ID]);
    expect(QWEN_FACTS.sessionErrorExitCode).toBe(1);
  });

  it('recognises the real error texts', () => {
    const texts = [
      `No saved session found with ID ${SAMPLE_ID}. Run \`qwen --resume\` without an ID to choose from existing sessions.`,
      'No saved session found with title "nosuch".',
      `Error: Session Id ${SAMPLE_ID} already exists (active or archived). Delete or unarchive it first.`,
      'Invalid --session-id: "x". Must be a valid UUID (e.g., "123e4567-e89b-12d3-a456-426614174000").',
    ];
    for (const t of texts) expect(qwenAdapter.resumeErrorTexts.some((r) => r.test(t)), t).toBe(true);
    expect(qwenAdapter.resumeErrorTexts.some((r) => r.test('✦ The number is 5.'))).toBe(false);
  });

  it('encodes cwds like the CLI (no length cap) and finds its home', () => {
    expect(encodeQwenCwd('/home/u/proj')).toBe('-home-u-proj');
    expect(encodeQwenCwd('/home/u/My Proj.v2_x@é')).toBe('-home-u-My-Proj-v2-x--');
    expect(encodeQwenCwd(`/${'a'.repeat(300)}`)).toHaveLength(301);
    expect(encodeQwenCwd('C:\\Users\\U', 'win32')).toBe('c--users-u');
    expect(qwenHome({ HOME: '/h' })).toBe('/h/.qwen');
    expect(qwenHome({ HOME: '/h', QWEN_HOME: '/q' })).toBe('/q');
  });
});

describe('qwen store: parsers', () => {
  it('parses the sample transcript and runtime sidecar', async () => {
    expect(parseQwenChat(await readFile(sampleFile(), 'utf8'))).toEqual({ sessionId: SAMPLE_ID, cwd: '/home/u/proj', firstPrompt: 'remember the number 777' });
    const rt = parseQwenRuntime(await readFile(sampleFile().replace('.jsonl', '.runtime.json'), 'utf8'));
    expect(rt).toEqual({ pid: 43190, sessionId: SAMPLE_ID, workDir: '/home/u/proj', startedAt: 1795643224.9, version: '0.24.4' });
    expect(await readQwenRuntime(SAMPLE_ID, '/home/u/proj', env)).toEqual(rt);
    expect(parseQwenRuntime('{"pid":-1,"session_id":"x"}')).toBeNull();
    expect(parseQwenRuntime('{')).toBeNull();
  });

  it('takes the first real user prompt, skipping system lines and non-user provenance, and a torn line', () => {
    const text = [
      JSON.stringify({ uuid: 's', sessionId: 'x', type: 'system', subtype: 'init', cwd: '/c' }),
      userLine('x', '/c', 'Managed memory has TWO directories…', 'memory_extraction'),
      userLine('x', '/c', 'the real one'),
      '{"uuid":"torn',
    ].join('\n');
    expect(parseQwenChat(text)).toEqual({ sessionId: 'x', cwd: '/c', firstPrompt: 'the real one' });
    expect(parseQwenChat('')).toEqual({ sessionId: null, cwd: null, firstPrompt: null });
  });
});

describe('qwen adapter: exists', () => {
  it('finds the sample in its project although /home/u/proj does not exist here', async () => {
    expect(await qwenAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
  });

  it('is per project: the same id from another directory is not found', async () => {
    expect(await qwenAdapter.exists(SAMPLE_ID, '/home/u/other', env)).toBe(false);
  });

  it('finds a transcript under the realpath of a cwd given through a symlink', async () => {
    const real = join(tmp, 'real proj');
    await mkdir(real);
    await symlink(real, join(tmp, 'link'));
    const id = '11111111-2222-4333-8444-555555555555';
    await addTranscript(id, real, [userLine(id, real, 'hi')]);
    expect(await qwenAdapter.exists(id, join(tmp, 'link'), env)).toBe(true);
  });

  it('is false for a runtime sidecar alone, unknown ids, bad ids and a missing store', async () => {
    const id = '22222222-3333-4444-8555-666666666666';
    const dir = join(qhome, 'projects', '-home-u-proj', 'chats');
    await writeFile(join(dir, `${id}.runtime.json`), JSON.stringify({ schema_version: 1, pid: 1, session_id: id, work_dir: '/home/u/proj' }));
    expect(await qwenAdapter.exists(id, '/home/u/proj', env)).toBe(false);
    expect(await qwenAdapter.exists('00000000-0000-4000-8000-000000000000', '/home/u/proj', env)).toBe(false);
    expect(await qwenAdapter.exists('../../projects/x', '/home/u/proj', env)).toBe(false);
    expect(await qwenAdapter.exists(SAMPLE_ID.toUpperCase(), '/home/u/proj', env)).toBe(false);
    expect(await qwenAdapter.exists(SAMPLE_ID, '/home/u/proj', { HOME: join(tmp, 'nohome') })).toBe(false);
  });
});

describe('qwen adapter: listSessions', () => {
  it('lists transcripts (not sidecars) with cwd, first prompt and mtime, newest first', async () => {
    const t0 = new Date('2026-11-25T21:48:11.000Z');
    await utimes(sampleFile(), t0, t0);
    const t1 = new Date('2026-11-26T10:00:00.000Z');
    const id2 = '33333333-4444-4555-8666-777777777777';
    await addTranscript(id2, '/home/u/two', [userLine(id2, '/home/u/two', 'second one')], t1);
    expect(await qwenAdapter.listSessions!(env)).toEqual([
      { sessionId: id2, cwd: '/home/u/two', title: null, firstPrompt: 'second one', lastActivity: t1.toISOString() },
      { sessionId: SAMPLE_ID, cwd: '/home/u/proj', title: null, firstPrompt: 'remember the number 777', lastActivity: t0.toISOString() },
    ]);
    expect(await qwenAdapter.listSessions!({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });

  it('re-reads only files whose mtime or size changed, and reads only the head of a large one', async () => {
    const file = sampleFile();
    const when = new Date('2026-11-25T21:48:11.000Z');
    await utimes(file, when, when);
    expect((await qwenAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
    expect(qwenCacheSize()).toBeGreaterThan(0);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('remember the number 777', 'remember the number 778'));
    await utimes(file, when, when);
    expect((await qwenAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
    const later = new Date(when.getTime() + 5000);
    await utimes(file, later, later);
    expect((await qwenAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 778');

    const id = '44444444-5555-4666-8777-888888888888';
    const big = Array.from({ length: 3000 }, () => JSON.stringify({ type: 'assistant', message: { parts: [{ text: 'y'.repeat(100) }] } }));
    await addTranscript(id, '/home/u/big', [userLine(id, '/home/u/big', 'first of many'), ...big]);
    expect((await qwenAdapter.listSessions!(env)).find((s) => s.sessionId === id)).toMatchObject({ firstPrompt: 'first of many', cwd: '/home/u/big' });
  });
});

describe('qwen adapter: spawnFresh', () => {
  it('mints a UUIDv4 and never passes a positional prompt of its own; user args last, no shell strings', async () => {
    const plan = await qwenAdapter.spawnFresh(ctx({ args: ['--auth-type', 'openai', '-m', 'mock model'] }), env);
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.argv).toEqual(['qwen', '--session-id', plan.sessionId, '--auth-type', 'openai', '-m', 'mock model']);
    expect(plan).toMatchObject({ env: {}, chosenBy: 'baton', outcome: 'fresh', warning: null, hints: { sessionId: plan.sessionId } });
  });

  it('runs BATON_QWEN_BIN when set, the same as resolveBin', async () => {
    const e = { ...env, BATON_QWEN_BIN: '/opt/fake qwen' };
    expect((await qwenAdapter.spawnFresh(ctx(), e)).argv[0]).toBe('/opt/fake qwen');
    expect(resolveBin(qwenAdapter, e)).toBe('/opt/fake qwen');
  });
});

describe('qwen adapter: planResume', () => {
  it('resumes a transcript that exists, with --resume <id>', async () => {
    const plan = await qwenAdapter.planResume(ctx({ args: ['-m', 'x'] }), { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true }, env);
    expect(plan).toEqual({
      argv: ['qwen', '--resume', SAMPLE_ID, '-m', 'x'],
      env: {},
      sessionId: SAMPLE_ID,
      chosenBy: 'baton',
      outcome: 'resumed',
      warning: null,
      hints: { sessionId: SAMPLE_ID },
    });
  });

  it('respawns under the same id when Baton chose it and nothing was ever said (a sidecar alone is no transcript)', async () => {
    const id = '55555555-6666-4777-8888-999999999999';
    await writeFile(join(qhome, 'projects', '-home-u-proj', 'chats', `${id}.runtime.json`), '{}');
    const plan = await qwenAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
    expect(plan).toMatchObject({ argv: ['qwen', '--session-id', id], sessionId: id, outcome: 'resumed', warning: null });
  });

  it('starts fresh with a warning when a confirmed transcript is gone', async () => {
    await rm(sampleFile());
    const plan = await qwenAdapter.planResume(ctx(), { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true }, { ...env, QWEN_HOME: '' });
    expect(plan.outcome).toBe('fresh');
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.sessionId).not.toBe(SAMPLE_ID);
    expect(plan.argv).toEqual(['qwen', '--session-id', plan.sessionId]);
    expect(plan.warning).toBe('qwen: session 9d8c7b6a… is not in ~/.qwen/projects/-home-u-proj/chats any more; starting a fresh conversation in /home/u/proj');
    expect(plan.warning).not.toContain(SAMPLE_ID);
  });

  it('starts fresh when the vendor chose a now-missing id', async () => {
    const id = '66666666-7777-4888-8999-aaaaaaaaaaaa';
    const plan = await qwenAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, env);
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toContain(`${qhome}/projects/-home-u-proj/chats`);
  });

  it('never puts an invalid id into argv', async () => {
    for (const bad of ['--yolo', 'my title', SAMPLE_ID.toUpperCase(), '']) {
      const plan = await qwenAdapter.planResume(ctx(), { sessionId: bad, chosenBy: 'baton', confirmed: true }, env);
      expect(plan.outcome).toBe('fresh');
      expect(plan.warning).toMatch(/fresh conversation in \/home\/u\/proj$/);
      expect(plan.argv).not.toContain('--resume');
      if (bad !== '') expect(plan.argv).not.toContain(bad);
    }
  });
});

describe('qwen adapter: follow', () => {
  it('reports the chosen id, then its confirmation once the transcript appears, then stops', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const id = '77777777-8888-4999-8aaa-bbbbbbbbbbbb';
    const seen: SessionObservation[] = [];
    const stop = qwenAdapter.follow({ pid: 1, cwd, hints: { sessionId: id }, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    try {
      await until(() => seen.length >= 1);
      expect(seen).toEqual([{ sessionId: id, confirmed: false }]);
      await addTranscript(id, cwd, [userLine(id, cwd, 'hi')]);
      await until(() => seen.length >= 2);
      expect(seen[1]).toEqual({ sessionId: id, confirmed: true });
      await new Promise((r) => setTimeout(r, 700));
      expect(seen).toHaveLength(2);
    } finally {
      stop();
    }
  });
});

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
