// A watched refresh (docs/search.md §4) over a real temp HOME: after the first, full pass, the vendors' folders are
// watched and a refresh stats only the paths seen changing: an appended line is found, a new project folder (and a
// vendor folder that appears later) is picked up, a deleted transcript is forgotten, without stat'ing the rest.
import { appendFile, cp, mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchEngine } from '../../electron/core/search/engine.js';
import type { RefreshCounts } from '../../electron/core/search/indexer.js';
import { transcriptSources } from '../../electron/core/vendors/registry.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
const CLAUDE_ID = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
const NEW_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const CLAUDE_FILE = `.claude/projects/-home-u-proj/${CLAUDE_ID}.jsonl`;

let home: string;
let engine: SearchEngine;
const env = () => ({ HOME: home });
const noProgress = () => undefined;
const claudeLine = (text: string, sessionId = CLAUDE_ID) =>
  `${JSON.stringify({ type: 'user', cwd: '/home/u/proj', sessionId, timestamp: '2026-11-26T08:00:00.000Z', message: { role: 'user', content: text } })}\n`;
const sessionsFound = (text: string) =>
  engine.query({ text, limit: 50 }).results.map((r) => `${r.vendor}:${r.sessionId}`);

/**
 * Watched refreshes until `done` holds (file events arrive a moment after the write); the passes made. Gives up
 * after 200 passes, which the assertions after it then report.
 */
async function refreshUntil(done: () => boolean): Promise<RefreshCounts[]> {
  const passes: RefreshCounts[] = [];
  for (let i = 0; i < 200 && !done(); i++) {
    passes.push(await engine.refresh(env(), noProgress, true));
    if (!done()) await new Promise((r) => setTimeout(r, 10));
  }
  return passes;
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-search-watch-'));
  for (const v of ['claude', 'qwen', 'copilot']) await cp(join(SAMPLES, v), home, { recursive: true });
  engine = await SearchEngine.open(null, transcriptSources());
  const first = await engine.refresh(env(), noProgress, true);
  expect(first.full).toBe(true);
  expect(engine.status.files).toBe(3);
});
afterEach(async () => {
  engine.close();
  await rm(home, { recursive: true, force: true });
});

describe('watched search refresh', () => {
  it('finds a line appended after the index was built, stat-ing only that transcript', async () => {
    const line = claudeLine('the zebrafish pipeline is flaky');
    await appendFile(join(home, CLAUDE_FILE), line);
    const passes = await refreshUntil(() => sessionsFound('zebrafish').length > 0);
    expect(sessionsFound('zebrafish')).toEqual([`claude:${CLAUDE_ID}`]);
    expect(passes.every((p) => !p.full)).toBe(true);
    const reading = passes.find((p) => p.changed > 0)!;
    expect(reading).toMatchObject({ files: 1, changed: 1, bytesRead: line.length });
    // Nothing changed since: a watched refresh stats and reads nothing.
    expect(await engine.refresh(env(), noProgress, true)).toMatchObject({ full: false, files: 0, bytesRead: 0 });
  });

  it('picks up a project folder created later, and one nested a level deeper', async () => {
    await mkdir(join(home, '.claude/projects/-home-u-later'));
    await writeFile(join(home, `.claude/projects/-home-u-later/${NEW_ID}.jsonl`), claudeLine('quokka sighted', NEW_ID));
    await mkdir(join(home, '.qwen/projects/-home-u-later/chats'), { recursive: true });
    const qwenLine = { type: 'user', cwd: '/home/u/later', message: { parts: [{ text: 'quokka again' }] } };
    await writeFile(join(home, `.qwen/projects/-home-u-later/chats/${NEW_ID}.jsonl`), `${JSON.stringify(qwenLine)}\n`);
    const passes = await refreshUntil(() => sessionsFound('quokka').length === 2);
    expect(sessionsFound('quokka').sort()).toEqual([`claude:${NEW_ID}`, `qwen:${NEW_ID}`]);
    expect(passes.every((p) => !p.full)).toBe(true);
    expect(engine.status.files).toBe(5);

    // A line appended to the new folder's transcript is seen too: the folder is watched now.
    await appendFile(join(home, `.claude/projects/-home-u-later/${NEW_ID}.jsonl`), claudeLine('wombat', NEW_ID));
    expect((await refreshUntil(() => sessionsFound('wombat').length > 0)).every((p) => !p.full)).toBe(true);
    expect(sessionsFound('wombat')).toEqual([`claude:${NEW_ID}`]);
  });

  it('forgets a deleted transcript', async () => {
    expect(sessionsFound('777')).toContain(`claude:${CLAUDE_ID}`);
    await unlink(join(home, CLAUDE_FILE));
    // (A query already skips a hit whose file is gone; the index itself must forget it.)
    const passes = await refreshUntil(() => engine.status.files === 2);
    expect(engine.status.files).toBe(2);
    expect(sessionsFound('777')).not.toContain(`claude:${CLAUDE_ID}`);
    expect(passes.every((p) => !p.full)).toBe(true);
    expect(passes.some((p) => p.removed === 1)).toBe(true);
  });

  it("watches a vendor's folder again after it was removed and made again", async () => {
    await rm(join(home, '.claude/projects'), { recursive: true });
    await refreshUntil(() => engine.status.files === 2);
    expect(engine.status.files).toBe(2);
    await mkdir(join(home, '.claude/projects/-home-u-again'), { recursive: true });
    await writeFile(join(home, `.claude/projects/-home-u-again/${NEW_ID}.jsonl`), claudeLine('axolotl', NEW_ID));
    expect((await engine.refresh(env(), noProgress, true)).full).toBe(true);
    expect(sessionsFound('axolotl')).toEqual([`claude:${NEW_ID}`]);
    await appendFile(join(home, `.claude/projects/-home-u-again/${NEW_ID}.jsonl`), claudeLine('capybara', NEW_ID));
    expect((await refreshUntil(() => sessionsFound('capybara').length > 0)).every((p) => !p.full)).toBe(true);
    expect(sessionsFound('capybara')).toEqual([`claude:${NEW_ID}`]);
  });

  it("reads a vendor's folder that appears after the start with a full pass, then watches it", async () => {
    await cp(join(SAMPLES, 'codex'), home, { recursive: true });
    const next = await engine.refresh(env(), noProgress, true);
    expect(next.full).toBe(true);
    expect(engine.status.files).toBe(4);
  });
});
