// The background core (`baton serve --socket`), as the desktop app runs it and as the command line reaches it: real
// core processes on a temp data directory, the real `baton` command line, the real WebSocket client over the socket,
// the fake Claude Code CLI. What is checked is what a user relies on: only they can reach the core; agents outlive
// every client; a new client sees exactly the bytes it missed; a killed core's runs are offered back and come back in
// their own conversations; a core restart brings every run back with each agent's outcome.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { PROTOCOL_VERSION } from '../../shared/contract.js';
import { isRunning, listeningTcpInodes, runCli, startCore, stopCore, type CoreProcess } from '../helpers/core.js';
import { agentByLabel, ask, ROOT, screenText, waitFor } from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';

const cores: CoreProcess[] = [];
const clients: RpcClient[] = [];
const pids = new Set<number>();
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(cores.splice(0).map(stopCore));
  for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  pids.clear();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Scene {
  root: string;
  data: string;
  work: string;
  env: Record<string, string>;
}

function scene(): Scene {
  const { root, data, work, env } = tempMachine('baton-bg-');
  dirs.push(root);
  return { root, data, work, env };
}

async function core(s: Scene): Promise<CoreProcess> {
  const c = await startCore(s.data, s.env);
  cores.push(c);
  return c;
}

async function client(c: CoreProcess): Promise<RpcClient> {
  const rpc = await c.connect();
  clients.push(rpc);
  return rpc;
}

const data = (s: Scene) => ['--data-dir', s.data];

