// Reattach through the real WebSocket of a real `baton serve`: a client that drops and comes back with its last
// offset gets exactly the bytes it missed (the whole stream hashes right), and one too far behind gets a reset.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient, type TerminalStreamHandlers } from '../../shared/client.js';
import { readFrame } from '../../shared/contract.js';
import { wsWire } from '../../electron/cli/connect.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';

const CHUNK = 512 * 1024;
const CHUNKS = 12;
const TOTAL = CHUNKS * CHUNK + 'DONE'.length;

/** For each "more" typed, 512 KiB of printable bytes without a newline; after 12, "DONE"; then it idles. */
const GENERATOR = `
const fs = require('node:fs');
const CHUNK = ${CHUNK}, CHUNKS = ${CHUNKS};
process.stdin.setRawMode(true); // nothing typed is echoed into the stream
let k = 0, pending = 0, tail = '';
process.stdin.on('data', (d) => {
  tail += d.toString('latin1');
  for (let i; (i = tail.indexOf('more')) >= 0; ) { pending++; tail = tail.slice(i + 4); }
  tail = tail.slice(-3);
  while (pending > 0 && k < CHUNKS) {
    pending--;
    const b = Buffer.alloc(CHUNK);
    for (let j = 0; j < CHUNK; j++) b[j] = 65 + ((k * 7 + j) % 26);
    process.stdout.write(b); // blocking on a TTY: waits while Baton holds the PTY paused
    k++;
    if (k === CHUNKS) process.stdout.write('DONE');
  }
});
process.stdin.resume();
fs.writeFileSync(process.argv[2], 'ready');
`;

function expectedOutput(): Buffer {
  const out = Buffer.alloc(TOTAL);
  for (let k = 0; k < CHUNKS; k++) for (let j = 0; j < CHUNK; j++) out[k * CHUNK + j] = 65 + ((k * 7 + j) % 26);
  out.write('DONE', CHUNKS * CHUNK, 'latin1');
  return out;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A client whose incoming wire messages are also kept, to read the raw attach result. */
function connectTapped(server: ServerProcess): Promise<{ client: RpcClient; seen: Record<string, unknown>[] }> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
    headers: { Authorization: `Bearer ${server.token}` },
  });
  const seen: Record<string, unknown>[] = [];
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      const wire = wsWire(ws);
      resolve({
        client: new RpcClient({
          ...wire,
          onMessage: (listener) =>
            wire.onMessage((data) => {
              if (typeof data === 'string') seen.push(JSON.parse(data) as Record<string, unknown>);
              else {
                // Output frames are binary: recorded by their header, in the order they came among the replies.
                const read = readFrame(data);
                seen.push(
                  read.ok && read.frame.kind === 'output'
                    ? { t: 'frame', offset: read.frame.offset, bytes: read.frame.data.length }
                    : { t: 'bad-frame' },
                );
              }
              listener(data);
            }),
        }),
        seen,
      });
    });
    ws.once('error', reject);
  });
}

