// The web transport of a real `baton serve` once connected: bad messages answered, detach stopping a stream,
// BATON_TOKEN honoured or refused when weak, and a non-loopback --host refused unless allowed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { connect } from '../../electron/cli/connect.js';
import { weakTokenReason } from '../../electron/core/transport/auth.js';
import { BATON_BIN, ROOT, startServer, testEnv, waitFor } from '../helpers/server.js';
import { get, upgrade, inbox, root, server, useWebServer } from './web-transport-helpers.js';

useWebServer();

describe('bad messages on a valid connection', () => {
  it('an unknown method, a malformed request and bad params are answered, and the connection stays usable', async () => {
    const outcome = await upgrade(server, '', { Authorization: `Bearer ${server.token}` });
    if (outcome.kind !== 'open') throw new Error(`could not connect: ${JSON.stringify(outcome)}`);
    const ws = outcome.ws;
    const box = inbox(ws);
    // (Text that is not JSON has no id to answer: it closes the socket with 1007, see bad-input.test.ts.)
    box.send('{"t":"req","id":1,"method":"nope","params":{}}');
    const unknown = await box.reply(1);
    expect(unknown).toMatchObject({ t: 'res', id: 1, ok: false, error: { code: 'invalid' } });
    expect(String((unknown['error'] as { message: string }).message)).toMatch(/unknown method/);
    // JSON but not a request: answered with the id it carries.
    box.send('{"t":"req","id":2,"method":42}');
    expect(await box.reply(2)).toMatchObject({
      t: 'res',
      id: 2,
      ok: false,
      error: { code: 'invalid', message: 'malformed message' },
    });
    // A known method with bad params: a field-level error.
    box.send('{"t":"req","id":3,"method":"run.get","params":{"run":""}}');
    expect(await box.reply(3)).toMatchObject({ t: 'res', id: 3, ok: false, error: { code: 'invalid', field: 'run' } });
    // The same connection still works, and so does the server.
    box.send('{"t":"req","id":4,"method":"host.info","params":{}}');
    expect(await box.reply(4)).toMatchObject({ t: 'res', id: 4, ok: true });
    expect(box.messages.filter((m) => m['t'] === 'res').map((m) => m['id'])).toEqual([1, 2, 3, 4]);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    expect(server.child.exitCode).toBeNull();
    const client = await server.connect();
    expect((await client.call('host.info', {})).dataDir).toBe(server.dataDir);
    client.close();
  });
});

describe('agent.detach', () => {
  it("stops that agent's output to that client; the agent and other clients carry on", async () => {
    const proj = join(root, 'detach-proj');
    mkdirSync(proj, { recursive: true });
    const client = await server.connect();
    const run = await client.call('run.start', { name: 'detach', agents: [{ vendor: 'shell', cwd: proj }] });
    const agentId = run.agents[0]!.id;
    const open = async () => {
      const outcome = await upgrade(server, '', { Authorization: `Bearer ${server.token}` });
      if (outcome.kind !== 'open') throw new Error(`could not connect: ${JSON.stringify(outcome)}`);
      const box = inbox(outcome.ws);
      /** Everything the socket received of the agent's output, decoded. */
      const output = () =>
        Buffer.concat(
          box.messages.filter((m) => m['t'] === 'frame' && m['stream'] === 7).map((m) => m['data'] as Uint8Array),
        ).toString();
      return { ws: outcome.ws, box, output };
    };
    const leaving = await open();
    const staying = await open();
    leaving.box.send(JSON.stringify({ t: 'req', id: 1, method: 'agent.attach', params: { agentId, stream: 7 } }));
    staying.box.send(JSON.stringify({ t: 'req', id: 1, method: 'agent.attach', params: { agentId, stream: 7 } }));
    expect(await leaving.box.reply(1)).toMatchObject({ ok: true });
    expect(await staying.box.reply(1)).toMatchObject({ ok: true });

    await client.call('agent.write', { agentId, data: 'echo before-$((20 + 1))\r' });
    await waitFor(
      () => leaving.output().includes('before-21') && staying.output().includes('before-21'),
      'the output on both sockets',
    );

    leaving.box.send(JSON.stringify({ t: 'req', id: 2, method: 'agent.detach', params: { agentId } }));
    expect(await leaving.box.reply(2)).toMatchObject({ ok: true, result: {} });
    await client.call('agent.write', { agentId, data: 'echo after-$((40 + 2))\r' });
    await waitFor(() => staying.output().includes('after-42'), 'the output after the detach on the other socket');
    await waitFor(
      async () => (await client.call('agent.screen', { agentId })).text.includes('after-42'),
      'the agent screen',
    );
    // A round trip on the detached socket: anything sent to it before this reply has arrived.
    leaving.box.send(JSON.stringify({ t: 'req', id: 3, method: 'run.list', params: {} }));
    await leaving.box.reply(3);
    expect(leaving.output()).not.toContain('after-42');

    leaving.ws.close();
    staying.ws.close();
    await client.call('run.stop', { run: 'detach' });
    client.close();
  });
});

