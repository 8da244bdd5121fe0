// Runs survive their server: real `baton serve` processes, the real WebSocket client, the fake Claude Code CLI.
// A run is started, its agents are told numbers, the server goes away (killed or stopped), and a new server
// (same data directory, or an empty one with only the handle) brings every agent back in its own conversation.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView, RunEvent } from '../../shared/contract.js';
import {
  BATON_BIN,
  agentByLabel,
  ask,
  screenText,
  startServer,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';

// ---------- bookkeeping: everything a test starts is stopped and removed, pass or fail ----------

const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
const agentPids = new Set<number>();
const dirs: string[] = [];

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

async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
  const result = await Promise.race([server.exited, timeout]);
  if (result === 'timeout') {
    server.child.kill('SIGKILL');
    return server.exited;
  }
  return result;
}

async function serve(dataDir: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(dataDir, env);
  servers.push(server);
  return server;
}

async function connectTo(server: ServerProcess): Promise<RpcClient> {
  const client = await server.connect();
  clients.push(client);
  return client;
}

/** Signal 0 says whether a pid exists; a zombie nobody has reaped yet has died too. */
function processGone(pid: number): boolean {
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

function scene(): Scene {
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

const QUESTION = 'what number did I ask you to remember';

/** Starts `demo` with agents `one` and `two`, tells each its number, and returns their ids and pids. */
async function startDemo(client: RpcClient, s: Scene): Promise<{ runId: string; one: AgentView; two: AgentView }> {
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
async function expectOwnNumbers(client: RpcClient, oneId: string, twoId: string, s: Scene): Promise<void> {
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
function isSubsequence(types: readonly string[], wanted: readonly string[]): boolean {
  let i = 0;
  for (const t of types) if (t === wanted[i]) i++;
  return i === wanted.length;
}

function expectNoHandleLeak(handle: string, ...places: string[]): void {
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

function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
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

// ---------- the tests ----------

describe('baton serve: runs survive their server', () => {
  it('a run survives a server killed without goodbye and every agent answers from its own conversation after resume', async () => {
    const s = scene();
    const first = await serve(s.data, s.env);
    const c1 = await connectTo(first);
    const { runId, one, two } = await startDemo(c1, s);

    await c1.call('run.snapshot', { run: 'demo' });
    const { handle } = await c1.call('run.handle', { run: 'demo' });
    expect(handle.startsWith('baton1.')).toBe(true);

    const before = await c1.call('run.get', { run: 'demo' });
    expect(before.id).toBe(runId);
    const pids = before.agents.map((x) => x.pid);
    expect(pids.every((p): p is number => typeof p === 'number' && p > 0)).toBe(true);
    for (const pid of pids as number[]) agentPids.add(pid);

    // No goodbye: no quit snapshot, no stop. The agents lose their terminal and die of SIGHUP.
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitFor(() => (pids as number[]).every(processGone), 'the agents of the killed server to die');

    const second = await serve(s.data, s.env);
    const c2 = await connectTo(second);

    const runs = await c2.call('run.list', {});
    expect(runs.map((r) => r.name)).toEqual(['demo']);
    expect(runs[0]!.id).toBe(runId);
    expect(runs[0]!.liveAgents).toBe(0);

    // The last snapshot still shows what each agent was told.
    const shots = await c2.call('run.screens', { run: 'demo' });
    expect(shots.screens).toHaveLength(2);
    const shotOne = shots.screens.find((x) => x.agentId === one.id);
    const shotTwo = shots.screens.find((x) => x.agentId === two.id);
    expect(shotOne?.label).toBe('one');
    expect(shotTwo?.label).toBe('two');
    expect(shotOne!.text).toContain(`remember the number ${s.a}`);
    expect(shotOne!.text).not.toContain(`remember the number ${s.b}`);
    expect(shotTwo!.text).toContain(`remember the number ${s.b}`);
    expect(shotTwo!.text).not.toContain(`remember the number ${s.a}`);

    const resumed = await c2.call('run.resume', { handle });
    expect(resumed.run.id).toBe(runId);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome])).toEqual([
      ['one', 'resumed'],
      ['two', 'resumed'],
    ]);
    for (const agent of resumed.run.agents) if (agent.pid !== null) agentPids.add(agent.pid);

    await expectOwnNumbers(c2, one.id, two.id, s);

    const after = await c2.call('run.get', { run: 'demo' });
    expect(after.id).toBe(runId);
    expect(after.agents.map((x) => x.id).sort()).toEqual([one.id, two.id].sort());
    expect((await c2.call('run.list', {})).map((r) => r.id)).toEqual([runId]);

    const events = await c2.call('run.events', { run: runId });
    const types = events.map((e: RunEvent) => e.type);
    expect(isSubsequence(types, ['started', 'snapshot', 'resumed']), types.join(', ')).toBe(true);

    expectNoHandleLeak(handle, JSON.stringify(events));
  });

  it('a handle alone resumes the run on a fresh install', async () => {
    const s = scene();
    const first = await serve(s.data, s.env);
    const c1 = await connectTo(first);
    const { runId, one, two } = await startDemo(c1, s);
    const { handle } = await c1.call('run.handle', { run: 'demo' });

    c1.close();
    expect(await stopServer(first)).toEqual({ code: 0, signal: null });

    // Same HOME (the vendor's transcripts live there), nothing of Baton's.
    const freshData = join(s.data, '..', 'data-fresh-install');
    const second = await serve(freshData, s.env);
    const c2 = await connectTo(second);
    expect(await c2.call('run.list', {})).toEqual([]);

    const resumed = await c2.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => o.outcome)).toEqual(['resumed', 'resumed']);
    expect(resumed.run.name).toBe('demo');
    for (const agent of resumed.run.agents) if (agent.pid !== null) agentPids.add(agent.pid);

    const runs = await c2.call('run.list', {});
    expect(runs.map((r) => r.name)).toEqual(['demo']);
    expect(runs[0]!.id).toBe(runId);
    expect(runs[0]!.liveAgents).toBe(2);

    const newOne = agentByLabel(resumed.run.agents, 'one');
    const newTwo = agentByLabel(resumed.run.agents, 'two');
    expect(newOne.cwd).toBe(one.cwd);
    expect(newTwo.cwd).toBe(two.cwd);
    await expectOwnNumbers(c2, newOne.id, newTwo.id, s);

    expectNoHandleLeak(handle, JSON.stringify(await c2.call('run.events', { run: 'demo' })));
  });

  it('an agent whose vendor session is gone comes back fresh with a visible warning while the others resume', async () => {
    const s = scene();
    const first = await serve(s.data, s.env);
    const c1 = await connectTo(first);
    const { one, two } = await startDemo(c1, s);

    // Baton has seen each transcript on disk (the session is confirmed), as it would well before a user quits.
    const seen = await waitFor(async () => {
      const run = await c1.call('run.get', { run: 'demo' });
      return run.agents.every((x) => x.sessionIds.at(-1)?.confirmed === true) ? run : undefined;
    }, 'both sessions confirmed');
    const sessionTwo = agentByLabel(seen.agents, 'two').sessionId;
    const sessionOne = agentByLabel(seen.agents, 'one').sessionId;
    expect(sessionTwo).toMatch(/^[0-9a-f-]{36}$/);

    await c1.call('run.snapshot', { run: 'demo' });
    const { handle } = await c1.call('run.handle', { run: 'demo' });
    c1.close();
    expect(await stopServer(first)).toEqual({ code: 0, signal: null });

    // The user (or a cleanup) deletes `two`'s conversation from the vendor's store.
    const projects = join(s.home, '.claude', 'projects');
    const transcriptsOf = (id: string | null) =>
      readdirSync(projects)
        .map((d) => join(projects, d, `${id}.jsonl`))
        .filter((p) => existsSync(p));
    const doomed = transcriptsOf(sessionTwo);
    expect(doomed).toHaveLength(1);
    unlinkSync(doomed[0]!);
    expect(transcriptsOf(sessionOne)).toHaveLength(1);

    const second = await serve(s.data, s.env);
    const c2 = await connectTo(second);
    const warnings: { agentId: string; message: string }[] = [];
    c2.on('agent.warning', (w) => warnings.push(w));

    const resumed = await c2.call('run.resume', { handle });
    for (const agent of resumed.run.agents) if (agent.pid !== null) agentPids.add(agent.pid);
    const outOne = resumed.outcomes.find((o) => o.label === 'one');
    const outTwo = resumed.outcomes.find((o) => o.label === 'two');
    expect(outOne?.outcome).toBe('resumed');
    expect(outOne?.message).toBeNull();
    expect(outTwo?.outcome).toBe('fresh');
    expect(outTwo?.message).toEqual(expect.stringContaining('fresh'));
    expect(outTwo?.sessionId).not.toBe(sessionTwo);

    // The warning is in `two`'s pane, in its view and as a live event; `one` has none.
    await waitFor(async () => {
      const text = await screenText(c2, two.id);
      return text.split('\n').some((line) => line.includes('baton:') && line.includes('fresh'));
    }, "the fresh-fallback warning on two's screen");
    expect(await screenText(c2, one.id)).not.toContain('baton:');
    const after = await c2.call('run.get', { run: 'demo' });
    expect(agentByLabel(after.agents, 'two').warning).toEqual(expect.stringContaining('fresh'));
    expect(agentByLabel(after.agents, 'one').warning).toBeNull();
    await waitFor(
      () => warnings.some((w) => w.agentId === two.id && w.message.includes('fresh')),
      'an agent.warning event for two',
    );
    expect(warnings.filter((w) => w.agentId === one.id)).toEqual([]);

    const events = await c2.call('run.events', { run: 'demo' });
    const fallbacks = events.filter((e) => e.type === 'fresh-fallback');
    expect(fallbacks.map((e) => e.agentId)).toEqual([two.id]);

    // `two` starts over; `one` still remembers.
    const textTwo = await ask(c2, two.id, QUESTION, 'I do not know any number.');
    expect(textTwo).not.toContain(`The number is ${s.b}`);
    const textOne = await ask(c2, one.id, QUESTION, `The number is ${s.a}.`);
    expect(textOne).not.toContain(`The number is ${s.b}`);

    expectNoHandleLeak(handle, JSON.stringify(events));
  });

  it('resume of a run already in the history continues its own handle-less path', async () => {
    const s = scene();
    const server = await serve(s.data, s.env);
    const client = await connectTo(server);
    const { runId, one, two } = await startDemo(client, s);
    await client.call('run.snapshot', { run: 'demo' });

    // `baton handle demo` prints the handle and nothing else.
    const printed = await runCli(['handle', 'demo', '--data-dir', s.data], s.env);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stderr).toBe('');
    const lines = printed.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const handle = lines[0]!;
    expect(handle).toMatch(/^baton1\.[A-Za-z0-9_-]+$/);
    expect(printed.stdout).toBe(`${handle}\n`);

    // The agents end (as after a reboot); the run stays in the history.
    const stopped = await client.call('run.stop', { run: 'demo' });
    expect(stopped.agents.every((x) => x.pid === null)).toBe(true);

    // The handle travels on standard input, never on the command line.
    const resumed = await runCli(['resume', '--data-dir', s.data], s.env, `${handle}\n`);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.argv.join(' ')).not.toContain(handle);
    const out = resumed.stdout.split('\n');
    expect(out).toContain(`run 'demo'`);
    expect(out).toContain('one (claude): resumed');
    expect(out).toContain('two (claude): resumed');
    expect(resumed.stdout + resumed.stderr).not.toContain(handle);

    // Still the one run, with its own history, and each agent in its own conversation.
    const runs = await client.call('run.list', {});
    expect(runs.map((r) => r.id)).toEqual([runId]);
    expect(runs[0]!.liveAgents).toBe(2);
    const run = await client.call('run.get', { run: 'demo' });
    expect(run.id).toBe(runId);
    for (const agent of run.agents) if (agent.pid !== null) agentPids.add(agent.pid);
    await expectOwnNumbers(client, one.id, two.id, s);

    const events = await client.call('run.events', { run: 'demo' });
    const types = events.map((e) => e.type);
    expect(isSubsequence(types, ['started', 'snapshot', 'stopped', 'resumed']), types.join(', ')).toBe(true);
    expect(types.filter((t) => t === 'started')).toHaveLength(1);

    expectNoHandleLeak(handle, JSON.stringify(events));
  });
});
