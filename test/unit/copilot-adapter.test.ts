// What only Copilot does (docs/vendors.md §4): global sessions, workspace.yaml, a session started but never spoken to.
// The cases it shares with the other minted-id vendors are in minted-id-adapters.test.ts.
import { cp, mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext } from '../../electron/core/vendors/adapter.js';
import {
  copilotHasConversation,
  copilotHome,
  parseCopilotEvents,
  parseWorkspaceYaml,
} from '../../electron/core/vendors/copilot/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/copilot/.copilot', import.meta.url));
const SAMPLE_ID = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
const copilotAdapter = createVendors().get('copilot')!;

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

async function addSession(
  id: string,
  opts: { cwd?: string; name?: string; prompt?: string | null; at?: Date } = {},
): Promise<void> {
  await mkdir(sessionDir(id), { recursive: true });
  const ws = [
    `id: ${id}`,
    `cwd: ${opts.cwd ?? '/home/u/proj'}`,
    ...(opts.name ? [`name: ${opts.name}`] : []),
    'user_named: false',
  ];
  await writeFile(join(sessionDir(id), 'workspace.yaml'), `${ws.join('\n')}\n`);
  if (opts.prompt !== undefined && opts.prompt !== null) {
    const lines = [
      {
        type: 'session.start',
        data: { sessionId: id, context: { cwd: opts.cwd ?? '/home/u/proj' } },
        id: 'e1',
        timestamp: 't',
        parentId: null,
      },
      { type: 'user.message', data: { content: opts.prompt }, id: 'e2', timestamp: 't', parentId: 'e1' },
    ];
    await writeFile(join(sessionDir(id), 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  }
  if (opts.at) {
    for (const f of ['workspace.yaml', 'events.jsonl'])
      await utimes(join(sessionDir(id), f), opts.at, opts.at).catch(() => undefined);
  }
}

describe('copilot adapter: facts', () => {
  it('finds its home like the CLI', () => {
    expect(copilotHome({ HOME: '/h' })).toBe('/h/.copilot');
    expect(copilotHome({ HOME: '/h', COPILOT_HOME: '/c' })).toBe('/c');
  });
});

describe('copilot store: parsers', () => {
  it('parses the sample workspace.yaml and events.jsonl', async () => {
    const ws = parseWorkspaceYaml(await readFile(join(sessionDir(SAMPLE_ID), 'workspace.yaml'), 'utf8'));
    expect(ws).toMatchObject({
      id: SAMPLE_ID,
      cwd: '/home/u/proj',
      name: 'task-42 remember',
      user_named: 'true',
      created_at: '2026-11-25T21:47:04.900Z',
    });
    const ev = parseCopilotEvents(await readFile(join(sessionDir(SAMPLE_ID), 'events.jsonl'), 'utf8'));
    expect(ev).toEqual({ sessionId: SAMPLE_ID, cwd: '/home/u/proj', firstPrompt: 'remember the number 777' });
  });

  it('reads quoted and empty YAML scalars, and ignores what it does not know', () => {
    const ws = parseWorkspaceYaml(
      "id: x\nname: \"run: one/two\"\nsummary: 'it''s'\nbranch:\n  - nested\ngit_root: ~\ncwd: /a b # comment\n",
    );
    expect(ws).toEqual({ id: 'x', name: 'run: one/two', summary: "it's", branch: null, git_root: null, cwd: '/a b' });
  });

  it('survives a torn line and an events file with no prompt yet', () => {
    expect(parseCopilotEvents('{"type":"session.start","data":{"sessionId":"s"}}\n{"type":"user.mes')).toEqual({
      sessionId: 's',
      cwd: null,
      firstPrompt: null,
    });
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
      {
        sessionId: '22222222-3333-4444-8555-666666666666',
        cwd: '/home/u/two',
        title: null,
        firstPrompt: 'second one',
        lastActivity: newer.toISOString(),
      },
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: 'task-42 remember',
        firstPrompt: 'remember the number 777',
        lastActivity: when.toISOString(),
      },
    ]);
    expect(await copilotAdapter.listSessions!({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });
});

describe('copilot adapter: planResume', () => {
  it('respawns a session that exists but was never spoken to with --session-id (which resumes an existing id)', async () => {
    const id = '33333333-4444-4555-8666-777777777777';
    await addSession(id);
    const plan = await copilotAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: true }, env);
    expect(plan).toMatchObject({
      argv: ['copilot', '--session-id', id],
      sessionId: id,
      outcome: 'resumed',
      warning: null,
    });
  });

  it('planResumeChecked counts such a session as found, as exists() does', async () => {
    const id = '33333333-4444-4555-8666-777777777777';
    await addSession(id);
    const checked = await copilotAdapter.planResumeChecked(
      ctx(),
      { sessionId: id, chosenBy: 'baton', confirmed: true },
      env,
    );
    expect(checked.found).toBe(await copilotAdapter.exists(id, '/home/u/proj', env));
    expect(checked.found).toBe(true);
    expect(checked.plan).toEqual(
      await copilotAdapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: true }, env),
    );
  });
});