describe('BATON_TOKEN', () => {
  it('a 43-character BATON_TOKEN is the token the server uses, and agents do not see it', async () => {
    const token = 'Kx7_vQ2-mZ9pL4sT8wN1cR6yB3hF5jD0gA2eU7iO9kM';
    expect(token).toHaveLength(43);
    const dir = join(root, 'env-token');
    const proj = join(dir, 'proj');
    mkdirSync(proj, { recursive: true });
    const own = await startServer(join(dir, 'data'), testEnv(join(dir, 'home'), { BATON_TOKEN: token }));
    try {
      expect(own.token).toBe(token);
      expect(JSON.parse(readFileSync(join(own.dataDir, 'server.json'), 'utf8')).token).toBe(token);
      expect(own.output()).toContain(`${own.url}/#token=${token}`);
      const viaEnv = await connect({ url: own.url, token });
      const run = await viaEnv.call('run.start', {
        name: 'env',
        agents: [
          { vendor: 'shell', cwd: proj, command: ['/bin/sh', '-c', 'echo "seen=[${BATON_TOKEN:-none}]"; sleep 30'] },
        ],
      });
      const screen = await waitFor(async () => {
        const s = await viaEnv.call('agent.screen', { agentId: run.agents[0]!.id });
        return s.text.includes('seen=[') ? s.text : undefined;
      }, 'the shell agent to print');
      expect(screen).toContain('seen=[none]');
      viaEnv.close();
      await expect(connect({ url: own.url, token: server.token })).rejects.toThrow(/401/);
    } finally {
      own.child.kill('SIGTERM');
      await own.exited;
    }
  });

  it('weak tokens are refused by rule: short, repetitive, one kind of character, or not printable ASCII', () => {
    for (const weak of [
      'short-token-123',
      'a'.repeat(64),
      'abcdefghijklmnopqrstuvwxyz',
      'abababababababababababababababab',
      `${'Kx7_vQ2-mZ9pL4sT8wN1cR6yB3h'} spaced`,
      'Kx7_vQ2-mZ9pL4sT8wN1cR6yB3hé',
    ]) {
      expect(weakTokenReason(weak), weak).toMatch(/BATON_TOKEN must be at least 22 printable ASCII characters/);
    }
    // What generators make passes: 32 hex digits (128 bits), base64url of 16 or 32 bytes, base64 with + / =.
    for (const strong of [
      '3f9a0c7e51b2d846a1e9f0c3b57d2e84',
      'q3Zr0-Xa9_LmB2cVt7YwKe',
      'Kx7_vQ2-mZ9pL4sT8wN1cR6yB3hF5jD0gA2eU7iO9kM',
      'u+8Yq/2LmZ0vT7xW1cR6yB3hF5jD0gA2eU7iO9kMpQ4=',
    ]) {
      expect(weakTokenReason(strong), strong).toBeNull();
    }
  });

  for (const [what, token] of [
    ['shorter than 22 characters', 'short-token-123'],
    ['of one repeated character', 'x'.repeat(40)],
  ] as const) {
    it(`a BATON_TOKEN ${what} makes \`baton serve\` exit non-zero with the rule, never the token`, async () => {
      const dataDir = join(root, `weak-${token.length}`);
      const { exit, out, err } = await serveOnce(['--data-dir', dataDir], { BATON_TOKEN: token });
      expect(exit.signal).toBeNull();
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(err).toMatch(
        /BATON_TOKEN must be at least 22 printable ASCII characters without spaces, with at least 10 different characters and an estimated 128 bits/,
      );
      expect(err.includes(token)).toBe(false);
      expect(out).not.toMatch(/Open http/);
      expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    });
  }
});

/** Runs `baton serve` with these arguments until it exits by itself. */
async function serveOnce(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BATON_BIN, 'serve', '--port', '0', ...args], {
    env: testEnv(join(root, 'once-home'), env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { exit, out, err };
}

describe('--host other than loopback', () => {
  it('is refused, naming the SSH tunnel and --allow-remote', async () => {
    const dataDir = join(root, 'remote-refused');
    const { exit, out, err } = await serveOnce(['--host', '0.0.0.0', '--data-dir', dataDir]);
    expect(exit.code).toBe(1);
    expect(err).toMatch(/refusing to serve on 0\.0\.0\.0: it is not a loopback address/);
    expect(err).toMatch(/ssh -L 8080:127\.0\.0\.1:8080/);
    expect(err).toMatch(/--allow-remote/);
    expect(out).not.toMatch(/Open http/);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
  });

  it('with allowRemote, serves with a plaintext warning on stderr', async () => {
    const dataDir = join(root, 'remote-allowed');
    const serveJs = pathToFileURL(join(ROOT, 'dist', 'electron', 'serve.js')).href;
    const script = `const { serve } = await import(${JSON.stringify(serveJs)}); await serve({ host: '0.0.0.0', port: 0, dataDir: process.argv[1], allowRemote: true });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], {
      env: testEnv(join(root, 'remote-home')),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const port = await waitFor(
        () => /Open http:\/\/0\.0\.0\.0:(\d+)\/#token=/.exec(output)?.[1],
        'the server to listen',
      );
      expect(output).toMatch(/WARNING: serving on 0\.0\.0\.0 \(--allow-remote\): the traffic is plain HTTP/);
      expect(output).toMatch(new RegExp(`ssh -L ${port}:127\\.0\\.0\\.1:${port}`));
      const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { token: string };
      expect(
        output
          .split('\n')
          .filter((l) => l.includes('WARNING'))
          .join('\n'),
      ).not.toContain(info.token);
      // Reached through the loopback interface, it answers like any Baton.
      expect((await get({ url: `http://127.0.0.1:${port}` }, '/', { Host: `127.0.0.1:${port}` })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
