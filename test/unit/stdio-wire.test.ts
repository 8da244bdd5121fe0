// The ssh link's framing: text and terminal bytes arrive whole and in order however the stream cuts them, and a
// garbled stream ends the link instead of delivering a wrong message.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { encodeStdioMessage, stdioWire } from '../../electron/core/remote/stdio-wire.js';

function link() {
  const input = new PassThrough();
  const output = new PassThrough();
  let closedByWire = false;
  const wire = stdioWire(input, output, () => (closedByWire = true));
  const got: (string | Uint8Array)[] = [];
  const reasons: string[] = [];
  wire.onMessage((m) => got.push(m));
  wire.onClose((r) => reasons.push(r));
  return { input, output, wire, got, reasons, closed: () => closedByWire };
}

describe('the ssh stdio wire', () => {
  it('delivers text and binary messages whole when the stream cuts them at every byte', () => {
    const l = link();
    const bytes = new Uint8Array([0, 1, 2, 0xe2, 0x82, 0xac, 10, 255]);
    const stream = Buffer.concat([encodeStdioMessage('{"t":"res","id":1}'), encodeStdioMessage(bytes)]);
    for (const b of stream) l.input.write(Buffer.from([b]));
    expect(l.got).toEqual(['{"t":"res","id":1}', bytes]);
  });

  it('writes what it sends in the same framing', () => {
    const l = link();
    l.wire.send('héllo');
    l.wire.send(new Uint8Array([9, 8, 7]));
    const written = Buffer.concat([l.output.read() as Buffer]);
    expect(written).toEqual(
      Buffer.concat([encodeStdioMessage('héllo'), encodeStdioMessage(new Uint8Array([9, 8, 7]))]),
    );
  });

  it('ends the link on a message of an unknown kind or over 64 MiB, delivering nothing of it', () => {
    const bad = link();
    bad.input.write(Buffer.from([7, 0, 0, 0, 1, 65]));
    expect(bad.got).toEqual([]);
    expect(bad.reasons).toEqual(['a message of an unknown kind arrived']);
    expect(bad.closed()).toBe(true);
    const huge = link();
    const header = Buffer.from([1, 0, 0, 0, 0]);
    header.writeUInt32BE((64 << 20) + 1, 1);
    huge.input.write(header);
    expect(huge.reasons).toEqual(['a message was larger than 64 MiB']);
  });
});
