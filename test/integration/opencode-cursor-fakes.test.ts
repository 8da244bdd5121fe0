// The fake opencode and Cursor CLIs of test/fakes answer like the real ones (Cursor: as reported): versions,
// create-chat, unknown sessions and chats with the real texts and exit codes, and the adapters recognise them.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServedCleanup, runFake, rejected } from '../helpers/served-vendors.js';
import { cursorAdapter, opencodeAdapter, UUID, QUESTION, cursorChat, scene } from './opencode-cursor-cases.js';

useServedCleanup();

// ---------- the fake CLIs answer like the real ones (Cursor: as reported), and the adapters recognise them ----------

describe('the fake CLIs answer like the real ones', () => {
  const run = runFake;

  it('opencode: version, and an unknown session (exit 1)', () => {
    const s = scene();
    expect(run('opencode.mjs', ['--version'], s)).toEqual({ code: 0, out: '1.18.33\n' });
    const missing = run('opencode.mjs', ['-s', 'ses_0123456789abZZZZZZZZZZZZZZ'], s);
    expect(missing).toEqual({ code: 1, out: 'Error: Session not found: ses_0123456789abZZZZZZZZZZZZZZ\n' });
    expect(rejected(opencodeAdapter, missing.out)).toBe(true);
  });

  it('cursor: version, create-chat, and an unknown chat (exit 1, one of the reported texts)', () => {
    const s = scene();
    expect(run('cursor-agent.mjs', ['--version'], s)).toEqual({ code: 0, out: '2026.11.20-fake\n' });
    const made = run('cursor-agent.mjs', ['create-chat'], s);
    expect(made.code).toBe(0);
    const id = made.out.trim();
    expect(id).toMatch(UUID);
    expect(JSON.parse(readFileSync(join(cursorChat(s.home, s.work, id), 'meta.json'), 'utf8'))).toMatchObject({
      hasConversation: false,
    });
    const other = randomUUID();
    const missing = run('cursor-agent.mjs', ['--resume', other], s);
    expect(missing).toEqual({ code: 1, out: `Error: chat not found: ${other}\n` });
    expect(rejected(cursorAdapter, missing.out)).toBe(true);
    // Print mode remembers across runs, in the chat create-chat made.
    expect(run('cursor-agent.mjs', ['-p', '--resume', id, 'remember the number 34'], s).out).toBe(
      'OK, I will remember 34.\n',
    );
    expect(run('cursor-agent.mjs', ['-p', `--resume=${id}`, QUESTION], s).out).toBe('The number is 34.\n');
  });
});
