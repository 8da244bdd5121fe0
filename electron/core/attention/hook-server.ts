// The hook socket (docs/attention.md §4): a Unix socket in the data directory (0700, the socket itself 0600), so only
// the user can open it. Each connection carries one report; it is read up to a limit, parsed, validated and handed
// to `receive`, which authenticates it. Nothing a client sends can end the core: every failure is an answer of
// "refused" and a closed connection.
import { chmodSync, existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_MAX_BYTES, hookEnvelopeSchema, type HookAnswer, type HookEnvelope } from './hook-protocol.js';

/** A Unix socket path longer than this cannot be bound (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;
/** A client that sends nothing for this long is dropped. */
const IDLE_MS = 5000;

export interface HookServer {
  readonly path: string;
  close(): Promise<void>;
}

/** Where the socket goes: the data directory, or a private temporary directory when that path is too long. */
function socketPlace(dataDir: string): { path: string; cleanup: () => void } {
  const inData = join(dataDir, 'hooks.sock');
  if (process.platform === 'win32')
    return { path: `\\\\.\\pipe\\baton-hooks-${process.pid}-${Date.now()}`, cleanup: () => undefined };
  if (Buffer.byteLength(inData) <= MAX_SOCKET_PATH) return { path: inData, cleanup: () => rmQuiet(inData) };
  const dir = mkdtempSync(join(tmpdir(), 'baton-hooks-'));
  chmodSync(dir, 0o700);
  return { path: join(dir, 'hooks.sock'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function rmQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}

export async function startHookServer(
  dataDir: string,
  receive: (report: HookEnvelope) => HookAnswer,
): Promise<HookServer> {
  const place = socketPlace(dataDir);
  // A socket left by a core that died: this data directory has one core at a time (its store says so).
  if (process.platform !== 'win32' && existsSync(place.path)) rmQuiet(place.path);
  const server: Server = createServer((socket) => serve(socket, receive));
  server.on('error', (err) => process.stderr.write(`baton: hook socket: ${err.message}\n`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(place.path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') chmodSync(place.path, 0o600);
  return {
    path: place.path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        place.cleanup();
      }),
  };
}

function serve(socket: Socket, receive: (report: HookEnvelope) => HookAnswer): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const answer = (a: HookAnswer) => {
    if (done) return;
    done = true;
    socket.end(`${a}\n`);
  };
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > HOOK_MAX_BYTES) {
      answer('refused');
      socket.destroy();
      return;
    }
    chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const newline = text.indexOf('\n');
    if (newline < 0) return;
    answer(handle(text.slice(0, newline), receive));
  });
  socket.on('end', () => answer('refused'));
}

function handle(line: string, receive: (report: HookEnvelope) => HookAnswer): HookAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'refused';
  }
  const report = hookEnvelopeSchema.safeParse(parsed);
  if (!report.success) return 'refused';
  try {
    return receive(report.data);
  } catch (err) {
    process.stderr.write(`baton: a hook report could not be handled: ${(err as Error).message}\n`);
    return 'refused';
  }
}
