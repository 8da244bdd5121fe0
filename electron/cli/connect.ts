// Finds the running `baton serve` (BATON_URL + BATON_TOKEN, else its server.json) and connects over WebSocket.
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { z } from 'zod';
import { RpcClient, type Wire } from '../../shared/client.js';
import { serverFile } from '../core/paths.js';

const serverInfoSchema = z.object({ url: z.string().url(), token: z.string().min(1) });

export class UsageError extends Error {}

export function findServer(dataDir: string, env: NodeJS.ProcessEnv = process.env): { url: string; token: string } {
  if (env.BATON_URL && env.BATON_TOKEN) return { url: env.BATON_URL, token: env.BATON_TOKEN };
  try {
    return serverInfoSchema.parse(JSON.parse(readFileSync(serverFile(dataDir), 'utf8')));
  } catch {
    throw new Error(`no Baton server found for ${dataDir}: start one with \`baton serve\`, or set BATON_URL and BATON_TOKEN`);
  }
}

export function connect(server: { url: string; token: string }): Promise<RpcClient> {
  const wsUrl = `${server.url.replace(/^http/, 'ws').replace(/\/$/, '')}/ws`;
  const ws = new WebSocket(wsUrl, { headers: { Authorization: `Bearer ${server.token}` } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(new RpcClient(wsWire(ws))));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`the Baton server refused the connection (HTTP ${res.statusCode})`)));
    ws.once('error', (err) => reject(new Error(`cannot reach the Baton server at ${server.url}: ${err.message}`)));
  });
}

export function wsWire(ws: WebSocket): Wire {
  return {
    send: (text) => ws.send(text),
    onMessage: (listener) => ws.on('message', (data) => listener(data.toString())),
    onClose: (listener) => ws.on('close', (code) => listener(`connection closed (${code})`)),
    close: () => ws.close(),
  };
}
