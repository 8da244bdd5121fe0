// The cli-*.test.ts files' shared parts: the real `node bin/baton.js` run as a user runs it (stdout, stderr, the
// exit code), the checks on what it printed, handles from a stranger's machine, and scratch machines in temp dirs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pty from 'node-pty';
import { afterAll, expect } from 'vitest';
import { BATON_BIN } from '../helpers/server.js';
import { tempMachine, type TempMachine } from '../helpers/temp-machine.js';

// Every command a user can type, as the README lists them; the overall usage must list exactly these.
export const COMMANDS = [
  'serve',
  'ls',
  'start',
  'send',
  'screen',
  'changes',
  'merge',
  'snapshot',
  'handle',
  'inspect',
  'resume',
  'resume-interrupted',
  'search',
  'fork',
  'export',
  'import',
  'events',
  'cost',
  'rename',
  'stop',
  'delete',
  'worktrees',
  'hosts',
  'connect',
  'hook',
  'help',
];

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  stdin: string | Buffer = '',
): Promise<CliResult> {
  // Detached: a session of its own, with no controlling terminal, as on CI. `baton resume` asks on /dev/tty
  // when there is one, and must not find the terminal of whoever runs the tests.
  const child = spawn(process.execPath, [BATON_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // The command stops reading an input too large to be a handle: the rest of our write then meets a closed pipe.
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`baton ${args.join(' ')} did not finish within 30 s:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A failure as the README promises it: exit 1, one line `baton: <message>` on stderr, no stack trace. */
export function expectFailure(result: CliResult, message: string | RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr.endsWith('\n') && result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr.startsWith('baton: '), result.stderr).toBe(true);
  expect(result.stderr).toMatch(typeof message === 'string' ? new RegExp(escapeRegExp(message)) : message);
}

/** A usage error: `baton <command>: <message>`, then that command's own usage, exit 2, nothing on stdout. */
export function expectUsageError(result: CliResult, command: string, message: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^baton ${command}: `));
  expect(result.stderr.split('\n')[0]).toMatch(message);
  expect(result.stderr).toContain(`\nusage: baton ${command}`);
  expect(result.stderr).toContain('example:');
}

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A handle of a run no store has seen: a new run id and new agent ids. */
export function strangerHandle(
  name: string,
  agents: { label: string; vendor: string; sessionId: string | null; cwd: string }[],
): string {
  const id = (prefix: string) => `${prefix}_${Array.from(randomBytes(16), (b) => (b % 36).toString(36)).join('')}`;
  const body = {
    v: 1,
    run: { name, id: id('run') },
    createdAt: new Date().toISOString(),
    agents: agents.map((a) => ({ id: id('agt'), ...a })),
  };
  return `baton1.${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}`;
}

/**
 * `baton resume < file` with a terminal: the command runs in a PTY (its controlling terminal), standard input is
 * the file, and `answer` is typed at the terminal once the question shows.
 */
export function resumeAtTerminal(
  args: readonly string[],
  env: Record<string, string>,
  handleFile: string,
  answer: string,
): Promise<{ code: number; output: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `exec ${[process.execPath, BATON_BIN, 'resume', ...args].map(quote).join(' ')} < ${quote(handleFile)}`;
  const term = pty.spawn('/bin/sh', ['-c', command], { env, cols: 200, rows: 50, name: 'xterm' });
  let output = '';
  let answered = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      term.kill('SIGKILL');
      reject(new Error(`baton resume at a terminal did not finish within 30 s:\n${output}`));
    }, 30_000);
    term.onData((d) => {
      output += d;
      if (!answered && output.includes('[y/N] ')) {
        answered = true;
        term.write(`${answer}\r`);
      }
    });
    term.onExit(({ exitCode }) => {
      clearTimeout(timer);
      resolve({ code: exitCode, output });
    });
  });
}

const dirs: string[] = [];
export function useScratchMachines(): void {
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

export function scratch(): TempMachine {
  const machine = tempMachine('baton-cli-');
  dirs.push(machine.root);
  return machine;
}