async function killCore(c: CoreProcess): Promise<void> {
  c.child.kill('SIGKILL');
  expect(await c.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

/** The claude fake has drawn its prompt (no need before typing: `agent.send` waits for that itself). */
const promptShown = (rpc: RpcClient, agentId: string) =>
  waitFor(async () => (await screenText(rpc, agentId)).includes('? for shortcuts'), `the prompt of ${agentId}`);

/** `demo`: two Claude agents, each told its own number. */
async function startDemo(rpc: RpcClient, s: Scene, numbers: [number, number]) {
  const run = await rpc.call('run.start', {
    name: 'demo',
    agents: [
      { vendor: 'claude', label: 'one', cwd: s.work },
      { vendor: 'claude', label: 'two', cwd: s.work },
    ],
  });
  for (const a of run.agents) if (a.pid) pids.add(a.pid);
  const [one, two] = [agentByLabel(run.agents, 'one'), agentByLabel(run.agents, 'two')];
  await ask(rpc, one.id, `remember the number ${numbers[0]}`, `OK, I will remember ${numbers[0]}.`);
  await ask(rpc, two.id, `remember the number ${numbers[1]}`, `OK, I will remember ${numbers[1]}.`);
  return { run, one, two };
}

async function expectNumbers(rpc: RpcClient, numbers: [number, number]): Promise<void> {
  const run = await rpc.call('run.get', { run: 'demo' });
  const [one, two] = [agentByLabel(run.agents, 'one'), agentByLabel(run.agents, 'two')];
  const textOne = await ask(rpc, one.id, 'what number did I ask you to remember', `The number is ${numbers[0]}.`);
  const textTwo = await ask(rpc, two.id, 'what number did I ask you to remember', `The number is ${numbers[1]}.`);
  expect(textOne).not.toContain(`The number is ${numbers[1]}.`);
  expect(textTwo).not.toContain(`The number is ${numbers[0]}.`);
}

describe('the background core on its socket', () => {
  it('listens only on a socket of its own (0600, in the 0700 data directory), with no TCP port, and the CLI works through it', async () => {
    const s = scene();
    const c = await core(s);
    expect(c.info).toEqual({
      socket: join(s.data, 'core.sock'),
      token: expect.any(String),
      pid: c.child.pid,
      version: expect.any(String),
      protocolVersion: PROTOCOL_VERSION,
    });
    expect(statSync(c.info.socket).isSocket()).toBe(true);
    expect(statSync(c.info.socket).mode & 0o777).toBe(0o600);
    expect(statSync(s.data).mode & 0o777).toBe(0o700);
    expect(statSync(join(s.data, 'server.json')).mode & 0o777).toBe(0o600);
    // None of the core's open sockets is a listening TCP socket.
    const listening = listeningTcpInodes();
    const fds = readdirSync(`/proc/${c.child.pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${c.child.pid}/fd/${fd}`);
      } catch {
        return '';
      }
    });
    const inodes = fds.flatMap((l) => /^socket:\[(\d+)\]$/.exec(l)?.[1] ?? []);
    expect(inodes.length).toBeGreaterThan(0);
    expect(inodes.filter((i) => listening.has(i))).toEqual([]);
    expect(c.output()).not.toContain(c.info.token);

    const empty = await runCli(['ls', ...data(s)], s.env);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toContain('No runs yet');
    expect(empty.stderr).toContain(`0 agents running in the background core (pid ${c.info.pid})`);

    const started = await runCli(['start', 'demo', '--agent', `claude:one@${s.work}`, ...data(s)], s.env);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('one (claude) running');
    const rpc = await client(c);
    const one = agentByLabel((await rpc.call('run.get', { run: 'demo' })).agents, 'one');
    if (one.pid) pids.add(one.pid);
    await promptShown(rpc, one.id);
    const screen = await runCli(['screen', 'demo', 'one', ...data(s)], s.env);
    expect(screen.code, screen.stderr).toBe(0);
    expect(screen.stdout).toContain('? for shortcuts');
    const listed = await runCli(['ls', ...data(s)], s.env);
    expect(listed.stdout).toMatch(/^demo\t1\/1 live\tclaude\t/m);
    expect(listed.stderr).toContain(`1 agent running in the background core (pid ${c.info.pid})`);
  });

  it('keeps every agent running when a client disconnects or its process is killed, and a new client gets exactly the bytes it missed', async () => {
    const s = scene();
    const c = await core(s);
    const rpc = await client(c);
    const run = await rpc.call('run.start', {
      name: 'lines',
      agents: [
        {
          vendor: 'shell',
          label: 'counter',
          cwd: s.work,
          command: [
            '/bin/sh',
            '-c',
            'i=0; while [ $i -lt 300 ]; do i=$((i+1)); echo "line $i"; sleep 0.01; done; sleep 600',
          ],
        },
      ],
    });
    const agent = run.agents[0]!;
    pids.add(agent.pid!);

    // A witness attached from the start sees every byte.
    const witness: Buffer[] = [];
    await rpc.attach(
      agent.id,
      { fromOffset: 0, autoAck: true },
      { onData: (d) => witness.push(Buffer.from(d)), onReset: () => undefined },
    );

    // A first client reads the beginning, then goes away.
    const first = await c.connect();
    let firstBytes = Buffer.alloc(0);
    const stream = await first.attach(
      agent.id,
      { fromOffset: 0, autoAck: true },
      {
        onData: (d) => (firstBytes = Buffer.concat([firstBytes, Buffer.from(d)])),
        onReset: () => undefined,
      },
    );
    await waitFor(() => firstBytes.includes('line 20\r\n'), 'the first client to read line 20');
    const offset = firstBytes.length;
    first.close();

    // A client process killed without goodbye.
    const script = `import { connect } from ${JSON.stringify(join(ROOT, 'dist/electron/cli/connect.js'))};
      const c = await connect({ socket: ${JSON.stringify(c.info.socket)}, token: process.env.TOKEN });
      await c.attach(${JSON.stringify(agent.id)}, { autoAck: true }, { onData() {}, onReset() {} });
      console.log('attached');`;
    const doomed = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...s.env, TOKEN: c.info.token },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let said = '';
    doomed.stdout.on('data', (d: Buffer) => (said += d.toString()));
    await waitFor(() => said.includes('attached'), 'the client process to attach');
    doomed.kill('SIGKILL');

    await waitFor(() => Buffer.concat(witness).includes('line 300\r\n'), 'the agent to print all its lines');
    expect(isRunning(agent.pid!)).toBe(true);
    expect((await rpc.call('run.get', { run: 'lines' })).agents[0]!.status).toBe('running');

    // A new client asks for what it has not seen: exactly the bytes after its offset, nothing more, nothing less.
    const second = await client(c);
    let rest = Buffer.alloc(0);
    await second.attach(
      agent.id,
      { terminalId: stream.terminalId, fromOffset: offset, autoAck: true },
      {
        onData: (d, at) => {
          expect(at).toBe(offset + rest.length);
          rest = Buffer.concat([rest, Buffer.from(d)]);
        },
        onReset: () => {
          throw new Error('a reset instead of the missed bytes');
        },
      },
    );
    const all = Buffer.concat(witness);
    await waitFor(() => offset + rest.length >= all.length, 'the new client to catch up');
    expect(Buffer.concat([firstBytes, rest]).equals(all.subarray(0, offset + rest.length))).toBe(true);
    expect(Buffer.concat([firstBytes, rest]).toString()).toMatch(/line 1\r\n[\s\S]*line 300\r\n/);
  });

  it("refuses a socket or server.json that is a link, another user's, or usable by others; never follows the link", async () => {
    const s = scene();
    const c = await core(s);
    const serverJson = join(s.data, 'server.json');
    const refused = async (message: RegExp) => {
      const r = await runCli(['ls', ...data(s)], s.env);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(c.info.token);
    };

    chmodSync(c.info.socket, 0o666);
    await refused(/may be used by other users \(mode 0666, expected 0600\): refusing it/);
    chmodSync(c.info.socket, 0o600);
    chownSync(c.info.socket, 65534, 65534);
    await refused(/is owned by another user \(uid 65534/);
    chownSync(c.info.socket, 0, 0);
    chownSync(serverJson, 65534, 65534);
    await refused(/server file .* is owned by another user/);
    chownSync(serverJson, 0, 0);
    chmodSync(serverJson, 0o622);
    await refused(/server file .* is writable by other users/);
    chmodSync(serverJson, 0o600);

    // A server.json naming a link to the socket: the link is refused, not followed.
    const link = join(s.data, 'elsewhere.sock');
    symlinkSync(c.info.socket, link);
    writeFileSync(serverJson, JSON.stringify({ ...c.info, socket: link }), { mode: 0o600 });
    await refused(/is a symbolic link: refusing it/);
    writeFileSync(serverJson, JSON.stringify(c.info), { mode: 0o600 });
    expect((await runCli(['ls', ...data(s)], s.env)).code).toBe(0);

    // A core asked to listen on a link refuses too.
    const other = join(s.root, 'other-data');
    mkdirSync(other, { mode: 0o700 });
    symlinkSync(c.info.socket, join(other, 'core.sock'));
    const linked = await runCli(['serve', '--socket', '--data-dir', other], s.env);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toMatch(/the socket path .*core\.sock is a symbolic link/);
    expect(isRunning(c.info.pid)).toBe(true);
  });

  it('refuses to start a second core while one answers, and replaces the socket a killed core left', async () => {
    const s = scene();
    const first = await core(s);
    const second = await runCli(['serve', '--socket', ...data(s)], s.env);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/a Baton core is already running on .*core\.sock/);
    expect(isRunning(first.info.pid)).toBe(true);
    expect((await runCli(['ls', ...data(s)], s.env)).code).toBe(0);

    await killCore(first);
    expect(existsSync(first.info.socket)).toBe(true); // stale: nothing answers there
    const stale = await runCli(['ls', ...data(s)], s.env);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/cannot reach the Baton core on .*core\.sock .*is the core running/);

    const next = await core(s);
    expect(next.info.pid).not.toBe(first.info.pid);
    expect(statSync(next.info.socket).mode & 0o777).toBe(0o600);
    expect((await runCli(['ls', ...data(s)], s.env)).stderr).toContain(`(pid ${next.info.pid})`);
  });
});

