// The Cursor adapter against the [reported] sample (store.db read with sql.js) and the stand-in CLI
// test/fakes/cursor-agent.mjs. The real CLI cannot be installed here: everything is unverified against it.
import { cp, mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import {
  parseChatMeta,
  parseRootBlob,
  readChatStore as readChatStoreWith,
} from '../../electron/core/vendors/cursor/chat-db.js';
import { parseCreateChatOutput } from '../../electron/core/vendors/cursor/create-chat.js';
import { CURSOR_FACTS, CURSOR_SUPPORT_NOTE } from '../../electron/core/vendors/cursor/index.js';
import { CURSOR_CHAT_ID, displayChatsDir, workspaceHash } from '../../electron/core/vendors/cursor/store.js';
import { sqlJsLoader } from '../../electron/core/vendors/kit/sqlite-image.js';
import { createVendors, resolveBin, type VendorOptions, type Vendors } from '../../electron/core/vendors/registry.js';
import type { VendorName } from '../../shared/words.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/cursor/.cursor', import.meta.url));
const FAKE = fileURLToPath(new URL('../fakes/cursor-agent.mjs', import.meta.url));
const SAMPLE_ID = '2c4e6a8b-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
const SAMPLE_HASH = '4fafce67053eea06f159a78f7ef15755';

let tmp: string;
let env: Record<string, string>;
let chats: string;
// A new vendor context per test (its claims and caches start empty); `useVendors` with options shortens timings.
let vendors: Vendors;
let cursorAdapter: VendorAdapter;
function useVendors(options?: VendorOptions): void {
  vendors = createVendors(options);
  cursorAdapter = vendors.get('cursor')!;
}
const getAdapter = (vendor: VendorName) => vendors.get(vendor);
const readChatStore = (path: string) => readChatStoreWith(sqlJsLoader(), path);

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-cursor-')));
  env = { HOME: join(tmp, 'home'), PATH: process.env.PATH ?? '/usr/bin:/bin' };
  await cp(FIXTURE, join(tmp, 'home', '.cursor'), { recursive: true });
  chats = join(tmp, 'home', '.cursor', 'chats');
  useVendors();
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'coder', cwd: '/home/u/proj', args: [], command: null, ...over };
}

async function workdir(name = 'w'): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

describe('cursor adapter: facts (all reported, unverified)', () => {
  it('has the vendor facts as data, and says it is unverified', () => {
    expect(cursorAdapter.vendor).toBe('cursor');
    expect(getAdapter('cursor')).toBe(cursorAdapter);
    expect(cursorAdapter.displayName).toBe('Cursor CLI (unverified)');
    expect(CURSOR_SUPPORT_NOTE).toBe(
      "Cursor CLI support is experimental: Baton has been tested only against a stand-in that follows Cursor's published behaviour, not against the real cursor-agent. Tell us if something does not work.",
    );
    expect(cursorAdapter.submitDelayMs).toBe(300);
    expect(cursorAdapter.binEnvVar).toBe('BATON_CURSOR_BIN');
    expect(cursorAdapter.defaultBin({})).toBe('cursor-agent');
    expect(resolveBin(cursorAdapter, { BATON_CURSOR_BIN: '/opt/ca' })).toBe('/opt/ca');
    expect(cursorAdapter.versionArgs).toEqual(['--version']);
    expect(cursorAdapter.resumeCommand(SAMPLE_ID)).toEqual(['cursor-agent', '--resume', SAMPLE_ID]);
    expect(cursorAdapter.sessionIdPattern).toBe(CURSOR_CHAT_ID);
  });

  it('accepts only lowercase UUIDs as chat ids', () => {
    expect(CURSOR_CHAT_ID.test(SAMPLE_ID)).toBe(true);
    for (const bad of [SAMPLE_ID.toUpperCase(), `${SAMPLE_ID}x`, '-1', '../x', '', `--resume=${SAMPLE_ID}`])
      expect(CURSOR_CHAT_ID.test(bad), bad).toBe(false);
  });

  it('recognises the reported "no such chat" texts, and not the prompt', () => {
    const hit = (t: string) => CURSOR_FACTS.resumeErrorTexts.some((r) => r.test(t));
    expect(hit(`Error: chat not found: ${SAMPLE_ID}`)).toBe(true);
    expect(hit('No chat found with that id')).toBe(true);
    expect(hit('Could not find chat')).toBe(true);
    expect(hit('→ Plan, search, build anything')).toBe(false);
  });

  it('reads create-chat output: exactly one chat id', () => {
    expect(parseCreateChatOutput(`${SAMPLE_ID}\n`)).toBe(SAMPLE_ID);
    expect(parseCreateChatOutput(`\x1b[32mCreated chat\x1b[0m ${SAMPLE_ID}\n`)).toBe(SAMPLE_ID);
    expect(parseCreateChatOutput(`${SAMPLE_ID}\n${SAMPLE_ID}\n`)).toBe(SAMPLE_ID);
    expect(parseCreateChatOutput('')).toBeNull();
    expect(parseCreateChatOutput('Creating chat… done')).toBeNull();
    expect(parseCreateChatOutput(`${SAMPLE_ID} ${SAMPLE_ID.replace('2c4e', '3c4e')}`)).toBeNull();
    expect(parseCreateChatOutput(SAMPLE_ID.toUpperCase())).toBeNull();
  });
});

