// web-transport*.test.ts's real `baton serve` (one per file) and the raw HTTP and WebSocket requests they make of
// it, with whatever headers, query and subprotocols a browser, the CLI or an attacker would send.
import { realpathSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import { readFrame } from '../../shared/contract.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET to the server's own address, with whatever headers (Host included) the test chooses. */
export function get(server: { url: string }, path: string, headers: Record<string, string> = {}): Promise<Reply> {
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

type UpgradeOutcome =
  { kind: 'open'; ws: WebSocket } | { kind: 'refused'; status: number } | { kind: 'error'; message: string };

export function upgrade(
  server: ServerProcess,
  query: string,
  headers: Record<string, string> = {},
  protocols: string[] = [],
): Promise<UpgradeOutcome> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws${query}`, protocols, { headers });
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
export function inbox(ws: WebSocket) {
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) return void messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
    const read = readFrame(data as Buffer);
    messages.push(read.ok ? { t: 'frame', ...read.frame } : { t: 'bad-frame' });
  });
  return {
    messages,
    send: (text: string) => ws.send(text),
    async reply(id: number): Promise<Record<string, unknown>> {
      return waitFor(
        () => messages.find((m) => m['t'] === 'res' && m['id'] === id),
        `the reply to request ${id}`,
        5000,
      );
    },
  };
}

export let root: string;
export let server: ServerProcess;

export function useWebServer(): void {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-web-'));
    server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  });

  afterAll(async () => {
    await endServerAndRemove(server, root);
  });
}
