// The search engine over a real temp HOME (Claude's and Qwen's formats): a refresh reads only what changed, finds
// appended text, forgets deleted transcripts, re-reads a rewritten one, filters, and survives a save and reopen.
import { appendFile, cp, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchEngine } from '../../electron/core/search/engine.js';
import { transcriptSources } from '../../electron/core/vendors/registry.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
const CLAUDE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
const CLAUDE_FILE = `.claude/projects/-home-u-proj/${CLAUDE_ID}.jsonl`;
const QWEN_ID = '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a';

let home: string;
let engine: SearchEngine;
const env = () => ({ HOME: home });
const noProgress = () => undefined;
const claudeLine = (text: string, role: 'user' | 'assistant' = 'user') =>
  `${JSON.stringify({ type: role, cwd: '/home/u/proj', sessionId: CLAUDE_ID, timestamp: '2026-11-26T08:00:00.000Z', message: { role, content: text } })}\n`;
const sessionsFound = (text: string, extra: Partial<Parameters<SearchEngine['query']>[0]> = {}) =>
  engine.query({ text, limit: 50, ...extra }).results.map((r) => `${r.vendor}:${r.sessionId}`);

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-search-index-'));
  for (const v of ['claude', 'qwen']) await cp(join(SAMPLES, v), home, { recursive: true });
  engine = await SearchEngine.open(join(home, 'index.sqlite'), transcriptSources());
  await engine.refresh(env(), noProgress);
});
afterEach(async () => {
  engine.close();
  await rm(home, { recursive: true, force: true });
});

describe('search index', () => {
  it('finds a word in every vendor that said it, with the matching line highlighted', () => {
    const found = engine.query({ text: '777', limit: 50 });
    expect(found.results.map((r) => r.vendor).sort()).toEqual(['claude', 'qwen']);
    const claude = found.results.find((r) => r.vendor === 'claude')!;
    expect(claude.cwd).toBe('/home/u/proj');
    const line = claude.hits.flatMap((h) => h.lines).find((l) => l.text === 'remember the number 777')!;
    expect(line.match).toEqual([[20, 23]]);
  });

  it('a refresh reads only the lines appended since the last one, and finds their words', async () => {
    await appendFile(join(home, CLAUDE_FILE), claudeLine('the zebrafish pipeline is flaky'));
    const counts = await engine.refresh(env(), noProgress);
    expect(counts.changed).toBe(1);
    expect(counts.bytesRead).toBe(claudeLine('the zebrafish pipeline is flaky').length);
    expect(sessionsFound('zebrafish')).toEqual([`claude:${CLAUDE_ID}`]);
    // An unchanged store reads nothing.
    expect((await engine.refresh(env(), noProgress)).bytesRead).toBe(0);
  });

  it('a line still being written is read once it is whole', async () => {
    const line = claudeLine('half written okapi');
    await appendFile(join(home, CLAUDE_FILE), line.slice(0, 30));
    await engine.refresh(env(), noProgress);
    expect(sessionsFound('okapi')).toEqual([]);
    await appendFile(join(home, CLAUDE_FILE), line.slice(30));
    await engine.refresh(env(), noProgress);
    expect(sessionsFound('okapi')).toEqual([`claude:${CLAUDE_ID}`]);
  });

  it('forgets a deleted transcript and re-reads one that was rewritten shorter', async () => {
    await unlink(join(home, '.qwen/projects/-home-u-proj/chats', `${QWEN_ID}.jsonl`));
    await writeFile(join(home, CLAUDE_FILE), claudeLine('only narwhal now'));
    const counts = await engine.refresh(env(), noProgress);
    expect(counts.removed).toBe(1);
    expect(sessionsFound('777')).toEqual([]);
    expect(sessionsFound('narwhal')).toEqual([`claude:${CLAUDE_ID}`]);
    expect(engine.status.files).toBe(1);
  });

  it('filters by vendor, by session and by directory', () => {
    expect(sessionsFound('777', { vendor: 'qwen' })).toEqual([`qwen:${QWEN_ID}`]);
    expect(sessionsFound('777', { sessions: [{ vendor: 'claude', sessionId: CLAUDE_ID }] })).toEqual([
      `claude:${CLAUDE_ID}`,
    ]);
    expect(sessionsFound('777', { dir: '/home/u' })).toHaveLength(2);
    expect(sessionsFound('777', { dir: '/home/u/pro' })).toEqual([]);
  });

  it('phrases must appear in that order', () => {
    expect(sessionsFound('"the number 777"')).toHaveLength(2);
    expect(sessionsFound('"777 number the"')).toEqual([]);
  });

  it('opens the transcript at a hit, as user and assistant turns', () => {
    const hit = engine.query({ text: 'what number', limit: 5, vendor: 'claude' }).results[0]!.hits[0]!;
    const t = engine.transcript('claude', CLAUDE_ID, hit.messageId)!;
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(t.focus).toBe(2);
    expect(t.messages[t.focus!]!.text).toBe('what number did I ask you to remember?');
  });

  it('finds words across full-text shards, newest first', async () => {
    engine.close();
    engine = await SearchEngine.open(null, transcriptSources(), { shardMessages: 3 });
    const lines = Array.from({ length: 10 }, (_, i) => claudeLine(`walrus number ${i}`)).join('');
    await appendFile(join(home, CLAUDE_FILE), lines);
    await engine.refresh(env(), noProgress);
    const found = engine.query({ text: 'walrus', limit: 5 });
    expect(found.results).toHaveLength(1);
    const hits = found.results[0]!;
    expect(hits.hits.map((h) => h.lines[0]!.text)).toEqual(['walrus number 9', 'walrus number 8', 'walrus number 7']);
    expect(hits.moreHits).toBe(7);
    expect(engine.query({ text: 'walrus 2', limit: 5 }).results[0]!.hits.map((h) => h.lines[0]!.text)).toEqual([
      'walrus number 2',
    ]);
  });

  it('rebuilds itself once most of what it holds is gone', async () => {
    const big = join(home, '.claude/projects/-home-u-proj/11111111-2222-4333-8444-555555555555.jsonl');
    await writeFile(big, Array.from({ length: 20 }, (_, i) => claudeLine(`gone ${i}`)).join(''));
    await engine.refresh(env(), noProgress);
    const before = engine.status.messages;
    await unlink(big);
    await engine.refresh(env(), noProgress); // forgets the file: its postings are orphans now
    expect(engine.status.messages).toBe(before - 20);
    const counts = await engine.refresh(env(), noProgress); // most postings orphaned: built again from the files
    expect(counts.changed).toBe(2);
    expect(sessionsFound('gone')).toEqual([]);
    expect(sessionsFound('777')).toHaveLength(2);
  });

  it('is saved and reopened without reading the transcripts again', async () => {
    expect(engine.save()).toBe(true);
    engine.close();
    engine = await SearchEngine.open(join(home, 'index.sqlite'), transcriptSources());
    expect(engine.status.files).toBe(2);
    expect(sessionsFound('777')).toHaveLength(2);
    expect((await engine.refresh(env(), noProgress)).bytesRead).toBe(0);
  });
});
