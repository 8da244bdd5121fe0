// Copies of a transcript for a new id and directory, per vendor (docs/bundles.md §2): the copy lands where that
// vendor's own store reader finds it for the new directory, with the id and the directory moved in every line, cut at
// a whole line; and the directory map of an import.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mapPath } from '../../electron/core/runs/bundle-plan.js';
import { copyTranscript } from '../../electron/core/runs/transcript-copy.js';
import { geminiProjectHash } from '../../electron/core/vendors/gemini/store.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { rewriteTranscript, wholeLinesUpTo } from '../../electron/core/vendors/kit/transcript-rewrite.js';

let tmp: string;
let env: Record<string, string>;
let from: string;
let to: string;

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'baton-tcopy-')));
  env = { HOME: join(tmp, 'home'), TZ: 'UTC' };
  from = join(tmp, 'old', 'proj');
  to = join(tmp, 'new place', 'proj');
  mkdirSync(from, { recursive: true });
  mkdirSync(to, { recursive: true });
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** A transcript of `id` in `cwd` in each vendor's own shape (the fields its CLI writes that key on id and cwd). */
function linesFor(vendor: CopyVendor, id: string, cwd: string): object[] {
  switch (vendor) {
    case 'claude':
    case 'qwen':
      return [
        { sessionId: id, cwd, type: 'user', message: { content: 'remember the number 42' } },
        { sessionId: id, cwd, type: 'assistant', message: { content: `edited ${cwd}/a.ts` } },
      ];
    case 'codex':
      return [
        { type: 'session_meta', payload: { id, session_id: id, cwd, source: 'cli' } },
        { type: 'turn_context', payload: { cwd: `${cwd}/src` } },
        { type: 'response_item', payload: { role: 'user', content: [{ text: 'remember the number 42' }] } },
        { type: 'response_item', payload: { role: 'assistant', content: [{ text: `read ${cwd}/a.ts` }] } },
      ];
    case 'gemini':
      return [
        { sessionId: id, projectHash: geminiProjectHash(cwd), startTime: 'x', kind: 'main' },
        { id: 'm1', type: 'user', content: [{ text: 'remember the number 42' }] },
        { id: 'm2', type: 'gemini', content: `read ${cwd}/a.ts` },
      ];
  }
}

const vendors = createVendors();
type CopyVendor = 'claude' | 'qwen' | 'gemini' | 'codex';

describe.each(['claude', 'qwen', 'gemini', 'codex'] as const)('%s transcript copy', (vendor) => {
  it('lands where the store finds it for the new directory, with id and directory moved', async () => {
    const files = vendors.get(vendor)!.transcripts!;
    const id = files.newId();
    const source = await files.placeFor(id, from, env);
    mkdirSync(dirname(source), { recursive: true });
    writeFileSync(
      source,
      linesFor(vendor, id, from)
        .map((l) => JSON.stringify(l) + '\n')
        .join(''),
    );
    expect(await files.locate(id, from, env)).toBe(source);

    const newId = await copyTranscript(files, env, { sessionId: id, cwd: from }, to);
    expect(newId).not.toBeNull();
    expect(newId).not.toBe(id);
    const copy = await files.locate(newId!, to, env);
    expect(copy).not.toBeNull();
    const text = readFileSync(copy!, 'utf8');
    expect(text).not.toContain(id);
    expect(text).not.toContain(from);
    expect(text).toContain(newId);
    expect(text).toContain('remember the number 42');
    if (vendor !== 'gemini') expect(text).toContain(to);
    else expect(text).toContain(geminiProjectHash(to));
    // The source is untouched.
    expect(readFileSync(source, 'utf8')).toContain(id);
  });

  it('cuts at the last whole line before the recorded length', async () => {
    const files = vendors.get(vendor)!.transcripts!;
    const id = files.newId();
    const source = await files.placeFor(id, from, env);
    mkdirSync(dirname(source), { recursive: true });
    const lines = linesFor(vendor, id, from).map((l) => JSON.stringify(l) + '\n');
    writeFileSync(source, lines.join('') + '{"torn":');
    const twoLines = Buffer.byteLength(lines[0]! + lines[1]!);
    const newId = await copyTranscript(files, env, { sessionId: id, cwd: from, cutBytes: twoLines + 3 }, from);
    const copy = readFileSync((await files.locate(newId!, from, env))!, 'utf8');
    expect(copy.trim().split('\n')).toHaveLength(2);
  });
});

describe('a transcript still being written', () => {
  it("waits for the turn's last record: a fork made as the answer shows holds the answer", async () => {
    const files = vendors.get('qwen')!.transcripts!;
    const id = files.newId();
    const source = await files.placeFor(id, from, env);
    mkdirSync(dirname(source), { recursive: true });
    const record = (l: object) => JSON.stringify({ sessionId: id, cwd: from, ...l }) + '\n';
    // As Qwen writes a turn: the answer's text in a telemetry record, the conversation's record a moment later.
    writeFileSync(source, record({ type: 'user', message: { content: 'remember the number 42' } }));
    appendFileSync(source, record({ type: 'system', subtype: 'ui_telemetry', response_text: 'OK, 42.' }));
    const late = new Promise<void>((resolve) =>
      setTimeout(() => {
        appendFileSync(source, record({ type: 'assistant', message: { content: 'OK, 42.' } }));
        resolve();
      }, 120),
    );
    const newId = await copyTranscript(files, env, { sessionId: id, cwd: from }, to);
    await late;
    const copy = readFileSync((await files.locate(newId!, to, env))!, 'utf8');
    expect(
      copy
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { type: string }).type),
    ).toEqual(['user', 'system', 'assistant']);
  });
});

describe('directory map', () => {
  it('maps the longest matching folder, and only whole path components', () => {
    const map = { '/home/a': '/Users/b', '/home/a/work': '/srv/w' };
    expect(mapPath('/home/a', map)).toBe('/Users/b');
    expect(mapPath('/home/a/x/y', map)).toBe('/Users/b/x/y');
    expect(mapPath('/home/a/work/p', map)).toBe('/srv/w/p');
    expect(mapPath('/home/ab', map)).toBe('/home/ab');
  });

  it('moves a directory inside text only as a whole path', () => {
    const remap = { fromId: 'old', toId: 'new', fromCwd: '/a/proj', toCwd: '/b/p' };
    const out = rewriteTranscript(
      JSON.stringify({ id: 'old', t: 'see /a/proj/x.ts and /a/proj2/y and "/a/proj"', keep: 'older' }) + '\n',
      remap,
    );
    expect(JSON.parse(out)).toEqual({ id: 'new', t: 'see /b/p/x.ts and /a/proj2/y and "/b/p"', keep: 'older' });
  });

  it('a cut never keeps a torn line', () => {
    const b = Buffer.from('{"a":1}\n{"b":');
    expect(Buffer.from(wholeLinesUpTo(b)).toString()).toBe('{"a":1}\n');
    expect(wholeLinesUpTo(b, 3).length).toBe(0);
  });
});