describe('cursor store: the sample chat', () => {
  it('names workspaces by the md5 of their path', () => {
    expect(workspaceHash('/home/u/proj')).toBe(SAMPLE_HASH);
    expect(displayChatsDir({ HOME: '/h' })).toBe('~/.cursor/chats');
  });

  it('parses the meta row, the root blob and the messages of store.db', async () => {
    const chat = await readChatStore(join(chats, SAMPLE_HASH, SAMPLE_ID, 'store.db'));
    expect(chat?.meta).toEqual({
      agentId: SAMPLE_ID,
      latestRootBlobId: '8adff79ef19850648dcf0df5341e92d6c5a86625119add99cb3aab5370bff2b2',
      name: 'Remember the number 777',
      mode: 'default',
      createdAt: 1795643224900,
      lastUsedModel: 'gpt-5.4',
    });
    expect(chat?.messages).toEqual([
      { role: 'user', text: 'remember the number 777' },
      { role: 'assistant', text: 'Noted: 777.' },
      { role: 'user', text: 'what number did I ask you to remember?' },
      { role: 'assistant', text: '777.' },
    ]);
    expect(parseChatMeta('zz')).toBeNull();
    expect(parseChatMeta(Buffer.from('[1]').toString('hex'))).toBeNull();
    // A root with another field before the ids, and a truncated tail.
    const id = 'ab'.repeat(32);
    const root = Buffer.concat([
      Buffer.from([0x10, 0x05]),
      Buffer.from([0x0a, 0x20]),
      Buffer.from(id, 'hex'),
      Buffer.from([0x0a, 0x20, 0x01]),
    ]);
    expect(parseRootBlob(root)).toEqual([id]);
  });

  it('exists() finds the chat under the md5 of its workspace only', async () => {
    expect(await cursorAdapter.exists(SAMPLE_ID, '/home/u/proj', env)).toBe(true);
    expect(await cursorAdapter.exists(SAMPLE_ID, '/home/u/other', env)).toBe(false);
    expect(await cursorAdapter.exists('../4fafce67053eea06f159a78f7ef15755', '/home/u/proj', env)).toBe(false);
    expect(await cursorAdapter.exists(SAMPLE_ID.replace('2c4e', '3c4e'), '/home/u/proj', env)).toBe(false);
  });

  it('listSessions() gives the chat, its title and first prompt; its cwd only when the workspace is known', async () => {
    expect(await cursorAdapter.listSessions!(env)).toEqual([
      {
        sessionId: SAMPLE_ID,
        cwd: null,
        title: 'Remember the number 777',
        firstPrompt: 'remember the number 777',
        lastActivity: new Date(1795643291100).toISOString(),
      },
    ]);
    await mkdir(join(tmp, 'home', '.cursor', 'projects', 'home-u-proj'), { recursive: true });
    await writeFile(join(tmp, 'home', '.cursor', 'projects', 'home-u-proj', '.workspace-trusted'), '/home/u/proj\n');
    expect((await cursorAdapter.listSessions!(env))[0]?.cwd).toBe('/home/u/proj');
    // A chat folder that create-chat made but that holds no conversation is not listed.
    await mkdir(join(chats, SAMPLE_HASH, 'aaaaaaaa-1d3f-4a5b-8c7d-9e0f1a2b3c4d'), { recursive: true });
    expect((await cursorAdapter.listSessions!(env)).map((s) => s.sessionId)).toEqual([SAMPLE_ID]);
  });
});

