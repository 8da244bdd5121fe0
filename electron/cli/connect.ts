// Finds the running `baton serve` (BATON_URL + BATON_TOKEN, else its server.json) and connects over WebSocket.
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { z } from 'zod';
import { RpcClient, type Wire } from '../../shared/client.js';
import { checkServerFile, serverFile } from '../core/paths.js';

const serverInfoSchema = z.strictObject({ url: z.string().url(), token: z.string().min(1), pid: z.number().int().positive() });

export interface ServerAddress {
  url: string;
  token: string;
}

/**
 * BATON_URL and BATON_TOKEN name a server together. One without the other is a mistake to report, not a reason to
 * quietly use server.json instead: that would talk to a different server than the one the user meant.
 */
export function findServer(dataDir: string, env: NodeJS.ProcessEnv = process.env): ServerAddress {
  const url = env.BATON_URL || undefined;
  const token = env.BATON_TOKEN || undefined;
  if (url && !token) throw new Error('BATON_URL is set but BATON_TOKEN is not: set BATON_TOKEN to the server\'s token (its server.json holds it), or unset BATON_URL');
  if (token && !url) throw new Error('BATON_TOKEN is set but BATON_URL is not: set BATON_URL to the server\'s address (http://host:port), or unset BATON_TOKEN');
  if (url && token) {
    if (!isHttpUrl(url)) throw new Error('BATON_URL is not an http:// or https:// address (expected e.g. http://127.0.0.1:4100)');
    return { url, token };
  }
  // A server.json another user could have written would point this client, and its token, at their server.
  checkServerFile(serverFile(dataDir));
  let text: string;
  try {
    text = readFileSync(serverFile(dataDir), 'utf8');
  } catch {
    throw new Error(`no Baton server found for ${dataDir}: start one with \`baton serve\`, or set BATON_URL and BATON_TOKEN`);
  }
  try {
    const { url, token } = serverInfoSchema.parse(JSON.parse(text));
    return { url, token };
  } catch {
    throw new Error(`${serverFile(dataDir)} is damaged: restart \`baton serve\` to write it again`);
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The address to show in messages: scheme, host and port only, so a token pasted into the URL never shows. */
export function shownAddress(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the address in BATON_URL';
  }
}

export function connect(server: ServerAddress): Promise<RpcClient> {
  const base = new URL(server.url);
  const wsUrl = `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}${base.pathname.replace(/\/$/, '')}/ws`;
  const ws = new WebSocket(wsUrl, { headers: { Authorization: `Bearer ${server.token}` } });
  const shown = shownAddress(server.url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(new RpcClient(wsWire(ws))));
    ws.once('unexpected-response', (_req, res) => {
      const why = res.statusCode === 401 || res.statusCode === 403 ? 'refused the token' : 'refused the connection';
      reject(new Error(`the Baton server at ${shown} ${why} (HTTP ${res.statusCode})`));
      ws.terminate();
    });
    ws.once('error', (err) => reject(new Error(`cannot reach the Baton server at ${shown} (${err.message.replaceAll(server.token, '…')}): is \`baton serve\` running?`)));
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
