import { appendFile, cp, mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation } from '../../electron/core/vendors/adapter.js';
import { copilotAdapter, COPILOT_FACTS } from '../../electron/core/vendors/copilot.js';
import {
  copilotCacheSize,
  copilotHasConversation,
  copilotHome,
  parseCopilotEvents,
  parseWorkspaceYaml,
} from '../../electron/core/vendors/copilot-store.js';
import { getAdapter, resolveBin } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/copilot/.copilot', import.meta.url));
const SAMPLE_ID = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let tmp: string;
let chome: string;
let env: Record<string, string>;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-copilot-')));
  chome = join(tmp, 'copilot-home');
  await cp(FIXTURE, chome, { recursive: true });
  env = { HOME: join(tmp, 'home'), COPILOT_HOME: chome, PATH: '/usr/bin:/bin' };
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'remember', cwd: '/home/u/proj', args: [], command: null, ...over };
}

const sessionDir = (id: string) => join(chome, 'session-state', id);

async function addSession(id: string, opts: { cwd?: string; name?: string; prompt?: string | null; at?: Date } = {}): Promise<void> {
  await mkdir(sessionDir(id), { recursive: true });
  const ws = [`id: ${id}`, `cwd: ${opts.cwd ?? '/home/u/proj'}`, ...(opts.name ? [`name: ${opts.name}`] : []), 'user_named: false'];
  await writeFile(join(sessionDir(id), 'workspace.yaml'), `${ws.join('\n')}\n`);
  if (opts.prompt !== undefined && opts.prompt !== null) {
    const lines = [
      { type: 'session.start', data: { sessionId: id, context: { cwd: opts.cwd ?? '/home/u/proj' } }, id: 'e1', timestamp: 't', parentId: null },
      { type: 'user.message', data: { content: opts.prompt }, id: 'e2', timestamp: 't', parentId: 'e1' },
    ];
    await writeFile(join(sessionDir(id), 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  }
  if (opts.at) {
    for (const f of ['workspace.yaml', 'events.jsonl']) await utimes(join(sessionDir(id), f), opts.at, opts.at).catch(() => undefined);
  }
}

describe('copilot adapter: facts', () => {
  it('has the vendor facts as data', () => {
    expect(copilotAdapter.vendor).toBe('copilot');
    expect(getAdapter('copilot')).toBe(copilotAdapter);
    const p = copilotAdapter.sessionIdPattern!;
    expect(p.test(SAMPLE_ID)).toBe(true);
    expect(p.test(SAMPLE_ID.toUpperCase())).toBe(false);
    expect(p.test('5e6f7a8')).toBe(false); // resume takes prefixes; Baton stores and passes full ids only
    expect(p.test('task-42 remember')).toBe(false);
    expect(p.test('--yolo')).toBe(false);
    expect(copilotAdapter.submitDelayMs).toBe(300);
    expect(copilotAdapter.binEnvVar).toBe('BATON_COPILOT_BIN');
    expect(copilotAdapter.defaultBin({})).toBe('copilot');
    expect(copilotAdapter.versionArgs).toEqual(['--version']);
    expect(copilotAdapter.resumeCommand(SAMPLE_ID)).toEqual(['copilot', `--resume=${SAMPLE_ID}`]);
    expect(COPILOT_FACTS.sessionErrorExitCode).toBe(1);
  });

  it('recognises the real error texts', () => {
    expect(copilotAdapter.resumeErrorTexts.some((r) => r.test(`Error: No session, task, or name matched '${SAMPLE_ID}'.`))).toBe(true);
    expect(copilotAdapter.resumeErrorTexts.some((r) => r.test('The value is not a valid UUID, so a new session cannot be created.'))).toBe(true);
    expect(copilotAdapter.resumeErrorTexts.some((r) => r.test('● OK, I will remember 5.'))).toBe(false);
  });

  it('finds its home like the CLI', () => {
    expect(copilotHome({ HOME: '/h' })).toBe('/h/.copilot');
    expect(copilotHome({ HOME: '/h', COPILOT_HOME: '/c' })).toBe('/c');
  });
});

describe('copilot store: parsers', () => {
  it('parses the sample workspace.yaml and events.jsonl', async () => {
    const ws = parseWorkspaceYaml(await readFile(join(sessionDir(SAMPLE_ID), 'workspace.yaml'), 'utf8'));
    expect(ws).toMatchObject({ id: SAMPLE_ID, cwd: '/home/u/proj', name: 'task-42 remember', user_named: 'true', created_at: '2026-11-25T21:47:04.900Z' });
    const ev = parseCopilotEvents(await readFile(join(sessionDir(SAMPLE_ID), 'events.jsonl'), 'utf8'));
    expect(ev).toEqual({ sessionId: SAMPLE_ID, cwd: '/home/u/proj', firstPrompt: 'remember the number 777' });
  });

  it('reads quoted and empty YAML scalars, and ignores what it does not know', () => {
    const ws = parseWorkspaceYaml('id: x\nname: "run: one/two"\nsummary: \'it\'\'s\'\nbranch:\n  - nested\ngit_root: ~\ncwd: /a b # comment\n');
    expect(ws).toEqual({ id: 'x', name: 'run: one/two', summary: "it's", branch: null, git_root: null, cwd: '/a b' });
  });

  it('survives a torn line and an events file with no prompt yet', () => {
    expect(parseCopilotEvents('{"type":"session.start","data":{"sessionId":"s"}}\n{"type":"user.mes')).toEqual({ sessionId: 's', cwd: null, firstPrompt: null });
    expect(parseCopilotEvents('')).toEqual({ sessionId: null, cwd: null, firstPrompt: null });
  });
});

describe('copilot adapter: exists', () => {
  it('finds the sample from any directory (sessions are global)', async () => {
    expect(await copilotAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await copilotAdapter.exists(SAMPLE_ID, '/elsewhere', env)).toBe(true);
    expect(await copilotHasConversation(SAMPLE_ID, env)).toBe(true);
  });

  it('counts a session whose workspace.yaml exists though nothing was said yet', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    await addSession(id);
    expect(await copilotAdapter.exists(id, '/x', env)).toBe(true);
    expect(await copilotHasConversation(id, env)).toBe(false);
  });

  it('is false for unknown ids, bad ids and a missing store', async () => {
    expect(await copilotAdapter.exists('00000000-0000-4000-8000-000000000000', '/home/u/proj', env)).toBe(false);
    expect(await copilotAdapter.exists('../session-state', '/home/u/proj', env)).toBe(false);
    expect(await copilotAdapter.exists('.session-operation-locks', '/home/u/proj', env)).toBe(false);
    expect(await copilotAdapter.exists(SAMPLE_ID.toUpperCase(), '/home/u/proj', env)).toBe(false);
    expect(await copilotAdapter.exists(SAMPLE_ID, '/home/u/proj', { HOME: join(tmp, 'nohome') })).toBe(false);
  });
});

describe('copilot adapter: listSessions', () => {
  it('lists the sample with its cwd, name, first prompt and mtime; skips empty sessions and lock folders', async () => {
    const when = new Date('2026-11-25T21:48:11.000Z');
    for (const f of ['workspace.yaml', 'events.jsonl']) await utimes(join(sessionDir(SAMPLE_ID), f), when, when);
    await addSession('11111111-2222-4333-8444-555555555555'); // started, never spoken to
    await mkdir(join(chome, 'session-state', '.session-operation-locks'), { recursive: true });
    const newer = new Date('2026-11-26T10:00:00.000Z');
    await addSession('22222222-3333-4444-8555-666666666666', { cwd: '/home/u/two', prompt: 'second one', at: newer });
    expect(await copilotAdapter.listSessions!(env)).toEqual([
      { sessionId: '22222222-3333-4444-8555-666666666666', cwd: '/home/u/two', title: null, firstPrompt: 'second one', lastActivity: newer.toISOString() },
      { sessionId: SAMPLE_ID, cwd: '/home/u/proj', title: 'task-42 remember', firstPrompt: 'remember the number 777', lastActivity: when.toISOString() },
    ]);
    expect(await copilotAdapter.listSessions!({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });

  it('re-reads only files whose mtime or size changed', async () => {
    const file = join(sessionDir(SAMPLE_ID), 'events.jsonl');
    const when = new Date('2026-11-25T21:48:11.000Z');
    await utimes(file, when, when);
    expect((await copilotAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
    expect(copilotCacheSize()).toBeGreaterThan(0);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('remember the number 777', 'remember the number 778'));
    await utimes(file, when, when);
    expect((await copilotAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
    await appendFile(file, '\n');
    expect((await copilotAdapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 778');
  });
});

describe('copilot adapter: spawnFresh', () => {
  it('mints a UUIDv4, names the session <run>/<label>, user args last, no shell strings', async () => {
    const plan = await copilotAdapter.spawnFresh(ctx({ args: ['--model', 'gpt-5.4', 'a b; rm -rf /'] }), env);
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.argv).toEqual(['copilot', '--session-id', plan.sessionId, '-n', 'task-42/remember', '--model', 'gpt-5.4', 'a b; rm -rf /']);
    expect(plan).toMatchObject({ env: {}, chosenBy: 'baton', outcome: 'fresh', warning: null, hints: { sessionId: plan.sessionId } });
  });

  it('runs BATON_COPILOT_BIN when set, the same as resolveBin', async () => {
    const e = { ...env, BATON_COPILOT_BIN: '/opt/fake copilot' };
    expect((await copilotAdapter.spawnFresh(ctx(), e)).argv[0]).toBe('/opt/fake copilot');
    expect(resolveBin(copilotAdapter, e)).toBe('/opt/fake copilot');
  });
});

describe('copilot adapter: planResume', () => {
  it('resumes a conversation with --resume=<uuid>', async () => {
    const plan = await copilotAdapter.planResume(ctx({ args: ['--model', 'x'] }), { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true }, env);
    expect(plan).toEqual({
      argv: ['copilot', `--resume=${SAMPLE_ID}`, '--model', 'x'],
      env: {},
      sessionId: SAMPLE_ID,
      chosenBy: 'baton',
      outcome: 'resumed',
      warning: null,
      hints: { sessionId: SAMPLE_ID },
    });
  });

  it('respawns a session that exists but was never spoken to with --session-id (which resumes an existing id)', async () => {
    const id = '33333333-4444-4555-8666-777777777777';
    await addSession(id);
    const plan = await copilotAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: true }, env);
    expect(plan).toMatchObject({ argv: ['copilot', '--session-id', id], sessionId: id, outcome: 'resumed', warning: null });
  });

  it('respawns under the same id (named) when the CLI never wrote its workspace', async () => {
    const id = '44444444-5555-4666-8777-888888888888';
    const plan = await copilotAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
    expect(plan).toMatchObject({ argv: ['copilot', '--session-id', id, '-n', 'task-42/remember'], sessionId: id, outcome: 'resumed', warning: null });
  });

  it('starts fresh (new id) with a warning when the session folder was wiped', async () => {
    await rm(sessionDir(SAMPLE_ID), { recursive: true });
    const plan = await copilotAdapter.planResume(ctx(), { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true }, { ...env, COPILOT_HOME: '' });
    expect(plan.outcome).toBe('fresh');
    expect(plan.sessionId).toMatch(UUID);
    expect(plan.sessionId).not.toBe(SAMPLE_ID);
    expect(plan.argv).toEqual(['copilot', '--session-id', plan.sessionId, '-n', 'task-42/remember']);
    expect(plan.warning).toBe('copilot: session 5e6f7a8b… is not in ~/.copilot/session-state any more; starting a fresh conversation in /home/u/proj');
    expect(plan.warning).not.toContain(SAMPLE_ID);
  });

  it('starts fresh when the vendor chose a now-missing id', async () => {
    const id = '55555555-6666-4777-8888-999999999999';
    const plan = await copilotAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, env);
    expect(plan.outcome).toBe('fresh');
    expect(plan.warning).toContain(`${chome}/session-state`);
  });

  it('never puts an invalid id into argv', async () => {
    for (const bad of ['--yolo', '5e6f7a8', 'task-42 remember', SAMPLE_ID.toUpperCase(), '']) {
      const plan = await copilotAdapter.planResume(ctx(), { sessionId: bad, chosenBy: 'baton', confirmed: true }, env);
      expect(plan.outcome).toBe('fresh');
      expect(plan.warning).toMatch(/fresh conversation in \/home\/u\/proj$/);
      expect(plan.argv.some((a) => a.startsWith('--resume'))).toBe(false);
      if (bad !== '') expect(plan.argv.join('\n')).not.toContain(bad);
    }
  });
});

describe('copilot adapter: follow', () => {
  it('confirms the id as soon as workspace.yaml appears, then stops', async () => {
    const id = '66666666-7777-4888-8999-aaaaaaaaaaaa';
    const seen: SessionObservation[] = [];
    const stop = copilotAdapter.follow({ pid: 1, cwd: '/x', hints: { sessionId: id }, spawnedAt: Date.now() }, env, (s) => seen.push(s));
    try {
      await until(() => seen.length >= 1);
      expect(seen).toEqual([{ sessionId: id, confirmed: false }]);
      await addSession(id);
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
