// The web transport of a real `baton serve`: the token on HTTP and on the WebSocket upgrade, foreign Origin and
// Host refused (DNS rebinding), bad messages answered rather than crashing, and BATON_TOKEN honoured or refused.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../electron/cli/connect.js';
import { BATON_BIN, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET to the server's own address, with whatever headers (Host included) the test chooses. */
function get(server: ServerProcess, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

type UpgradeOutcome = { kind: 'open'; ws: WebSocket } | { kind: 'refused'; status: number } | { kind: 'error'; message: string };

function upgrade(server: ServerProcess, query: string, headers: Record<string, string> = {}): Promise<UpgradeOutcome> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws${query}`, { headers });
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ kind: 'open', ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ kind: 'refused', status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (err) => resolve({ kind: 'error', message: err.message }));
  });
}

/** Sends raw text on an open socket and collects the JSON messages that come back. */
function inbox(ws: WebSocket) {
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  return {
    messages,
    send: (text: string) => ws.send(text),
    async reply(id: number): Promise<Record<string, unknown>> {
      return waitFor(() => messages.find((m) => m['t'] === 'res' && m['id'] === id), `the reply to request ${id}`, 5000);
    },
  };
}

let root: string;
let server: ServerProcess;

beforeAll(async () => {
  root = realpathSync(tempDir('baton-web-'));
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
});

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('HTTP: the dashboard behind the token', () => {
  it('GET / without a token is 401', async () => {
    const res = await get(server, '/');
    expect(res.status).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('GET / with a wrong token is 401', async () => {
    const wrong = `${server.token.slice(0, -1)}${server.token.endsWith('A') ? 'B' : 'A'}`;
    expect((await get(server, `/?token=${wrong}`)).status).toBe(401);
    expect((await get(server, '/', { Authorization: `Bearer ${wrong}` })).status).toBe(401);
    expect((await get(server, '/', { Cookie: `baton_token=${wrong}` })).status).toBe(401);
  });

  it('GET /?token=<right> is 200 and sets a cookie; the cookie alone then opens GET /', async () => {
    const res = await get(server, `/?token=${server.token}`);
    expect(res.status).toBe(200);
    const setCookie = res.headers['set-cookie'];
    expect(setCookie).toBeDefined();
    const cookie = setCookie![0]!;
    expect(cookie).toMatch(/^baton_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const pair = cookie.split(';')[0]!;
    const again = await get(server, '/', { Cookie: pair });
    expect(again.status).toBe(200);
    expect(again.body).toMatch(/<html/i);
    // The token never shows in the page itself.
    expect(again.body.includes(server.token)).toBe(false);
  });

  it('a foreign Origin with the right token is 403', async () => {
    const res = await get(server, `/?token=${server.token}`, { Origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    // Lookalikes of our own origin are foreign too; our own origin is let in.
    const { port } = new URL(server.url);
    for (const origin of ['null', `https://127.0.0.1:${port}`, `http://127.0.0.1.evil.example:${port}`, `http://127.0.0.1:${Number(port) + 1}`]) {
      expect((await get(server, `/?token=${server.token}`, { Origin: origin })).status, origin).toBe(403);
    }
    expect((await get(server, `/?token=${server.token}`, { Origin: server.url })).status).toBe(200);
  });

  it('a foreign Host (DNS rebinding) with the right token is 403', async () => {
    const { port } = new URL(server.url);
    const res = await get(server, `/?token=${server.token}`, { Host: `evil.example:${port}` });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    // Sanity: the same request naming the bound address is let in.
    expect((await get(server, `/?token=${server.token}`, { Host: `127.0.0.1:${port}` })).status).toBe(200);
  });
});

describe('WebSocket upgrade to /ws behind the token', () => {
  it('no token: refused with 401', async () => {
    expect(await upgrade(server, '')).toEqual({ kind: 'refused', status: 401 });
  });

  it('wrong token: refused with 401', async () => {
    expect(await upgrade(server, '?token=not-the-token-at-all-0123456789')).toEqual({ kind: 'refused', status: 401 });
    expect(await upgrade(server, '', { Authorization: 'Bearer not-the-token-at-all-0123456789' })).toEqual({ kind: 'refused', status: 401 });
  });

  it('right token (query, bearer or cookie): open', async () => {
    for (const [query, headers] of [
      [`?token=${server.token}`, {}],
      ['', { Authorization: `Bearer ${server.token}` }],
      ['', { Cookie: `baton_token=${encodeURIComponent(server.token)}` }],
    ] as const) {
      const outcome = await upgrade(server, query, headers);
      expect(outcome.kind).toBe('open');
      if (outcome.kind === 'open') outcome.ws.close();
    }
  });

  it('foreign Origin with the right token: refused with 403', async () => {
    expect(await upgrade(server, `?token=${server.token}`, { Origin: 'http://evil.example' })).toEqual({ kind: 'refused', status: 403 });
  });

  it('foreign Host with the right token: refused with 403', async () => {
    const { port } = new URL(server.url);
    expect(await upgrade(server, `?token=${server.token}`, { Host: `evil.example:${port}` })).toEqual({ kind: 'refused', status: 403 });
  });

  it('a path other than /ws is not upgraded', async () => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/other?token=${server.token}`);
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => resolve('open'));
      ws.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
      ws.once('error', () => resolve('error'));
    });
    ws.terminate();
    expect(outcome).not.toBe('open');
  });
});

describe('bad messages on a valid connection', () => {
  it('malformed JSON, an unknown method and a malformed request are answered (or ignored), never a crash', async () => {
    const outcome = await upgrade(server, `?token=${server.token}`);
    if (outcome.kind !== 'open') throw new Error(`could not connect: ${JSON.stringify(outcome)}`);
    const ws = outcome.ws;
    const box = inbox(ws);
    // Not JSON: there is no request id to answer, so nothing comes back, and the connection stays usable.
    box.send('{"t":"req","id":1,');
    box.send('not json at all');
    box.send('{"t":"req","id":1,"method":"nope","params":{}}');
    const unknown = await box.reply(1);
    expect(unknown).toMatchObject({ t: 'res', id: 1, ok: false, error: { code: 'invalid' } });
    expect(String((unknown['error'] as { message: string }).message)).toMatch(/unknown method/);
    // JSON but not a request: answered with the id it carries.
    box.send('{"t":"req","id":2,"method":42}');
    expect(await box.reply(2)).toMatchObject({ t: 'res', id: 2, ok: false, error: { code: 'invalid', message: 'malformed message' } });
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
      expect(own.output()).toContain(`?token=${token}`);
      const viaEnv = await connect({ url: own.url, token });
      const run = await viaEnv.call('run.start', {
        name: 'env',
        agents: [{ vendor: 'shell', cwd: proj, command: ['/bin/sh', '-c', 'echo "seen=[${BATON_TOKEN:-none}]"; sleep 30'] }],
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

  it('a BATON_TOKEN shorter than 22 characters makes `baton serve` exit non-zero with a clear message', async () => {
    const dataDir = join(root, 'short-token');
    const child = spawn(process.execPath, [BATON_BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
      env: testEnv(join(root, 'short-home'), { BATON_TOKEN: 'short-token-123' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    expect(exit.signal).toBeNull();
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(err).toMatch(/BATON_TOKEN must be at least 22 characters/);
    expect(err.includes('short-token-123')).toBe(false);
    expect(out).not.toMatch(/Open http/);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
  });
});