describe('cursor adapter: create-chat, then --resume (argv arrays, never shell strings)', () => {
  it('spawnFresh runs create-chat in the agent directory and resumes the chat it printed', async () => {
    const cwd = await workdir();
    const plan = await cursorAdapter.spawnFresh(ctx({ cwd, args: ['--model', 'gpt-5'] }), {
      ...env,
      BATON_CURSOR_BIN: FAKE,
    });
    const id = plan.sessionId!;
    expect(id).toMatch(CURSOR_CHAT_ID);
    expect(plan).toMatchObject({
      argv: [FAKE, '--resume', id, '--model', 'gpt-5'],
      chosenBy: 'vendor',
      warning: null,
      env: {},
      hints: { sessionId: id },
    });
    // The fake made the chat's folder under the md5 of the cwd, as the CLI is reported to.
    expect((await stat(join(chats, workspaceHash(cwd), id, 'meta.json'))).isFile()).toBe(true);
    expect(await cursorAdapter.exists(id, cwd, env)).toBe(false); // no conversation yet
  });

  it('spawnFresh fails with a clear message when create-chat fails, prints no id, hangs, or is missing', async () => {
    const cwd = await workdir();
    const base = { ...env, BATON_CURSOR_BIN: FAKE };
    await expect(cursorAdapter.spawnFresh(ctx({ cwd }), { ...base, FAKE_CURSOR_CREATE_CHAT: 'fail' })).rejects.toThrow(
      /create-chat' failed, so no chat was created: Error: not logged in/,
    );
    await expect(
      cursorAdapter.spawnFresh(ctx({ cwd }), { ...base, FAKE_CURSOR_CREATE_CHAT: 'garbage' }),
    ).rejects.toThrow(/did not print one chat id/);
    useVendors({ timings: { cursor: { createChatTimeoutMs: 1500 } } });
    await expect(cursorAdapter.spawnFresh(ctx({ cwd }), { ...base, FAKE_CURSOR_CREATE_CHAT: 'hang' })).rejects.toThrow(
      /did not answer within 1.5 s/,
    );
    await expect(
      cursorAdapter.spawnFresh(ctx({ cwd }), { ...env, BATON_CURSOR_BIN: join(tmp, 'no-such-bin') }),
    ).rejects.toThrow(/Cursor CLI was not found .* set BATON_CURSOR_BIN/);
  });

  it('planResume: a chat with a store resumes; a chat folder with nothing said resumes; a gone chat starts fresh', async () => {
    const resumed = await cursorAdapter.planResume(
      ctx({ args: ['-m', 'x'] }),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      env,
    );
    expect(resumed).toMatchObject({
      argv: ['cursor-agent', '--resume', SAMPLE_ID, '-m', 'x'],
      sessionId: SAMPLE_ID,
      outcome: 'resumed',
      warning: null,
    });

    const quiet = 'bbbbbbbb-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
    await mkdir(join(chats, SAMPLE_HASH, quiet), { recursive: true });
    const again = await cursorAdapter.planResume(
      ctx(),
      { sessionId: quiet, chosenBy: 'vendor', confirmed: false },
      env,
    );
    expect(again).toMatchObject({ argv: ['cursor-agent', '--resume', quiet], outcome: 'resumed', warning: null });
    // It had a conversation once, and its store is gone now: fresh.
    const lost = await cursorAdapter.planResume(ctx(), { sessionId: quiet, chosenBy: 'vendor', confirmed: true }, env);
    expect(lost.outcome).toBe('fresh');

    await rm(join(chats, SAMPLE_HASH, SAMPLE_ID), { recursive: true });
    const gone = await cursorAdapter.planResume(
      ctx(),
      { sessionId: SAMPLE_ID, chosenBy: 'vendor', confirmed: true },
      { ...env, BATON_CURSOR_BIN: '/opt/ca' },
    );
    expect(gone).toMatchObject({ argv: ['/opt/ca'], sessionId: null, chosenBy: null, outcome: 'fresh' });
    expect(gone.warning).toBe(
      'cursor: chat 2c4e6a8b… is not in ~/.cursor/chats any more; starting a fresh conversation in /home/u/proj',
    );
    expect(gone.warning).not.toContain(SAMPLE_ID);
  });

  it('planResumeChecked says what exists() says: a chat with a store is found, a quiet chat folder is not', async () => {
    const quiet = 'bbbbbbbb-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
    await mkdir(join(chats, SAMPLE_HASH, quiet), { recursive: true });
    for (const [id, confirmed] of [
      [SAMPLE_ID, true],
      [quiet, false],
      ['cccccccc-1d3f-4a5b-8c7d-9e0f1a2b3c4d', true],
    ] as const) {
      const prior = { sessionId: id, chosenBy: 'vendor', confirmed } as const;
      const { plan, found } = await cursorAdapter.planResumeChecked(ctx(), prior, env);
      expect(found, id).toBe(await cursorAdapter.exists(id, ctx().cwd, env));
      expect(plan.outcome, id).toBe((await cursorAdapter.planResume(ctx(), prior, env)).outcome);
    }
  });

  it('planResume runs no process and writes nothing (the handle preview plans resumes too)', async () => {
    const cwd = await workdir();
    const before = await readdir(chats);
    for (const sessionId of ['', 'not-a-uuid', 'cccccccc-1d3f-4a5b-8c7d-9e0f1a2b3c4d']) {
      const plan = await cursorAdapter.planResume(
        ctx({ cwd }),
        { sessionId, chosenBy: 'vendor', confirmed: true },
        { ...env, BATON_CURSOR_BIN: FAKE },
      );
      expect(plan).toMatchObject({ argv: [FAKE], sessionId: null, outcome: 'fresh' });
      expect(plan.argv).not.toContain(sessionId);
    }
    expect(await readdir(chats)).toEqual(before);
  });
});

