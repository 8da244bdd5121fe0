// `baton connect --stdio`, as Baton runs it on a remote host over ssh (docs/hosts.md): finds this host's background
// core (starting `baton serve --socket` when none runs; replacing an older version's core only after it snapshotted
// and recorded its runs for the new one to resume), then carries the contract between ssh's stdin/stdout (framed
// text and binary messages, core/remote/stdio-wire.ts) and the core's user-only socket. Nothing here listens on a port.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { RpcClient } from '../shared/client.js';
import { packageRoot, prepareDataDir } from './core/paths.js';
import { stdioWire } from './core/remote/stdio-wire.js';
import { readServerInfo, type CoreAddress } from './core/store/server-info.js';
import { openCoreSocket, whenOpen, wsWire } from './core/transport/core-socket.js';
import { answers } from './core/transport/socket-path.js';

const START_WAIT_MS = 20_000;

export async function connectStdio(dataDir: string, version: string): Promise<void> {
  const address = await ensureCore(dataDir, version);
  const ws = await whenOpen(openCoreSocket(address), address.token);
  const wire = stdioWire(process.stdin, process.stdout, () => ws.close());
  const socket = wsWire(ws);
  wire.onMessage((data) => socket.send(data));
  socket.onMessage((data) => wire.send(data));
  const end = (code: number) => {
    ws.close();
    process.stdout.end(() => process.exit(code));
    setTimeout(() => process.exit(code), 500).unref();
  };
  ws.on('close', () => end(0));
  wire.onClose(() => end(0));
}

/**
 * `baton connect --address`: the same core found or started, and its socket and token as one JSON line on standard
 * output, for the local core that forwards a socket of its own to it over the shared ssh connection (docs/hosts.md):
 * then no process of ours relays the bytes. A core that listens on an address instead of a socket is refused (the
 * local side falls back to `--stdio`).
 */
export async function printAddress(dataDir: string, version: string): Promise<void> {
  const address = await ensureCore(dataDir, version);
  if (!('socket' in address)) throw new Error('this core listens on an address, not a socket: use --stdio');
  await new Promise<void>((r) =>
    process.stdout.write(`${JSON.stringify({ socket: address.socket, token: address.token, version })}\n`, () => r()),
  );
}

/** The address of this version's core, started (or an older one replaced) when needed. */
async function ensureCore(dataDir: string, version: string): Promise<CoreAddress> {
  prepareDataDir(dataDir);
  const running = await runningCore(dataDir);
  if (running?.version === version) return running.address;
  if (running) {
    // An older core: its live runs are snapshotted and recorded, so this version's core resumes them.
    process.stderr.write(`baton: replacing the core of Baton ${running.version} with ${version}\n`);
    await running.client.call('core.shutdown', { resumeOnStart: true });
    running.client.close();
    const deadline = Date.now() + START_WAIT_MS;
    while ('socket' in running.address && (await answers(running.address.socket)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
  }
  startCore(dataDir);
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const started = await runningCore(dataDir);
    if (started?.version === version) {
      started.client.close();
      return started.address;
    }
    started?.client.close();
  }
  throw new Error(`the core did not start within 20 s (see ${join(dataDir, 'core.log')})`);
}

async function runningCore(
  dataDir: string,
): Promise<{ address: CoreAddress; version: string; client: RpcClient } | null> {
  const read = readServerInfo(dataDir);
  if (!read.ok) return null;
  const address: CoreAddress =
    'socket' in read.info
      ? { socket: read.info.socket, token: read.info.token }
      : { url: read.info.url, token: read.info.token };
  try {
    const client = new RpcClient(wsWire(await whenOpen(openCoreSocket(address), address.token)));
    const info = await client.call('core.info', {});
    return { address, version: info.version, client };
  } catch {
    return null;
  }
}

/** `baton serve --socket` in the background, in its own session: it outlives this ssh session. */
function startCore(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const log = openSync(join(dataDir, 'core.log'), 'a', 0o600);
  const child = spawn(
    process.execPath,
    [join(packageRoot(), 'bin', 'baton.js'), 'serve', '--socket', '--data-dir', dataDir],
    {
      detached: true,
      stdio: ['ignore', log, log],
      env: process.env,
    },
  );
  child.unref();
}
