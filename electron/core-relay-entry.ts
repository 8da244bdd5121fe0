// The relay inside Electron: a utilityProcess that main forks. Each MessagePort main hands it (one per window page)
// gets its own connection to the background core's socket, and messages are piped both ways: text (JSON control
// messages) as text, binary frames (terminal bytes, keystrokes; shared/contract/frames.ts) as ArrayBuffers. The core itself runs
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
  const queue: (string | Uint8Array)[] = [];
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
    const data = pageMessage(event.data);
    if (data === null || ended) return;
    if (ws.readyState === ws.OPEN) return ws.send(data, { binary: typeof data !== 'string' });
    queue.push(data);
    queued += data.length;
    if (queued > MAX_QUEUED_BYTES) end();
  });
  port.on('close', end);
  ws.on('open', () => {
    for (const data of queue.splice(0)) ws.send(data, { binary: typeof data !== 'string' });
    queued = 0;
  });
  ws.on('message', (data, isBinary) => {
    if (ended) return;
    if (!isBinary) return port.postMessage(data.toString());
    // Each frame in an ArrayBuffer of its own (a ws Buffer may be a view into a larger one): the page gets exactly it.
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    port.postMessage(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  });
  ws.on('close', end);
  // ws closes after any error; the listener keeps it from being an uncaught exception in the relay.
  ws.on('error', () => end());
  port.start();
}

/** A page's message as the core takes it: text, or a frame's bytes; anything else is not the page's to send. */
function pageMessage(data: unknown): string | Uint8Array | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

// Only inside Electron's utility process is there a parent port; importing this file elsewhere starts nothing.
const parent = (process as { parentPort?: ParentPort | null }).parentPort;
if (parent) {
  process.on('uncaughtException', (err) => reportFailure('the relay', err));
  serveRelay(parent);
}
