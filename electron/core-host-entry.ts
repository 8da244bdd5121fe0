// The core host inside Electron: a utilityProcess that main forks. It opens the same core as `baton serve` and gives
// each MessagePort main hands it one ClientSession, so a window's terminal bytes never pass through main.
import { isAbsolute } from 'node:path';
import type { MessagePortMain, ParentPort } from 'electron';
import { DATA_DIR_ARG, toCoreSchema, type FromCore } from './app/core-protocol.js';
import { openCoreHost, type CoreHost } from './core/host.js';
import { packageVersion } from './core/paths.js';
import { ClientSession } from './core/transport/client-session.js';
import { reportFailure } from './core/log.js';

type Parent = Pick<ParentPort, 'on' | 'postMessage'>;
type Port = Pick<MessagePortMain, 'on' | 'postMessage' | 'start' | 'close'>;

/** Serves main's messages: a port per client, then `close` at quit. Exported for the tests, which pass a real core. */
export function serveParentPort(parent: Parent, core: Promise<CoreHost>, exit: (code: number) => void): void {
  const sessions = new Set<ClientSession>();
  const say = (message: FromCore) => parent.postMessage(message);
  let closing = false;

  core.then(
    () => say({ type: 'ready' }),
    (err: unknown) => {
      say({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      exit(1);
    },
  );

  parent.on('message', (event) => {
    const message = toCoreSchema.safeParse(event.data);
    if (!message.success) {
      process.stderr.write('baton core: ignored a malformed message from main\n');
      return;
    }
    if (message.data.type === 'connect') {
      const port = event.ports[0] as Port | undefined;
      if (port && !closing) {
        core
          .then((host) => attach(host, port, sessions), () => port.close())
          .catch((err: unknown) => reportFailure('attaching a window to the core', err));
      }
      return;
    }
    if (closing) return;
    closing = true;
    (async () => {
      for (const session of sessions) session.close();
      try {
        await (await core).close();
      } catch (err) {
        process.stderr.write(`baton core: stopping the agents failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      say({ type: 'closed' });
      exit(0);
    })().catch((err: unknown) => {
      // Telling main failed: exit anyway, as main would otherwise wait out its timeout and kill us.
      reportFailure('closing the core', err);
      exit(1);
    });
  });
}

function attach(core: CoreHost, port: Port, sessions: Set<ClientSession>): void {
  const session = new ClientSession(core, { send: (message) => port.postMessage(JSON.stringify(message)) });
  sessions.add(session);
  port.on('message', (event) => {
    // receive answers every failure itself; this catch is the last line before an unhandled rejection ends the core.
    if (typeof event.data === 'string') session.receive(event.data).catch((err: unknown) => reportFailure('a client message', err));
  });
  // The window reloaded, crashed or closed: its agents keep running; a new port reattaches them.
  port.on('close', () => {
    session.close();
    sessions.delete(session);
  });
  port.start();
}

/** `--data-dir=<absolute path>` from main; nothing else is read from the arguments. */
export function dataDirFromArgs(args: readonly string[]): string {
  const arg = args.find((a) => a.startsWith(DATA_DIR_ARG));
  const dir = arg?.slice(DATA_DIR_ARG.length) ?? '';
  if (!isAbsolute(dir)) throw new Error('the Baton core needs an absolute --data-dir');
  return dir;
}

// Only inside Electron's utility process is there a parent port; importing this file elsewhere starts nothing.
const parent = (process as { parentPort?: ParentPort | null }).parentPort;
if (parent) {
  const core = (async () => openCoreHost({ dataDir: dataDirFromArgs(process.argv), env: process.env, version: packageVersion() }))();
  serveParentPort(parent, core, (code) => process.exit(code));
}