describe('cursor follow()', () => {
  const stops: (() => void)[] = [];
  beforeEach(() => {
    useVendors({ timings: { cursor: { intervalMs: 30 } } });
  });
  afterEach(() => {
    for (const s of stops.splice(0)) s();
  });
  const until = async (cond: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const start = (cwd: string, hints: Record<string, string>, spawnedAt = Date.now()) => {
    const seen: SessionObservation[] = [];
    stops.push(cursorAdapter.follow({ pid: process.pid, cwd, hints, spawnedAt }, env, (s) => seen.push(s)));
    return seen;
  };
  const chatFolder = async (cwd: string, id: string, withStore: boolean) => {
    const dir = join(chats, workspaceHash(cwd), id);
    await mkdir(dir, { recursive: true });
    if (withStore)
      await writeFile(join(dir, 'store.db'), await readFile(join(chats, SAMPLE_HASH, SAMPLE_ID, 'store.db')));
  };

  it('reports the chat create-chat made at once, and confirms it when its store.db appears', async () => {
    const cwd = await workdir();
    const id = 'dddddddd-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
    await chatFolder(cwd, id, false);
    const seen = start(cwd, { sessionId: id });
    await until(() => seen.length > 0);
    expect(seen).toEqual([{ sessionId: id, confirmed: false }]);
    await chatFolder(cwd, id, true);
    await until(() => seen.length > 1);
    expect(seen.at(-1)).toEqual({ sessionId: id, confirmed: true });
  });

  it('without an id, takes exactly one new, unclaimed chat folder of this workspace', async () => {
    const cwd = await workdir();
    const spawnedAt = Date.now();
    // Both chats exist before the follower first looks (they count as new: born after the spawn). Made while it
    // polled, it could see the first alone between the two — one new chat, rightly taken — and the test flaked.
    await chatFolder(cwd, 'eeeeeeee-1d3f-4a5b-8c7d-9e0f1a2b3c4d', false);
    await chatFolder(cwd, 'ffffffff-1d3f-4a5b-8c7d-9e0f1a2b3c4d', false);
    const seen = start(cwd, {}, spawnedAt);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]); // two new chats: never guess
    await rm(join(chats, workspaceHash(cwd), 'ffffffff-1d3f-4a5b-8c7d-9e0f1a2b3c4d'), { recursive: true });
    await until(() => seen.length > 0);
    expect(seen[0]).toEqual({ sessionId: 'eeeeeeee-1d3f-4a5b-8c7d-9e0f1a2b3c4d', confirmed: false });
    // A second agent of the same workspace never gets the claimed chat.
    const other = start(cwd, {}, spawnedAt);
    await new Promise((r) => setTimeout(r, 200));
    expect(other).toEqual([]);
  });
});
