// server.json: how clients find the running core of a data directory (docs/architecture.md §7). A web-mode
// `baton serve` writes its address; a background core (`baton serve --socket`) its socket path. Both write the token,
// the pid, and the version and protocol version, so a client can tell an older core before it connects. The file is
// checked (no link, the user's own, not writable by others) and validated before a client trusts it with its token.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { serverFile } from '../paths.js';
import { checkServerFile } from './data-dir.js';
import { writeFileAtomic } from './atomic-file.js';

const token = z.string().min(1).max(1024);
const pid = z.number().int().positive();
const version = z.string().min(1).max(64);
const protocolVersion = z.number().int().positive();

const webServerSchema = z.strictObject({
  url: z.string().url(),
  token,
  pid,
  // Older servers wrote neither: they are protocol 1.
  version: version.optional(),
  protocolVersion: protocolVersion.optional(),
});
const socketServerSchema = z.strictObject({
  socket: z.string().min(1).max(4096),
  token,
  pid,
  version,
  protocolVersion,
});

export const serverInfoSchema = z.union([webServerSchema, socketServerSchema]);
export type ServerInfo = z.infer<typeof serverInfoSchema>;
export type SocketServerInfo = z.infer<typeof socketServerSchema>;

/** Where a client connects: a web server's address, or a background core's socket; with the token either way. */
export type CoreAddress = { url: string; token: string } | { socket: string; token: string };

export function isSocketInfo(info: ServerInfo): info is SocketServerInfo {
  return 'socket' in info;
}

export type ServerInfoRead = { ok: true; info: ServerInfo } | { ok: false; missing: boolean; reason: string };

/** The server file of `dataDir`, checked and validated; a file that is not safe to trust throws (DataDirError). */
export function readServerInfo(dataDir: string): ServerInfoRead {
  const path = serverFile(dataDir);
  checkServerFile(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      ok: false,
      missing,
      reason: missing ? 'missing' : `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, missing: false, reason: 'is not JSON' };
  }
  const parsed = serverInfoSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, info: parsed.data }
    : { ok: false, missing: false, reason: 'is not in the shape Baton writes' };
}

export async function writeServerInfo(dataDir: string, info: ServerInfo): Promise<void> {
  await writeFileAtomic(serverFile(dataDir), JSON.stringify(info), 0o600);
}