describe('runs a core ended without stopping them', () => {
  it('kill -9: the next core lists the runs that were running, and `baton resume-interrupted` brings each agent back in its own conversation', async () => {
    const s = scene();
    const numbers: [number, number] = [
      1000 + Math.floor(Math.random() * 4000),
      5000 + Math.floor(Math.random() * 4000),
    ];
    const first = await core(s);
    const rpc = await client(first);
    await startDemo(rpc, s, numbers);
    // A run stopped before the kill is not "interrupted": it stays stopped.
    await rpc.call('run.start', {
      name: 'done',
      agents: [{ vendor: 'shell', label: 'sh', cwd: s.work, command: ['/bin/sleep', '600'] }],
    });
    await rpc.call('run.stop', { run: 'done' });

    await killCore(first);
    const second = await core(s);
    const rpc2 = await client(second);
    const recovery = await rpc2.call('recovery.get', {});
    expect(recovery.interrupted).toMatchObject({ reason: 'crash', runs: [{ name: 'demo', agents: 2 }] });
    const listed = await runCli(['ls', ...data(s)], s.env);
    expect(listed.stdout).toMatch(/^demo\t0\/2 live/m);
    expect(listed.stderr).toContain(
      '1 run was running when the core last stopped: `baton resume-interrupted` brings it back',
    );

    const resumed = await runCli(['resume-interrupted', ...data(s)], s.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/run 'demo'\n {2}one \(claude\): resumed\n {2}two \(claude\): resumed/);
    await expectNumbers(rpc2, numbers);
    expect((await rpc2.call('run.get', { run: 'done' })).agents[0]!.status).toBe('stopped');

    const after = await rpc2.call('recovery.get', {});
    expect(after.interrupted).toBeNull();
    expect(after.last?.runs.map((r) => [r.name, r.outcomes.map((o) => o.outcome)])).toEqual([
      ['demo', ['resumed', 'resumed']],
    ]);
    const again = await runCli(['resume-interrupted', ...data(s)], s.env);
    expect(again.stderr).toMatch(/nothing left to resume/);
  });

  it('with the setting on, the next core resumes them by itself', async () => {
    const s = scene();
    const numbers: [number, number] = [
      2000 + Math.floor(Math.random() * 3000),
      6000 + Math.floor(Math.random() * 3000),
    ];
    const first = await core(s);
    const rpc = await client(first);
    expect(await rpc.call('settings.set', { resumeInterruptedOnStart: true })).toEqual({
      quitAction: 'ask',
      resumeInterruptedOnStart: true,
    });
    await startDemo(rpc, s, numbers);
    await killCore(first);

    const second = await core(s);
    const rpc2 = await client(second);
    const last = await waitFor(
      async () => (await rpc2.call('recovery.get', {})).last ?? undefined,
      'the interrupted runs to be resumed',
    );
    expect(last.runs.map((r) => [r.name, r.outcomes.map((o) => `${o.label}: ${o.outcome}`)])).toEqual([
      ['demo', ['one: resumed', 'two: resumed']],
    ]);
    await expectNumbers(rpc2, numbers);
  });

  it('a core restart (core.shutdown with resumeOnStart, as a newer app asks of an older core) snapshots, stops, and the next core resumes every run with outcomes', async () => {
    const s = scene();
    const numbers: [number, number] = [
      1000 + Math.floor(Math.random() * 4000),
      5000 + Math.floor(Math.random() * 4000),
    ];
    const first = await core(s);
    const rpc = await client(first);
    const { one, two } = await startDemo(rpc, s, numbers);
    await rpc.call('run.start', {
      name: 'shell',
      agents: [{ vendor: 'shell', label: 'sh', cwd: s.work, command: ['/bin/sleep', '600'] }],
    });
    const shellPid = (await rpc.call('run.get', { run: 'shell' })).agents[0]!.pid!;
    pids.add(shellPid);
    expect((await rpc.call('core.info', {})).liveAgents).toBe(3);

    expect(await rpc.call('core.shutdown', { resumeOnStart: true })).toEqual({ liveRuns: 2 });
    expect(await first.exited).toEqual({ code: 0, signal: null });
    for (const pid of [one.pid!, two.pid!, shellPid]) expect(isRunning(pid)).toBe(false);
    expect(existsSync(join(s.data, 'server.json'))).toBe(false);

    const second = await core(s);
    const rpc2 = await client(second);
    const events = await rpc2.call('run.events', { run: 'demo' });
    expect(events.some((e) => e.type === 'snapshot' && e.message?.startsWith('snapshot (quit)'))).toBe(true);
    const last = await waitFor(
      async () => (await rpc2.call('recovery.get', {})).last ?? undefined,
      'the new core to resume every run',
    );
    const outcomes = Object.fromEntries(
      last.runs.map((r) => [r.name, r.outcomes.map((o) => `${o.label}: ${o.outcome}`)]),
    );
    expect(outcomes).toEqual({ demo: ['one: resumed', 'two: resumed'], shell: ['sh: fresh'] });
    expect(last.runs.find((r) => r.name === 'shell')!.outcomes[0]!.message).toMatch(
      /a shell has no conversation to resume/,
    );
    expect((await rpc2.call('core.info', {})).liveAgents).toBe(3);
    await expectNumbers(rpc2, numbers);
  });
});
