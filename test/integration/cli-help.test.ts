// The `baton` command line as a user runs it: the real `node bin/baton.js` against a real `baton serve` on a temp
// data directory. What is checked is what the user sees (stdout, stderr, the exit code) and what the server holds
// afterwards (the run still there, still running, not renamed, not typed into).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';
import { COMMANDS, runCli, useScratchMachines, scratch } from './cli-helpers.js';

useScratchMachines();

describe('baton help and usage, with no server at all', () => {
  const { root, env } = scratch();
  // A data directory with no server: a command that tried to connect would fail (exit 1) instead of helping.
  const noServer = ['--data-dir', join(root, 'no-server-here')];

  it('baton with no arguments prints the usage on stderr and exits 2', async () => {
    const result = await runCli([], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^usage: baton <command>/);
  });

  it('baton --help, baton -h and baton help print the overall usage, listing every command, on stdout', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await runCli(args, env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^usage: baton <command>/);
      const listed = result.stdout
        .split('\n')
        .filter((line) => /^ {2}[a-z]/.test(line))
        .map((line) => line.trim().split(' ')[0]);
      expect(listed).toEqual(COMMANDS);
    }
  });

  it("baton --version prints the package's version on stdout, and the usage says so", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`baton ${version}\n`);
    expect((await runCli(['help'], env)).stdout).toContain('`baton --version` prints');
  });

  it('every command answers --help, -h and `baton help <command>` with its own usage, and does nothing else', async () => {
    // 26 commands × 3 forms, each a Node start: four at a time, so a busy machine does not run out the limit.
    const pending = [...COMMANDS];
    const checkNext = async (): Promise<void> => {
      const command = pending.shift();
      if (command === undefined) return;
      await checkHelp(command);
      await checkNext();
    };
    await Promise.all([checkNext(), checkNext(), checkNext(), checkNext()]);

    async function checkHelp(command: string): Promise<void> {
      const viaHelp = await runCli(['help', command], env);
      expect(viaHelp.code, viaHelp.stderr).toBe(0);
      expect(viaHelp.stdout).toMatch(new RegExp(`^usage: baton ${command}\\b`));
      expect(viaHelp.stdout).toContain('\noptions:\n');
      expect(viaHelp.stdout).toContain('-h, --help');
      expect(viaHelp.stdout).toContain(`\nexample:\n  baton ${command}`);
      // After arguments that would otherwise act, anywhere before `--`.
      for (const args of [
        [command, 'demo', '--help', ...noServer],
        [command, '-h', 'demo', 'planner', ...noServer],
      ]) {
        const result = await runCli(args, env);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
        expect(result.stderr).toBe('');
        expect(result.stdout).toBe(viaHelp.stdout);
      }
    }
  });

  it('an unknown command is a usage error followed by the overall usage', async () => {
    for (const args of [['frobnicate'], ['help', 'frobnicate']]) {
      const result = await runCli(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^baton: unknown command 'frobnicate'\n/);
      expect(result.stderr).toContain('usage: baton <command>');
    }
  });
});
