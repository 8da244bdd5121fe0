// The background core (`baton serve --socket`), as the desktop app runs it and as the command line reaches it: real
// core processes on a temp data directory, the real `baton` command line, the real WebSocket client over the socket,
// the fake Claude Code CLI. What is checked is what a user relies on: only they can reach the core; agents outlive
// every client; a new client sees exactly the bytes it missed.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/contract.js';
import { isRunning, listeningTcpInodes, runCli } from '../helpers/core.js';
import { agentByLabel, ROOT, waitFor } from '../helpers/server.js';
import { pids, useCoreCleanup, scene, core, client, data, killCore, promptShown } from './background-core-scene.js';

useCoreCleanup();

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
