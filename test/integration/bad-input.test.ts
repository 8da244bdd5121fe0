// Bad input on every channel of a real `baton serve` (raw HTTP, the WebSocket upgrade, WebSocket messages) is answered
// with a clear refusal, and afterwards the server is alive, still serves the dashboard, and a shell agent started
// before the attack still answers. Then a seeded fuzz of each channel, with the server's memory checked after it.
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from '../../electron/cli/connect.js';
import type { CoreHost } from '../../electron/core/host.js';
import { startWebServer } from '../../electron/core/transport/http-server.js';
import { BatonError } from '../../shared/contract.js';
import type { RpcClient } from '../../shared/client.js';
import { fuzzHttp, fuzzSocket, rawExchange, statusOf } from '../helpers/fuzz.js';
import { ask, randomNumber, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

let root: string;
let server: ServerProcess;
let client: RpcClient;
let agentId: string;
let port: number;
let hostHeader: string;

beforeAll(async () => {
  root = realpathSync(tempDir('baton-bad-input-'));
  const proj = join(root, 'proj');
  mkdirSync(proj, { recursive: true });
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  port = Number(new URL(server.url).port);
  hostHeader = `127.0.0.1:${port}`;
  client = await server.connect();
  const run = await client.call('run.start', { name: 'target', agents: [{ vendor: 'shell', label: 'sh', cwd: proj }] });
  agentId = run.agents[0]!.id;
  await stillServing();
});

afterAll(async () => {
  client?.close();
  await endServerAndRemove(server, root);
});

/** The server process runs, serves the dashboard, and the agent started before the attacks still computes. */
async function stillServing(): Promise<void> {
  expect(server.child.exitCode, server.output()).toBeNull();
  const page = await rawExchange(port, `GET / HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`);
  expect(statusOf(page)).toBe(200);
  expect(page).toMatch(/<html/i);
  const n = randomNumber();
  await ask(client, agentId, `echo $((${n} + 1))`, new RegExp(`^${n + 1}$`, 'm'));
}

/** A GET of `target` with our own Host and whatever extra header lines, as raw bytes. */
const rawGet = (target: string, extra: string[] = []) =>
  rawExchange(
    port,
    [`GET ${target} HTTP/1.1`, `Host: ${hostHeader}`, 'Connection: close', ...extra, '', ''].join('\r\n'),
  );

const UPGRADE = [
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
];

const bodyOf = (reply: string) => reply.slice(reply.indexOf('\r\n\r\n') + 4);

describe('HTTP', () => {
  it('a token cookie that does not decode (`baton_token=%`) is ignored: there is no cookie auth, the page is served', async () => {
    const reply = await rawGet('/', ['Cookie: baton_token=%']);
    expect(statusOf(reply)).toBe(200);
    expect(reply).not.toMatch(/^Set-Cookie:/im);
    await stillServing();
  });

  it('an absolute-form target that does not parse (`GET http://[`) is a 400 with a reason', async () => {
    const reply = await rawGet('http://[');
    expect(statusOf(reply)).toBe(400);
    expect(bodyOf(reply)).toMatch(/request target must be a path/);
    // A well-formed absolute form names nothing here either: Baton is no proxy.
    expect(statusOf(await rawGet(`http://${hostHeader}/`))).toBe(400);
    await stillServing();
  });

  it('a `%` that does not decode in a file path is a 400, not an unhandled rejection', async () => {
    for (const target of ['/%', '/assets/%E0%A4%A', '/%zz.js']) {
      const reply = await rawGet(target);
      expect(statusOf(reply), target).toBe(400);
      expect(bodyOf(reply), target).toMatch(/malformed percent-encoding/);
    }
    expect(bodyOf(await rawGet('/index.html%00.js'))).toMatch(/NUL/);
    // Escapes out of the dashboard's directory find nothing.
    expect(statusOf(await rawGet('/..%2f..%2f..%2fetc%2fpasswd'))).toBe(404);
    await stillServing();
  });

  it('what Node cannot parse (a bad header line, oversized headers, garbage) is a 4xx with a reason', async () => {
    const badHeader = await rawGet('/', ['Bad Header: x']);
    expect(statusOf(badHeader)).toBe(400);
    expect(bodyOf(badHeader)).toMatch(/malformed HTTP request/);
    expect(statusOf(await rawGet('/', [`X-Big: ${'v'.repeat(20_000)}`]))).toBe(431);
    expect(
      statusOf(
        await rawExchange(port, Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0xff, 0x0d, 0x0a, 0x0d, 0x0a])),
      ),
    ).toBe(400);
    await stillServing();
  });

  it('a Host or Origin that does not parse is a 403', async () => {
    expect(statusOf(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: %\r\nConnection: close\r\n\r\n'))).toBe(403);
    expect(statusOf(await rawGet('/', ['Origin: http://[']))).toBe(403);
    await stillServing();
  });
});

describe('WebSocket upgrade', () => {
  it('a token cookie (even one that does not decode) opens nothing: 401', async () => {
    const reply = await rawGet('/ws', [...UPGRADE, 'Cookie: baton_token=%']);
    expect(statusOf(reply)).toBe(401);
    expect(bodyOf(reply)).toMatch(/missing token/);
    await stillServing();
  });

  it('a malformed target or token subprotocol is refused with a reason', async () => {
    const target = await rawGet('/ws%', UPGRADE);
    expect(statusOf(target)).toBe(400);
    expect(bodyOf(target)).toMatch(/percent-encoding/);
    const protocol = await rawGet('/ws', [...UPGRADE, 'Sec-WebSocket-Protocol: baton.v1, baton.token.%%%']);
    expect(statusOf(protocol)).toBe(401);
    expect(bodyOf(protocol)).toMatch(/wrong token/);
    await stillServing();
  });

  it('the right token with a malformed handshake is a 400 from the WebSocket layer', async () => {
    const auth = `Authorization: Bearer ${server.token}`;
    const noKey = await rawGet('/ws', [auth, ...UPGRADE.filter((h) => !h.startsWith('Sec-WebSocket-Key'))]);
    expect(statusOf(noKey)).toBe(400);
    const badProtocols = await rawGet('/ws', [auth, ...UPGRADE, 'Sec-WebSocket-Protocol: baton.v1,, @@']);
    expect(statusOf(badProtocols)).toBe(400);
    expect(noKey + badProtocols).not.toContain(server.token);
    await stillServing();
  });
});

function openSocket(): Promise<WebSocket> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
    headers: { Authorization: `Bearer ${server.token}` },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

describe('WebSocket messages', () => {
  it('the text message `null` closes that socket with 1007 and a reason; nothing else is affected', async () => {
    const ws = await openSocket();
    const done = closed(ws);
    ws.send('null');
    expect(await done).toEqual({ code: 1007, reason: 'the message is neither a request with an id nor an ack' });
    await stillServing();
  });

  it('text that is not JSON closes with 1007; a malformed binary frame with 1007; a message over 4 MiB with 1009', async () => {
    const cases: [string | Buffer, boolean, number, RegExp][] = [
      ['{"t":"req","id":1,', false, 1007, /not JSON/],
      [Buffer.from([0, 1, 2, 255]), true, 1007, /shorter than its header/],
      [Buffer.from([9, 0, 0, 0, 1, 0, 0, 0]), true, 1007, /unknown kind 9/],
      [Buffer.from([2, 7, 0, 0, 1, 0, 0, 0, 97]), true, 1007, /reserved/],
      [Buffer.alloc(24, 0).fill(1, 0, 1).fill(1, 4, 5), true, 1007, /output frame sent to the core/],
      [`"${'x'.repeat(5 << 20)}"`, false, 1009, /.*/],
    ];
    for (const [data, binary, code, reason] of cases) {
      const ws = await openSocket();
      const done = closed(ws);
      ws.send(data, { binary });
      const outcome = await done;
      expect(outcome.code).toBe(code);
      expect(outcome.reason).toMatch(reason);
    }
    await stillServing();
  });

  it('a wrong-typed request with an id gets an error reply, and the socket stays open', async () => {
    const ws = await openSocket();
    const replies: Record<string, unknown>[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(d.toString()) as Record<string, unknown>));
    ws.send(JSON.stringify({ t: 'req', id: 7, method: ['run.get'], params: null }));
    ws.send(JSON.stringify({ t: 'req', id: 8, method: 'agent.write', params: { agentId: agentId, data: 42 } }));
    ws.send(JSON.stringify({ t: 'req', id: 9, method: 'handle.inspect', params: { handle: 'baton1.%%%' } }));
    ws.send(JSON.stringify({ t: 'req', id: 10, method: 'run.list', params: {} }));
    await expect.poll(() => replies.length).toBe(4);
    expect(replies.map((r) => [r['id'], r['ok']])).toEqual([
      [7, false],
      [8, false],
      [9, false],
      [10, true],
    ]);
    for (const r of replies.slice(0, 3)) expect((r['error'] as { code: string }).code).toBe('invalid');
    expect(JSON.stringify(replies)).not.toContain('baton1.%%%');
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    await stillServing();
  });
});

