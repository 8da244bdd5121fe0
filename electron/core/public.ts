// What the Electron shell (electron/main.ts, electron/app/) may use of the core besides host.ts: a few small helpers,
// re-exported so the shell never names a core file directly and the core can move its internals freely. Kept light on
// purpose: Electron main loads this at startup, so nothing here may pull in the run service, the terminals or the
// server side of the transport. The client side of the core's socket (ws and net only) is here: main, the relay and
// the command line all connect to the background core.
export { packageRoot, packageVersion, prepareDataDir } from './paths.js';
export { writeFileAtomic } from './store/atomic-file.js';
export { reportFailure } from './log.js';
export {
  isSocketInfo,
  readServerInfo,
  type CoreAddress,
  type ServerInfo,
  type SocketServerInfo,
} from './store/server-info.js';
export { CoreRefusal, openCoreSocket, whenOpen, wsWire } from './transport/core-socket.js';
export { defaultSocketPath } from './transport/socket-path.js';
