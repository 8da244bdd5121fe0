// A real `baton serve` process on a temp data directory, and clients connected to it over the real WebSocket.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RpcClient } from '../../shared/client.js';
import type { AgentView } from '../../shared/contract.js';
import { connect } from '../../electron/cli/connect.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BATON_BIN = join(ROOT, 'bin', 'baton.js');
export const FAKES = join(ROOT, 'test', 'fakes');

/** Every directory `tempDir` made in this process, removed when its test file ends (test/helpers/temp-cleanup.ts). */
const madeDirs = new Set<string>();

export function tempDir(prefix = 'baton-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

/**
 * Removes what `tempDir` made. Without it every run of the suite left its temp directories behind — a remote host's
 * installed core alone is ~140 MB — and repeated runs filled the disk (76 GB of them were found on a CI machine).
 */
export function removeTempDirs(): void {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  madeDirs.clear();
}

/** The environment every agent of a test sees: a temp HOME and the fake vendor CLIs. */
export function testEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(home, { recursive: true });
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    BATON_CLAUDE_BIN: join(FAKES, 'claude.mjs'),
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    ...extra,
  };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  connect(): Promise<RpcClient>;
  /** Exit code (or signal) once the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startServer(
  dataDir: string,
  env: Record<string, string>,
  extraArgs: string[] = [],
  /** Another build's bin/baton.js (a bench's A/B of two builds). */
  bin = BATON_BIN,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir, ...extraArgs], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const serverJson = join(dataDir, 'server.json');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const m = /Open (http:\/\/[^/\s]+)\/[?#]token=(\S+)/.exec(output);
    if (m && existsSync(serverJson)) {
      const info = JSON.parse(readFileSync(serverJson, 'utf8')) as { url: string; token: string };
      return {
        child,
        url: info.url,
        token: info.token,
        dataDir,
        output: () => output,
        connect: () => connect({ url: info.url, token: info.token }),
        exited,
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      // Never leave a half-started server (and whatever it spawned) behind a failed test.
      if (child.exitCode === null) child.kill('SIGKILL');
      throw new Error(`baton serve did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls until `probe` returns a truthy value. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The agent's screen and scrollback tail as plain text, from the core's mirror. */
export async function screenText(client: RpcClient, agentId: string): Promise<string> {
  return (await client.call('agent.screen', { agentId })).text;
}

/** Types a prompt into an agent (agent.send: text, the vendor's pause, Enter) and waits until its screen shows `expected`. */
export async function ask(
  client: RpcClient,
  agentId: string,
  text: string,
  expected: RegExp | string,
  ms = 15_000,
): Promise<string> {
  await client.call('agent.send', { agentId, text });
  return waitFor(
    async () => {
      const text = await screenText(client, agentId);
      return (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) ? text : undefined;
    },
    `'${String(expected)}' on the screen of ${agentId}`,
    ms,
  );
}

export function agentByLabel(agents: readonly AgentView[], label: string): AgentView {
  const agent = agents.find((x) => x.label === label);
  if (!agent) throw new Error(`no agent '${label}' among ${agents.map((x) => x.label).join(', ')}`);
  return agent;
}

/** A 4-digit number to remember, different from `not`. */
export function randomNumber(not: readonly number[] = []): number {
  for (;;) {
    const n = 1000 + Math.floor(Math.random() * 9000);
    if (!not.includes(n)) return n;
  }
}