/** Resident memory of the server process, from /proc. */
function rssBytes(): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'));
  if (!m) throw new Error('no VmRSS in /proc/<pid>/status');
  return Number(m[1]) * 1024;
}

const MB = 1 << 20;

describe('fuzz (seeded; test/helpers/fuzz.ts runs the same with bigger counts)', () => {
  it('1500 malformed raw HTTP requests: never a 5xx, and the server survives with bounded memory', async () => {
    await fuzzHttp(port, 100, 1);
    const before = rssBytes();
    const statuses = await fuzzHttp(port, 1500, 42);
    const serverErrors = statuses.flatMap((s, i) => (s !== null && s >= 500 ? [`request ${i}: ${s}`] : []));
    expect(serverErrors, server.output().slice(-2000)).toEqual([]);
    // Most are answered with a status; a few (cut short before a request line ends) are simply closed.
    expect(statuses.filter((s) => s !== null && s >= 400 && s < 500).length).toBeGreaterThan(750);
    expect(rssBytes()).toBeLessThan(2 * before + 50 * MB);
    await stillServing();
  });

  it('1500 malformed WebSocket messages: each answered or its socket closed with a protocol code; memory bounded', async () => {
    await fuzzSocket(openSocket, 100, 1);
    const before = rssBytes();
    const report = await fuzzSocket(openSocket, 1500, 42);
    expect(report.problems, server.output().slice(-2000)).toEqual([]);
    expect(report.errors.get('invalid') ?? 0).toBeGreaterThan(100);
    expect(report.closes.get(1007) ?? 0).toBeGreaterThan(100);
    // Random bytes as a binary message are a malformed frame (1007), never an exception in the core.
    expect(report.closes.get(1003) ?? 0).toBe(0);
    expect(rssBytes()).toBeLessThan(2 * before + 50 * MB);
    expect(server.output()).not.toMatch(/internal error/);
    await stillServing();
  });
});

