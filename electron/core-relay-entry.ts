// The relay inside Electron: a utilityProcess that main forks. Each MessagePort main hands it (one per window page)
// gets its own connection to the background core's socket, and text frames are piped both ways. The core itself runs
// outside the app (serve-socket.ts) and outlives it; the relay only keeps terminal bytes out of Electron main, so a
// flooding pane never blocks the app's own event loop (docs/architecture.md §2).
import type { MessagePortMain, ParentPort } from 'electron';
import type WebSocket from 'ws';
import { toRelaySchema } from './app/relay-protocol.js';
import type { CoreAddress } from './core/store/server-info.js';
import { openCoreSocket } from './core/transport/core-socket.js';
import { reportFailure } from './core/log.js';

type Parent = Pick<ParentPort, 'on'>;
export type RelayPort = Pick<MessagePortMain, 'on' | 'postMessage' | 'start' | 'close'>;

/** What a page may send before its socket is open (a reattach burst); more than this and the link is cut. */
const MAX_QUEUED_BYTES = 8 << 20;

/** Serves main's messages. Exported for the tests, which drive it behind a fake utility process. */
export function serveRelay(parent: Parent, open: (address: CoreAddress) => WebSocket = openCoreSocket): void {
  let address: CoreAddress | null = null;
  parent.on('message', (event) => {
    const message = toRelaySchema.safeParse(event.data);
    if (!message.success) {
      process.stderr.write('baton relay: ignored a malformed message from main\n');
      return;
    }
    if (message.data.type === 'core') {
      address = message.data.address;
      return;
    }
    const port = event.ports[0] as RelayPort | undefined;
    if (!port) return;
    if (!address) return port.close(); // No core yet: the page asks again, and main answers once there is one.
    pipe(port, address, open);
  });
}

/** One page's link: its port on one side, its own connection to the core on the other, until either closes. */
export function pipe(port: RelayPort, address: CoreAddress, open: (address: CoreAddress) => WebSocket): void {
  let ws: WebSocket;
  try {
    ws = open(address);
  } catch (err) {
    // The socket failed its checks (gone, someone else's): the page sees its port close and asks again.
    process.stderr.write(
      `baton relay: cannot connect to the core: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    port.close();
    return;
  }
  const queue: string[] = [];
  let queued = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    port.close();
    if (ws.readyState === ws.CONNECTING) ws.terminate();
    else ws.close();
  };
  port.on('message', (event) => {
    if (typeof event.data !== 'string' || ended) return;
    if (ws.readyState === ws.OPEN) return ws.send(event.data);
    queue.push(event.data);
    queued += event.data.length;
    if (queued > MAX_QUEUED_BYTES) end();
  });
  port.on('close', end);
  ws.on('open', () => {
    for (const text of queue.splice(0)) ws.send(text);
    queued = 0;
  });
  ws.on('message', (data, isBinary) => {
    if (!isBinary && !ended) port.postMessage(data.toString());
  });
  ws.on('close', end);
  // ws closes after any error; the listener keeps it from being an uncaught exception in the relay.
  ws.on('error', () => end());
  port.start();
}

// Only inside Electron's utility process is there a parent port; importing this file elsewhere starts nothing.
const parent = (process as { parentPort?: ParentPort | null }).parentPort;
if (parent) {
  process.on('uncaughtException', (err) => reportFailure('the relay', err));
  serveRelay(parent);
}
