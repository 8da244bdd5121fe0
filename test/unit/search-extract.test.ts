// Search's text extraction per vendor, over the vendors' own transcript formats (test/fixtures/vendor-samples): each
// source lists its store's files and reads the user and assistant messages, with the directory and session id.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VendorName } from '../../shared/words.js';
import { readMessages } from '../../electron/core/search/snippets.js';
import { transcriptSources } from '../../electron/core/vendors/registry.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
const SEARCHED: VendorName[] = ['claude', 'codex', 'gemini', 'copilot', 'qwen'];
const EXPECTED: Record<string, { sessionId: string | null; said: string[] }> = {
  claude: {
    sessionId: '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b',
    said: ['user: remember the number 777', "assistant: Got it — I'll remember 777."],
  },
  codex: {
    sessionId: '019abcde-1234-7def-8abc-0123456789ab',
    said: ['user: remember the number 777', 'assistant: Noted: 777.'],
  },
  gemini: { sessionId: null, said: ['user: remember the number 777', "assistant: Okay, I'll remember 777."] },
  copilot: {
    sessionId: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
    said: ['user: remember the number 777', 'assistant: Noted — 777.'],
  },
  qwen: {
    sessionId: '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a',
    said: ['user: remember the number 777', 'assistant: Okay — 777 noted.'],
  },
};

let home: string;
const sources = transcriptSources();

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-search-extract-'));
  for (const v of SEARCHED) await cp(join(SAMPLES, v), home, { recursive: true });
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('transcript sources', () => {
  it('cover the vendors whose stores are JSON Lines', () => {
    expect([...sources.keys()].sort()).toEqual([...SEARCHED].sort());
  });

  for (const vendor of SEARCHED) {
    it(`${vendor}: finds the transcript and reads what user and assistant said, in order`, async () => {
      const source = sources.get(vendor)!;
      const files = await source.files({ HOME: home });
      expect(files).toHaveLength(1);
      expect(files[0]!.sessionId).toBe(EXPECTED[vendor]!.sessionId);
      const messages = readMessages(files[0]!.path, source).map((m) => `${m.role}: ${m.text}`);
      expect(messages.slice(0, 2)).toEqual(EXPECTED[vendor]!.said);
      expect(messages).toHaveLength(4);
      expect(messages[2]).toBe('user: what number did I ask you to remember?');
    });
  }

  it('codex: leaves out the context Codex injects as a user message and the event copies of each turn', async () => {
    const source = sources.get('codex')!;
    const [file] = await source.files({ HOME: home });
    const texts = readMessages(file!.path, source).map((m) => m.text);
    expect(texts.some((t) => t?.includes('environment_context'))).toBe(false);
    expect(texts.filter((t) => t === 'remember the number 777')).toHaveLength(1);
  });

  it('gemini: the session id and directory come from the first line and the project marker', async () => {
    const source = sources.get('gemini')!;
    const [file] = await source.files({ HOME: home });
    expect(file!.cwd).not.toBeNull();
    expect(source.line({ sessionId: '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b', kind: 'main' })).toEqual({
      sessionId: '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b',
    });
  });

  it('claude: tool calls, tool results and side chains are not messages', () => {
    const claude = sources.get('claude')!;
    expect(claude.line({ type: 'user', message: { content: [{ type: 'tool_result', content: 'x' }] } })).toBeNull();
    expect(claude.line({ type: 'assistant', message: { content: [{ type: 'tool_use', name: 'Bash' }] } })).toBeNull();
    expect(claude.line({ type: 'user', isSidechain: true, message: { content: 'hidden' } })).toBeNull();
    expect(claude.line({ type: 'user', cwd: '/p', message: { content: 'shown' } })).toEqual({
      role: 'user',
      text: 'shown',
      cwd: '/p',
    });
  });
});