describe('a failure inside one request (in process, a core that throws)', () => {
  it('is answered with an internal error and logged once, scrubbed of handles and the token; no rejection escapes', async () => {
    const token = 'Qm4_r8Tz-Lw2Yx6Nc0Vb5Hj9Kp3Ds7Fg1Ae4Ui8Oo2';
    const handle = 'baton1.eyJzZWNyZXQiOiJ5ZXMifQ';
    const failing = () => {
      throw new TypeError(`cannot read ${handle} for ${token}`);
    };
    const core = {
      dataDir: root,
      version: '0.0.0',
      env: {},
      service: { on: () => () => undefined },
      requests: { 'run.list': failing, 'run.get': () => Promise.reject(new RangeError(`no ${handle}`)) },
      close: () => Promise.resolve(),
    } as unknown as CoreHost;
    const staticDir = join(root, 'no-dashboard');
    mkdirSync(staticDir, { recursive: true });
    // A fallback page that is not a string makes the file handler itself throw.
    const web = await startWebServer({
      core,
      host: '127.0.0.1',
      port: 0,
      token,
      staticDir,
      fallbackPage: undefined as unknown as string,
    });
    const logged: string[] = [];
    const escaped: unknown[] = [];
    const onRejection = (reason: unknown) => escaped.push(reason);
    process.on('unhandledRejection', onRejection);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    try {
      const rpc = await connect({ url: web.url, token });
      for (const call of [() => rpc.call('run.list', {}), () => rpc.call('run.get', { run: 'x' })]) {
        const error = await call().then(
          () => null,
          (err: unknown) => err,
        );
        expect(error).toBeInstanceOf(BatonError);
        expect((error as BatonError).code).toBe('internal');
        expect((error as BatonError).message).toBe('internal error in the Baton core (see its log)');
      }
      // The connection that carried the failures still works.
      expect(await rpc.call('agent.detach', { agentId: 'agt_0000000000000000' })).toEqual({});
      rpc.close();
      const page = await rawExchange(
        Number(new URL(web.url).port),
        `GET / HTTP/1.1\r\nHost: ${new URL(web.url).host}\r\nConnection: close\r\n\r\n`,
      );
      expect(statusOf(page)).toBe(500);
      expect(bodyOf(page)).toMatch(/internal error in Baton/);
    } finally {
      stderr.mockRestore();
      process.off('unhandledRejection', onRejection);
      await web.close();
    }
    const failures = logged.filter((line) => line.startsWith('baton: internal error'));
    expect(failures.map((line) => line.split(':')[1])).toEqual([
      ' internal error in request run.list',
      ' internal error in request run.get',
      ' internal error in HTTP GET',
    ]);
    const text = logged.join('');
    expect(text).toContain('TypeError: cannot read baton1.[handle] for [token]');
    expect(text).not.toContain(token);
    expect(text).not.toContain(handle);
    expect(escaped).toEqual([]);
  });
});
