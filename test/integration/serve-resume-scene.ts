// serve-resume.test.ts's scene: real `baton serve` processes on a temp machine with the fake Claude Code CLI, the run
// `demo` of two agents each told its own number, the `baton` command line as a user runs it, and the checks that each
// agent answers from its own conversation and that no handle leaks; everything a test starts is stopped and removed.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView } from '../../shared/contract.js';
import { BATON_BIN, agentByLabel, ask, startServer, type ServerProcess } from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';

// ---------- bookkeeping: everything a test starts is stopped and removed, pass or fail ----------

const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
export const agentPids = new Set<number>();
const dirs: string[] = [];

export function useServeResumeCleanup(): void {
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await Promise.all(servers.splice(0).map((s) => stopServer(s)));
    // Agents of a killed server die of SIGHUP; should one have outlived a failed test, end it by its pid.
    for (const pid of agentPids) {
      if (!processGone(pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    agentPids.clear();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
  const result = await Promise.race([server.exited, timeout]);
  if (result === 'timeout') {
    server.child.kill('SIGKILL');
    return server.exited;
  }
  return result;
}

export async function serve(dataDir: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(dataDir, env);
  servers.push(server);
  return server;
}

export async function connectTo(server: ServerProcess): Promise<RpcClient> {
  const client = await server.connect();
  clients.push(client);
  return client;
}

/** Signal 0 says whether a pid exists; a zombie nobody has reaped yet has died too. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

// ---------- the scene every test starts from ----------

interface Scene {
  home: string;
  data: string;
  dirOne: string;
  dirTwo: string;
  env: Record<string, string>;
  /** Two different 3-digit numbers, one per agent. */
  a: number;
  b: number;
}

export function scene(): Scene {
  const { root, home, data, env } = tempMachine('baton-serve-resume-');
  dirs.push(root);
  const dirOne = join(root, 'work-one');
  const dirTwo = join(root, 'work-two');
  for (const d of [dirOne, dirTwo]) mkdirSync(d, { recursive: true });
  const a = 100 + Math.floor(Math.random() * 900);
  let b = a;
  while (b === a) b = 100 + Math.floor(Math.random() * 900);
  return { home, data, dirOne, dirTwo, env, a, b };
}

export const QUESTION = 'what number did I ask you to remember';

/** Starts `demo` with agents `one` and `two`, tells each its number, and returns their ids and pids. */
export async function startDemo(
  client: RpcClient,
  s: Scene,
): Promise<{ runId: string; one: AgentView; two: AgentView }> {
  const run = await client.call('run.start', {
    name: 'demo',
    agents: [
      { vendor: 'claude', label: 'one', cwd: s.dirOne },
      { vendor: 'claude', label: 'two', cwd: s.dirTwo },
    ],
  });
  const one = agentByLabel(run.agents, 'one');
  const two = agentByLabel(run.agents, 'two');
  for (const agent of [one, two]) {
    expect(agent.status).toBe('running');
    if (agent.pid !== null) agentPids.add(agent.pid);
  }
  await Promise.all([
    ask(client, one.id, `remember the number ${s.a}`, `OK, I will remember ${s.a}.`),
    ask(client, two.id, `remember the number ${s.b}`, `OK, I will remember ${s.b}.`),
  ]);
  return { runId: run.id, one, two };
}

/** Each agent, asked for its number, gives its own and never the other's. */
export async function expectOwnNumbers(client: RpcClient, oneId: string, twoId: string, s: Scene): Promise<void> {
  const [textOne, textTwo] = await Promise.all([
    ask(client, oneId, QUESTION, `The number is ${s.a}.`),
    ask(client, twoId, QUESTION, `The number is ${s.b}.`),
  ]);
  expect(textOne).not.toContain(`The number is ${s.b}`);
  expect(textOne).not.toContain(`remember the number ${s.b}`);
  expect(textTwo).not.toContain(`The number is ${s.a}`);
  expect(textTwo).not.toContain(`remember the number ${s.a}`);
}

/** `wanted` appears in `types` in this order (other events may come between). */
export function isSubsequence(types: readonly string[], wanted: readonly string[]): boolean {
  let i = 0;
  for (const t of types) if (t === wanted[i]) i++;
  return i === wanted.length;
}

export function expectNoHandleLeak(handle: string, ...places: string[]): void {
  for (const server of servers) expect(server.output()).not.toContain(handle);
  for (const text of places) expect(text).not.toContain(handle);
}

// ---------- the `baton` command line as a user runs it ----------

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  argv: string[];
}

export function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  const argv = [BATON_BIN, ...args];
  const child = spawn(process.execPath, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`baton ${args.join(' ')} did not finish:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, argv });
    });
  });
}
