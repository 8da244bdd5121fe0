// The binary frame codec both ends use: what one side writes the other reads back exactly, and a malformed frame is
// refused with a reason (never an exception, never a frame with a made-up stream or offset).
import { describe, expect, it } from 'vitest';
import { inputFrame, numberedInputFrame, outputFrame, readFrame } from '../../shared/contract.js';

describe('binary frames', () => {
  it('an output frame reads back as its stream, offset and bytes; an input frame as its stream and bytes', () => {
    const data = new TextEncoder().encode('héllo 😀');
    const out = readFrame(outputFrame(7, 2 ** 40 + 3, data));
    expect(out).toEqual({ ok: true, frame: { kind: 'output', stream: 7, offset: 2 ** 40 + 3, data } });
    const typed = readFrame(inputFrame(0xffff_ffff, data));
    expect(typed).toEqual({ ok: true, frame: { kind: 'input', stream: 0xffff_ffff, seq: null, data } });
    // A frame read out of a larger buffer (as a socket hands it) reads the same.
    const framed = outputFrame(3, 10, data);
    const big = new Uint8Array(framed.length + 9);
    big.set(framed, 5);
    expect(readFrame(big.subarray(5, 5 + framed.length))).toEqual({
      ok: true,
      frame: { kind: 'output', stream: 3, offset: 10, data },
    });
  });

  it('refuses short frames, unknown kinds, reserved bits, stream 0 and offsets that are not byte offsets', () => {
    const bad = (bytes: Uint8Array) => {
      const r = readFrame(bytes);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(bad(new Uint8Array([1, 0, 0]))).toMatch(/shorter than its header/);
    expect(bad(new Uint8Array([4, 0, 0, 0, 1, 0, 0, 0]))).toMatch(/unknown kind 4/);
    expect(bad(new Uint8Array([3, 0, 0, 0, 1, 0, 0, 0]))).toMatch(/numbered input frame shorter/);
    expect(bad(new Uint8Array([2, 0, 1, 0, 1, 0, 0, 0]))).toMatch(/reserved/);
    expect(bad(new Uint8Array([2, 0, 0, 0, 0, 0, 0, 0]))).toMatch(/stream 0/);
    expect(bad(new Uint8Array([1, 0, 0, 0, 1, 0, 0, 0, 0]))).toMatch(/output frame shorter/);
    for (const offset of [-1, 0.5, Number.NaN, 2 ** 53]) {
      const frame = outputFrame(1, 0, new Uint8Array(1));
      new DataView(frame.buffer).setFloat64(8, offset, true);
      expect(bad(frame)).toMatch(/not a byte offset/);
    }
    for (const seq of [0, -1, 0.5, Number.NaN, 2 ** 53]) {
      const frame = numberedInputFrame(1, 1, new Uint8Array(1));
      new DataView(frame.buffer).setFloat64(8, seq, true);
      expect(bad(frame)).toMatch(/number is not a safe integer/);
    }
  });

  it('a numbered input frame reads back as its stream, number and bytes', () => {
    const data = new TextEncoder().encode('ké');
    expect(readFrame(numberedInputFrame(9, 2 ** 40, data))).toEqual({
      ok: true,
      frame: { kind: 'input', stream: 9, seq: 2 ** 40, data },
    });
  });
});
