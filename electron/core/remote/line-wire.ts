// The contract's Wire over a byte stream pair (an ssh child's stdio, or the remote `baton connect`'s own): one JSON
// message per line. JSON.stringify never writes a raw newline, so a line is always one whole message.
import type { Readable, Writable } from 'node:stream';
import type { Wire } from '../../../shared/client.js';

/** The same bound as the core's WebSocket: a longer line is not a message the core sends. */
const MAX_LINE_BYTES = 64 << 20;

export function lineWire(input: Readable, output: Writable, close: () => void): Wire {
  const messageListeners: ((text: string) => void)[] = [];
  const closeListeners: ((reason: string) => void)[] = [];
  let closed = false;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    for (const l of closeListeners) l(reason);
  };
  input.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, i));
      const line = Buffer.concat(pending).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = i + 1;
      if (line !== '') for (const l of messageListeners) l(line);
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES) {
        end('a message was larger than 64 MiB');
        close();
      }
    }
  });
  input.on('end', () => end('the connection ended'));
  input.on('close', () => end('the connection closed'));
  input.on('error', (err) => end(err.message));
  output.on('error', (err) => end(err.message));
  return {
    send(text) {
      if (!closed) output.write(`${text}\n`);
    },
    onMessage: (listener) => void messageListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
    close() {
      close();
      end('closed');
    },
  };
}
