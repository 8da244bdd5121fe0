// The contract's Wire over a byte stream pair (an ssh child's stdio, or the remote `baton connect`'s own). Each message
// is framed as one kind byte (0: a JSON text message, 1: a binary terminal frame, shared/contract/frames.ts), a 4-byte
// big-endian length and the payload: terminal bytes cross ssh as bytes, as they cross the core's WebSocket.
import type { Readable, Writable } from 'node:stream';
import type { Wire } from '../../../shared/client.js';

/** The same bound as the core's WebSocket: a longer message is not one the core sends. */
const MAX_MESSAGE_BYTES = 64 << 20;
const HEADER_BYTES = 5;
const TEXT = 0;
const BINARY = 1;

export function encodeStdioMessage(data: string | Uint8Array): Buffer {
  const payload = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header[0] = typeof data === 'string' ? TEXT : BINARY;
  header.writeUInt32BE(payload.byteLength, 1);
  return Buffer.concat([header, payload]);
}

export function stdioWire(input: Readable, output: Writable, close: () => void): Wire {
  const messageListeners: ((data: string | Uint8Array) => void)[] = [];
  const closeListeners: ((reason: string) => void)[] = [];
  let closed = false;
  let buffered: Buffer = Buffer.alloc(0);
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    for (const l of closeListeners) l(reason);
  };
  const refuse = (reason: string) => {
    end(reason);
    close();
  };
  input.on('data', (chunk: Buffer) => {
    if (closed) return;
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= HEADER_BYTES) {
      const kind = buffered[0];
      const length = buffered.readUInt32BE(1);
      if (kind !== TEXT && kind !== BINARY) return refuse('a message of an unknown kind arrived');
      if (length > MAX_MESSAGE_BYTES) return refuse('a message was larger than 64 MiB');
      if (buffered.length < HEADER_BYTES + length) break;
      // A copy: the listener may keep the frame, and the buffer behind `buffered` is reused by the next read.
      const payload = Buffer.from(buffered.subarray(HEADER_BYTES, HEADER_BYTES + length));
      buffered = buffered.subarray(HEADER_BYTES + length);
      const message = kind === TEXT ? payload.toString('utf8') : new Uint8Array(payload);
      for (const l of messageListeners) l(message);
    }
  });
  input.on('end', () => end('the connection ended'));
  input.on('close', () => end('the connection closed'));
  input.on('error', (err) => end(err.message));
  output.on('error', (err) => end(err.message));
  return {
    send(data) {
      if (!closed) output.write(encodeStdioMessage(data));
    },
    onMessage: (listener) => void messageListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
    close() {
      close();
      end('closed');
    },
  };
}
