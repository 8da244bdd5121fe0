// What only Qwen does (docs/vendors.md §5): its cwd encoding, its runtime sidecar, its transcript lines. The cases it
// shares with the other minted-id vendors are in minted-id-adapters.test.ts.
import { cp, mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeQwenCwd,
  parseQwenChat,
  parseQwenRuntime,
  qwenHome,
  readQwenRuntime,
} from '../../electron/core/vendors/qwen/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/qwen/.qwen', import.meta.url));
const SAMPLE_ID = '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a';
const qwenAdapter = createVendors().get('qwen')!;

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

const sampleFile = () => join(qhome, 'projects', '-home-u-proj', 'chats', `${SAMPLE_ID}.jsonl`);
const userLine = (sessionId: string, cwd: string, text: string, provenance = 'real_user') =>
  JSON.stringify({
    uuid: 'u',
    parentUuid: null,
    sessionId,
    timestamp: 't',
    type: 'user',
    provenance,
    cwd,
    version: '0.24.4',
    message: { role: 'user', parts: [{ text }] },
  });

async function addTranscript(id: string, cwd: string, lines: string[], at?: Date): Promise<string> {
  const dir = join(qhome, 'projects', encodeQwenCwd(cwd), 'chats');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${id}.jsonl`);
  await writeFile(file, `${lines.join('\n')}\n`);
  if (at) await utimes(file, at, at);
  return file;
}

describe('qwen adapter: facts', () => {
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
    expect(parseQwenChat(await readFile(sampleFile(), 'utf8'))).toEqual({
      sessionId: SAMPLE_ID,
      cwd: '/home/u/proj',
      firstPrompt: 'remember the number 777',
    });
    const rt = parseQwenRuntime(await readFile(sampleFile().replace('.jsonl', '.runtime.json'), 'utf8'));
    expect(rt).toEqual({
      pid: 43190,
      sessionId: SAMPLE_ID,
      workDir: '/home/u/proj',
      startedAt: 1795643224.9,
      version: '0.24.4',
    });
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

  // Unknown ids, bad ids and a missing store: minted-id-adapters.test.ts.
  it('is false for a runtime sidecar alone', async () => {
    const id = '22222222-3333-4444-8555-666666666666';
    const dir = join(qhome, 'projects', '-home-u-proj', 'chats');
    await writeFile(
      join(dir, `${id}.runtime.json`),
      JSON.stringify({ schema_version: 1, pid: 1, session_id: id, work_dir: '/home/u/proj' }),
    );
    expect(await qwenAdapter.exists(id, '/home/u/proj', env)).toBe(false);
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
      {
        sessionId: SAMPLE_ID,
        cwd: '/home/u/proj',
        title: null,
        firstPrompt: 'remember the number 777',
        lastActivity: t0.toISOString(),
      },
    ]);
    expect(await qwenAdapter.listSessions!({ HOME: join(tmp, 'nohome') })).toEqual([]);
  });

  // Re-reading only changed files: minted-id-adapters.test.ts.
  it('reads only the head of a large transcript', async () => {
    const id = '44444444-5555-4666-8777-888888888888';
    const big = Array.from({ length: 3000 }, () =>
      JSON.stringify({ type: 'assistant', message: { parts: [{ text: 'y'.repeat(100) }] } }),
    );
    await addTranscript(id, '/home/u/big', [userLine(id, '/home/u/big', 'first of many'), ...big]);
    expect((await qwenAdapter.listSessions!(env)).find((s) => s.sessionId === id)).toMatchObject({
      firstPrompt: 'first of many',
      cwd: '/home/u/big',
    });
  });
});