/** Collects bytes and checks that every chunk starts exactly where the previous one ended. */
class Collector implements TerminalStreamHandlers {
  readonly chunks: Buffer[] = [];
  resets = 0;
  errors: string[] = [];
  constructor(public next: number) {}
  onData(data: Uint8Array, offset: number): void {
    if (offset !== this.next) this.errors.push(`chunk at ${offset}, expected ${this.next}`);
    this.chunks.push(Buffer.from(data));
    this.next = offset + data.length;
  }
  onReset(): void {
    this.resets++;
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

let root: string;
let server: ServerProcess;
const clients: RpcClient[] = [];

beforeAll(async () => {
  root = realpathSync(tempDir('baton-reattach-'));
  mkdirSync(join(root, 'proj'));
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
});

afterAll(async () => {
  for (const c of clients) c.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('reattach through the real WebSocket', () => {
  it('a client back from a drop gets exactly the missed bytes; one too far behind gets a reset', async () => {
    const script = join(root, 'generator.cjs');
    const ready = join(root, 'ready');
    writeFileSync(script, GENERATOR);
    const c1 = await server.connect();
    clients.push(c1);
    const run = await c1.call('run.start', {
      name: 'bulk',
      agents: [{ vendor: 'shell', label: 'gen', cwd: join(root, 'proj'), command: [process.execPath, script, ready] }],
    });
    const agentId = run.agents[0]!.id;
    await waitFor(() => existsSync(ready), 'the generator to be ready');
    const more = (c: RpcClient) => c.call('agent.write', { agentId, data: 'more\r' });

    // Client 1: from the very start, acking as it goes; asks for 4 chunks and drops after 2 MiB.
    const first = new Collector(0);
    const stream1 = await c1.attach(agentId, { fromOffset: 0, autoAck: true }, first);
    const terminalId = stream1.terminalId;
    for (let i = 0; i < 4; i++) await more(c1);
    await waitFor(() => first.next >= 4 * CHUNK, 'client 1 to receive 2 MiB', 20_000);
    const lastOffset = first.next;
    c1.close();
    expect(first.errors).toEqual([]);
    expect(first.resets).toBe(0);
    expect(lastOffset).toBe(4 * CHUNK);

    // While client 1 is away, one more chunk is produced (less than the 1 MiB ring).
    const c2 = await server.connect();
    clients.push(c2);
    await more(c2);
    let mirrored = 0;
    const probe: TerminalStreamHandlers = {
      onData: () => {},
      onReset: (_s, offset) => void (mirrored = Math.max(mirrored, offset)),
    };
    await waitFor(
      async () => {
        await c2.attach(agentId, { visible: false }, probe);
        return mirrored >= lastOffset + CHUNK;
      },
      'the missed chunk to be produced',
      20_000,
    );
    c2.close();

    // Client 3: back from the last offset it had: the gap comes as bytes, then live output to the end.
    const { client: c3, seen: seen3 } = await connectTapped(server);
    clients.push(c3);
    const third = new Collector(lastOffset);
    await c3.attach(agentId, { terminalId, fromOffset: lastOffset, autoAck: true }, third);
    const replyAt = seen3.findIndex((m) => m['t'] === 'res');
    const attachReply = seen3[replyAt] as { ok: boolean; result: { mode: string; offset: number } };
    expect(attachReply.ok).toBe(true);
    expect(attachReply.result.mode).toBe('bytes');
    expect(attachReply.result.offset).toBe(lastOffset);
    // The catch-up is one binary output frame from that offset, sent ahead of the reply.
    const catchUp = seen3.slice(0, replyAt).filter((m) => m['t'] === 'frame') as { offset: number; bytes: number }[];
    expect(catchUp[0]?.offset).toBe(lastOffset);
    expect(catchUp.reduce((n, f) => n + f.bytes, 0)).toBeGreaterThanOrEqual(CHUNK);
    expect(third.resets).toBe(0);
    for (let i = 0; i < CHUNKS - 5; i++) await more(c3);
    await waitFor(() => third.next >= TOTAL, 'client 3 to receive everything up to DONE', 30_000);
    expect(third.errors).toEqual([]);
    expect(third.resets).toBe(0);

    const all = Buffer.concat([first.bytes, third.bytes]);
    expect(all.length).toBe(TOTAL);
    expect(all.length).toBeGreaterThanOrEqual(5_000_000);
    expect(all.subarray(-4).toString('latin1')).toBe('DONE');
    expect(sha256(all)).toBe(sha256(expectedOutput()));

    // Far behind: offset 0 left the ring long ago, so a reset to the screen. It is taken where the mirror has parsed
    // (it may still be a last write short of the end: docs/performance.md "Flow control"); the bytes after it follow
    // from the ring, exactly, up to the end, and nothing more.
    const { client: late, seen: seenLate } = await connectTapped(server);
    clients.push(late);
    const lateView = new Collector(-1);
    let resetAt = -1;
    await late.attach(
      agentId,
      { terminalId, fromOffset: 0, autoAck: true },
      {
        onData: (d, o) => lateView.onData(d, o),
        onReset: (screen, offset) => {
          lateView.onReset();
          resetAt = offset;
          lateView.next = offset;
          expect(screen.length).toBeGreaterThan(0);
        },
      },
    );
    const lateReply = seenLate.find((m) => m['t'] === 'res') as { result: { mode: string; offset: number } };
    expect(lateReply.result.mode).toBe('reset');
    expect(lateView.resets).toBe(1);
    expect(resetAt).toBe(lateReply.result.offset);
    expect(resetAt).toBeGreaterThan(0);
    expect(resetAt).toBeLessThanOrEqual(TOTAL);
    await waitFor(() => lateView.next === TOTAL, 'the late client to reach the end', 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(lateView.errors).toEqual([]);
    expect(lateView.next).toBe(TOTAL);
    expect(Buffer.concat([expectedOutput().subarray(0, resetAt), lateView.bytes]).equals(expectedOutput())).toBe(true);
    expect(seenLate.filter((m) => m['t'] === 'bad-frame')).toEqual([]);
  });
});
