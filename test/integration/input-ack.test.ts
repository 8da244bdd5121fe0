// The core's side of acknowledged input over its real WebSocket (docs/hosts.md, "Keys are never lost nor typed
// twice"): numbers it already wrote are dropped across connections (a re-send after a reconnect types nothing twice),
// what it wrote is confirmed, and malformed numbers, channels or frames close only the socket that sent them.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberedInputFrame, inputFrame } from '../../shared/contract.js';
import type { RpcClient } from '../../shared/client.js';
import { ask, randomNumber, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';

let root: string;
let server: ServerProcess;
let client: RpcClient;
/** A shell, to show the core still serves; and a raw `cat` writing what it gets to a file. */
let shellId: string;
let catId: string;
let got: () => string;

beforeAll(async () => {
  root = realpathSync(tempDir('baton-input-ack-'));
  const work = join(root, 'work');
  mkdirSync(work, { recursive: true });
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  client = await server.connect();
  const run = await client.call('run.start', {
    name: 'input',
    agents: [
      { vendor: 'shell', label: 'sh', cwd: work },
      { vendor: 'shell', label: 'cat', cwd: work, command: ['/bin/sh', '-c', 'stty raw -echo && exec cat > got.txt'] },
    ],
  });
  shellId = run.agents[0]!.id;
  catId = run.agents[1]!.id;
  const file = join(work, 'got.txt');
  await waitFor(() => existsSync(file), 'cat to start');
  got = () => readFileSync(file, 'utf8');
}, 60_000);

afterAll(async () => {
  client?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A raw socket to the core and the JSON messages it received. */
async function openSocket(): Promise<{ ws: WebSocket; seen: Record<string, unknown>[] }> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
    headers: { Authorization: `Bearer ${server.token}` },
  });
  const seen: Record<string, unknown>[] = [];
  ws.on('message', (d, binary) => {
    if (!binary) seen.push(JSON.parse(d.toString()) as Record<string, unknown>);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, seen };
}

async function attach(
  socket: { ws: WebSocket; seen: Record<string, unknown>[] },
  id: number,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  socket.ws.send(JSON.stringify({ t: 'req', id, method: 'agent.attach', params }));
  await waitFor(() => socket.seen.some((m) => m['id'] === id), `the reply to request ${id}`);
  return socket.seen.find((m) => m['id'] === id)!;
}

const closed = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

const bytes = (text: string) => new TextEncoder().encode(text);

async function stillServing(): Promise<void> {
  expect(server.child.exitCode, server.output()).toBeNull();
  const n = randomNumber();
  await ask(client, shellId, `echo $((${n} + 1))`, new RegExp(`^${n + 1}$`, 'm'));
}

describe('acknowledged input at the core', () => {
  it('writes each number once across connections, says what it wrote at attach, and confirms it', async () => {
    const channel = 'c0ffee00-1111-4222-8333-444455556666';
    const first = await openSocket();
    const reply = await attach(first, 1, { agentId: catId, stream: 1, inputChannel: channel });
    expect(reply).toMatchObject({ ok: true, result: { inputWritten: 0 } });
    first.ws.send(numberedInputFrame(1, 1, bytes('one ')));
    first.ws.send(numberedInputFrame(1, 2, bytes('two ')));
    await waitFor(() => first.seen.some((m) => m['t'] === 'inputAck' && m['seq'] === 2), 'the confirmation of 2');
    first.ws.close();
    // A new connection with the same channel: the sender re-sends 2 (its confirmation could have been lost), then 3.
    const second = await openSocket();
    const again = await attach(second, 1, { agentId: catId, stream: 5, inputChannel: channel });
    expect(again).toMatchObject({ ok: true, result: { inputWritten: 2 } });
    second.ws.send(numberedInputFrame(5, 2, bytes('two ')));
    second.ws.send(numberedInputFrame(5, 3, bytes('three')));
    await waitFor(() => got() === 'one two three', 'the keys, each once');
    await waitFor(() => second.seen.some((m) => m['t'] === 'inputAck' && m['seq'] === 3), 'the confirmation of 3');
    second.ws.close();
  });

  it('a malformed channel is an error reply; malformed or mismatched numbered input closes only its socket', async () => {
    const socket = await openSocket();
    const channels = ['short', 'no/slashes-0123456789', 'x'.repeat(65), 7];
    for (const [i, inputChannel] of channels.entries())
      expect(await attach(socket, 10 + i, { agentId: catId, stream: 2, inputChannel })).toMatchObject({
        ok: false,
        error: { code: 'invalid', field: 'inputChannel' },
      });
    socket.seen.length = 0;
    socket.ws.close();

    const cases: [Record<string, unknown>, Uint8Array, RegExp][] = [
      [{}, numberedInputFrame(3, 1, bytes('')), /numbered input on a stream without an input channel/],
      [{ inputChannel: 'a'.repeat(20) }, inputFrame(3, bytes('')), /plain input on one with/],
      [{ inputChannel: 'b'.repeat(20) }, zeroSeq(), /number is not a safe integer/],
    ];
    for (const [extra, frame, reason] of cases) {
      const s = await openSocket();
      expect(await attach(s, 1, { agentId: catId, stream: 3, ...extra })).toMatchObject({ ok: true });
      const done = closed(s.ws);
      s.ws.send(frame);
      const outcome = await done;
      expect(outcome.code).toBe(1007);
      expect(outcome.reason).toMatch(reason);
    }
    // The highest number there is, then a lower one: taken and dropped, never an exception in the core.
    const s = await openSocket();
    await attach(s, 1, { agentId: catId, stream: 4, inputChannel: 'd'.repeat(20) });
    s.ws.send(numberedInputFrame(4, Number.MAX_SAFE_INTEGER, bytes('')));
    s.ws.send(numberedInputFrame(4, 9, bytes('!')));
    await waitFor(
      () => s.seen.some((m) => m['t'] === 'inputAck' && m['seq'] === Number.MAX_SAFE_INTEGER),
      'the confirmation of the highest number',
    );
    s.ws.close();
    expect(got()).toBe('one two three');
    await stillServing();
  });
});

function zeroSeq(): Uint8Array {
  const frame = numberedInputFrame(3, 1, bytes(''));
  new DataView(frame.buffer).setFloat64(8, 0, true);
  return frame;
}
