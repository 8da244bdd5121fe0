// Finds the running core (BATON_URL + BATON_TOKEN, else its server.json) and connects over its WebSocket: a web-mode
// `baton serve` at its address, or the background core (`baton serve --socket`, as the desktop app runs it) on its
// socket.
import './zod-jitless.js';
import { RpcClient } from '../../shared/client.js';
import { openCoreSocket, readServerInfo, whenOpen, wsWire, CoreRefusal, type CoreAddress } from '../core/public.js';
import { serverFile } from '../core/paths.js';

export type ServerAddress = CoreAddress;
export { wsWire };

/**
 * BATON_URL and BATON_TOKEN name a server together. One without the other is a mistake to report, not a reason to
 * quietly use server.json instead: that would talk to a different server than the one the user meant.
 */
export function findServer(dataDir: string, env: NodeJS.ProcessEnv = process.env): ServerAddress {
  const url = env.BATON_URL || undefined;
  const token = env.BATON_TOKEN || undefined;
  if (url && !token)
    throw new Error(
      "BATON_URL is set but BATON_TOKEN is not: set BATON_TOKEN to the server's token (its server.json holds it), or unset BATON_URL",
    );
  if (token && !url)
    throw new Error(
      "BATON_TOKEN is set but BATON_URL is not: set BATON_URL to the server's address (http://host:port), or unset BATON_TOKEN",
    );
  if (url && token) {
    if (!isHttpUrl(url))
      throw new Error('BATON_URL is not an http:// or https:// address (expected e.g. http://127.0.0.1:4100)');
    return { url, token };
  }
  // A server.json another user could have written would point this client, and its token, at their server.
  const read = readServerInfo(dataDir);
  if (!read.ok && read.missing)
    throw new Error(
      `no Baton server found for ${dataDir}: start one with \`baton serve\`, or set BATON_URL and BATON_TOKEN`,
    );
  if (!read.ok) throw new Error(`${serverFile(dataDir)} is damaged: restart \`baton serve\` to write it again`);
  const { info } = read;
  return 'socket' in info ? { socket: info.socket, token: info.token } : { url: info.url, token: info.token };
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

export async function connect(server: ServerAddress): Promise<RpcClient> {
  const shown =
    'url' in server ? `the Baton server at ${shownAddress(server.url)}` : `the Baton core on ${server.socket}`;
  const hint =
    'url' in server ? 'is `baton serve` running?' : 'is the core running (the desktop app, or `baton serve --socket`)?';
  try {
    // openCoreSocket checks a socket (the user's own, 0600, not a link) before connecting: its refusal is the message.
    const ws = await whenOpen(openCoreSocket(server), server.token);
    return new RpcClient(wsWire(ws));
  } catch (err) {
    if (err instanceof CoreRefusal) throw new Error(`${shown} ${err.message}`);
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof Error && err.name === 'DataDirError') throw err;
    throw new Error(`cannot reach ${shown} (${message.replaceAll(server.token, '…')}): ${hint}`);
  }
}
