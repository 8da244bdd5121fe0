// The fake Gemini, Copilot and Qwen CLIs of test/fakes answer like the real ones (versions; bad, reused and unknown
// session ids: the real texts and exit codes), and the adapters recognise those answers.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { FAKES, waitFor } from '../helpers/server.js';
import { WAIT_MS, useServedCleanup, runFake, rejected, type Scene } from '../helpers/served-vendors.js';
import { copilotAdapter, geminiAdapter, qwenAdapter, QUESTION, scene, type Vendor } from './vendors-idfirst-cases.js';

useServedCleanup();

// ---------- the fakes print the real error texts and exit codes, and the adapters recognise them ----------

describe('the fake CLIs answer like the real ones', () => {
  const run = (vendor: Vendor, args: string[], s: Scene) => runFake(`${vendor}.mjs`, args, s);

  it('gemini: version, unknown and reused ids (exit 42)', () => {
    const s = scene();
    expect(run('gemini', ['--version'], s)).toEqual({ code: 0, out: '0.61.0\n' });
    const none = run('gemini', ['-p', 'hi', '--resume', randomUUID()], s);
    expect(none.code).toBe(42);
    expect(none.out).toContain('No previous sessions found for this project');
    expect(rejected(geminiAdapter, none.out)).toBe(true);

    const id = randomUUID();
    expect(run('gemini', ['-p', 'remember the number 31', '--session-id', id], s)).toEqual({
      code: 0,
      out: 'OK, I will remember 31.\n',
    });
    const unknown = run('gemini', ['-p', 'hi', '--resume', 'nosuchname'], s);
    expect(unknown.code).toBe(42);
    expect(unknown.out).toContain('Error resuming session: Invalid session identifier "nosuchname".');
    expect(unknown.out).toContain(`Searched for sessions in ${join(s.home, '.gemini', 'tmp', 'work', 'chats')}.`);
    expect(rejected(geminiAdapter, unknown.out)).toBe(true);
    const reused = run('gemini', ['-p', 'hi', '--session-id', id], s);
    expect(reused.code).toBe(42);
    expect(reused.out).toContain(
      `Error starting session: Session ID "${id}" already exists. Use --resume to resume it, or provide a different ID.`,
    );
    expect(rejected(geminiAdapter, reused.out)).toBe(true);
    expect(run('gemini', ['-p', QUESTION, '--resume', id], s)).toEqual({ code: 0, out: 'The number is 31.\n' });
    expect(run('gemini', ['-p', QUESTION, '--resume', 'latest'], s).out).toBe('The number is 31.\n');
  });

  it('copilot: version, bad and unknown ids (exit 1), --session-id of an existing id resumes it', () => {
    const s = scene();
    expect(run('copilot', ['--version'], s).out).toContain('GitHub Copilot CLI 1.0.102.');
    const bad = run('copilot', ['--session-id', 'not-a-uuid'], s);
    expect(bad).toEqual({ code: 1, out: 'The value is not a valid UUID, so a new session cannot be created.\n' });
    const unknown = run('copilot', ['-p', 'hi', '--allow-all-tools', '--resume=nosuch'], s);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain("Error: No session, task, or name matched 'nosuch'.");
    expect(rejected(copilotAdapter, unknown.out)).toBe(true);

    const id = randomUUID();
    expect(
      run('copilot', ['-p', 'remember the number 32', '--allow-all-tools', '--session-id', id, '-n', 'r/one'], s).out,
    ).toContain('OK, I will remember 32.');
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', '--session-id', id], s).out).toContain(
      'The number is 32.',
    );
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', `--resume=${id}`], s).out).toContain(
      'The number is 32.',
    );
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', '--resume=R/ONE'], s).out).toContain(
      'The number is 32.',
    );
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', `--resume=${id.slice(0, 7)}`], s).out).toContain(
      'The number is 32.',
    );
  });

  it('qwen: version, bad, reused and unknown ids (exit 1); a positional prompt is one-shot', () => {
    const s = scene();
    expect(run('qwen', ['--version'], s)).toEqual({ code: 0, out: '0.24.4\n' });
    const bad = run('qwen', ['--session-id', 'x'], s);
    expect(bad).toEqual({
      code: 1,
      out: 'Invalid --session-id: "x". Must be a valid UUID (e.g., "123e4567-e89b-12d3-a456-426614174000").\n',
    });
    const id = randomUUID();
    // One-shot: answers and exits, no TUI.
    expect(run('qwen', ['remember the number 33', '--session-id', id], s)).toEqual({
      code: 0,
      out: 'OK, I will remember 33.\n',
    });
    const reused = run('qwen', ['--session-id', id], s);
    expect(reused.code).toBe(1);
    expect(reused.out).toContain(
      `Error: Session Id ${id} already exists (active or archived). Delete or unarchive it first.`,
    );
    expect(rejected(qwenAdapter, reused.out)).toBe(true);
    const other = randomUUID();
    const unknown = run('qwen', ['--resume', other], s);
    expect(unknown).toEqual({
      code: 1,
      out: `No saved session found with ID ${other}. Run \`qwen --resume\` without an ID to choose from existing sessions.\n`,
    });
    expect(rejected(qwenAdapter, unknown.out)).toBe(true);
    const title = run('qwen', ['--resume', 'nosuchname'], s);
    expect(title).toEqual({ code: 1, out: 'No saved session found with title "nosuchname".\n' });
    expect(run('qwen', ['--session-id', other, '--resume', id], s).code).toBe(1);
    expect(run('qwen', [QUESTION, '--resume', id], s).out).toBe('The number is 33.\n');
  });

  it.each([
    ['gemini', geminiAdapter],
    ['qwen', qwenAdapter],
  ] as const)(
    '%s: Enter right behind the keys is taken as a paste; after submitDelayMs it submits',
    async (vendor, adapter) => {
      const s = scene();
      const term = pty.spawn(process.execPath, [join(FAKES, `${vendor}.mjs`)], {
        name: 'xterm-256color',
        cols: 120,
        rows: 40,
        cwd: s.work,
        env: s.env,
      });
      let out = '';
      term.onData((d) => (out += d));
      try {
        await waitFor(() => out.includes('Type your message'), `${vendor} ready`, WAIT_MS);
        term.write('remember the number 41\r');
        await new Promise((r) => setTimeout(r, adapter.submitDelayMs + 200));
        expect(out).not.toContain('OK, I will remember');
        term.write('\r');
        await waitFor(() => out.includes('OK, I will remember 41.'), `${vendor} to answer`, WAIT_MS);
        term.write('what number');
        // The pause counts from the echo, as agent.send's does: under load the fake reads the keys late.
        await waitFor(() => out.includes('what number'), `${vendor} to echo`, WAIT_MS);
        await new Promise((r) => setTimeout(r, adapter.submitDelayMs));
        term.write('\r');
        await waitFor(() => out.includes('The number is 41.'), `${vendor} to answer again`, WAIT_MS);
      } finally {
        term.kill('SIGKILL');
      }
    },
  );
});
