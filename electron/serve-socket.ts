// `baton serve --socket`: the background core (docs/architecture.md §2). The same core and protocol as web mode, on a
// Unix socket (a named pipe on Windows) in the data directory instead of a TCP port, with no page. The desktop app
// starts one with its own runtime (docs/desktop.md) and leaves it running when it quits, so agents outlive the window
// and the app; the command line finds it through server.json like a web-mode server.
import { PROTOCOL_VERSION } from '../shared/contract.js';
import { openCoreHost, type CoreHost } from './core/host.js';
import { packageVersion, prepareDataDir } from './core/paths.js';
import { newToken, weakTokenReason } from './core/transport/auth.js';
import { writeServerInfo, type SocketServerInfo } from './core/store/server-info.js';
import { claimSocketPath, defaultSocketPath } from './core/transport/socket-path.js';
import { startSocketServer } from './core/transport/socket-server.js';
import type { VendorEnv } from './core/vendors/adapter.js';
import { stopOnSignalsAndShutdown } from './serve-lifecycle.js';

export interface SocketServeOptions {
  dataDir: string;
  /** The socket (or pipe) path; default `<dataDir>/core.sock` (defaultSocketPath). */
  socket?: string;
  token?: string;
}

export interface SocketCore {
  readonly core: CoreHost;
  readonly info: SocketServerInfo;
  /** Closes the socket; the core itself is closed by `core.close()`. */
  closeTransport(): Promise<void>;
}

/**
 * Opens the core on its socket and writes server.json. The process hosting it decides when it ends; the desktop
 * tests host one in their own process this way, behind the fake Electron.
 */
export async function startSocketCore(
  options: SocketServeOptions & { env: VendorEnv; version: string },
): Promise<SocketCore> {
  const token = options.token ?? newToken();
  const weak = weakTokenReason(token);
  if (weak) throw new Error(weak);
  prepareDataDir(options.dataDir);
  const socketPath = options.socket ?? defaultSocketPath(options.dataDir);
  // Before the store is opened: a second core must not sweep the agents of one that is alive and answering.
  await claimSocketPath(socketPath);
  const core = await openCoreHost({ dataDir: options.dataDir, env: options.env, version: options.version });
  let server;
  try {
    server = await startSocketServer({ core, socketPath, token });
  } catch (err) {
    await core.close();
    throw err;
  }
  const info: SocketServerInfo = {
    socket: socketPath,
    token,
    pid: process.pid,
    version: options.version,
    protocolVersion: PROTOCOL_VERSION,
  };
  await writeServerInfo(options.dataDir, info);
  return { core, info, closeTransport: () => server.close() };
}

export async function serveSocket(options: SocketServeOptions): Promise<void> {
  const running = await startSocketCore({ ...options, env: process.env, version: packageVersion() });
  stopOnSignalsAndShutdown(running.core, running.closeTransport);
  // Never the token: this goes to the core's log (core.log when the desktop app started it).
  process.stdout.write(
    `Baton core ${running.info.version} (pid ${process.pid}) is serving ${options.dataDir} on ${running.info.socket}\n`,
  );
}
