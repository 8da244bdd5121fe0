// The binary frames of the wire: terminal bytes travel as bytes (a WebSocket binary message, an ArrayBuffer on a
// MessagePort), never as base64 inside JSON. Control messages (requests, replies, events, acks, resets, visibility)
// stay JSON and are checked by zod (wire.ts). Both directions share one 8-byte header, little-endian:
//
//   byte 0     kind        1 = output (core → client), 2 = input (client → core), 3 = numbered input (client → core)
//   byte 1..3  reserved    0
//   byte 4..7  stream      u32, the stream id the client gave in its `agent.attach` (one attach, one id)
//   output only: byte 8..15 offset (f64, a safe non-negative integer): the payload is the bytes at [offset, +n)
//   numbered input only: byte 8..15 seq (f64, a safe integer ≥ 1): the frame's number on its channel (input-seq.ts)
//   then       payload     output: raw terminal bytes; input: UTF-8 of what the user typed
//
// Anything else (short, unknown kind, reserved bits set, an offset that is not a safe integer) is malformed and
// refused by `readFrame`, which never throws.

export const FRAME_KIND = { output: 1, input: 2, numberedInput: 3 } as const;
export type FrameKind = (typeof FRAME_KIND)[keyof typeof FRAME_KIND];

const HEADER_BYTES = 8;
const OUTPUT_HEADER_BYTES = 16;
/** Stream ids are u32; 0 is never given (so a zeroed buffer is never a valid frame). */
export const MAX_STREAM_ID = 0xffff_ffff;

export type Frame =
  | { kind: 'output'; stream: number; offset: number; data: Uint8Array }
  /** `seq` is null for a plain input frame, the frame's number for a numbered one. */
  | { kind: 'input'; stream: number; seq: number | null; data: Uint8Array };

export type FrameResult = { ok: true; frame: Frame } | { ok: false; reason: string };

export const isStreamId = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= MAX_STREAM_ID;

/** One output frame: the header and a copy of `data`, in one buffer the transport can send (or transfer) as it is. */
export function outputFrame(stream: number, offset: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(OUTPUT_HEADER_BYTES + data.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, FRAME_KIND.output);
  view.setUint32(4, stream, true);
  view.setFloat64(8, offset, true);
  out.set(data, OUTPUT_HEADER_BYTES);
  return out;
}

/** One input frame: what the user typed, as UTF-8. */
export function inputFrame(stream: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + data.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, FRAME_KIND.input);
  view.setUint32(4, stream, true);
  out.set(data, HEADER_BYTES);
  return out;
}

/** One numbered input frame: what the user typed, as UTF-8, with its number on the stream's input channel. */
export function numberedInputFrame(stream: number, seq: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(OUTPUT_HEADER_BYTES + data.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, FRAME_KIND.numberedInput);
  view.setUint32(4, stream, true);
  view.setFloat64(8, seq, true);
  out.set(data, OUTPUT_HEADER_BYTES);
  return out;
}

/** Reads a frame's header; the payload is a view into `bytes` (no copy). */
export function readFrame(bytes: Uint8Array): FrameResult {
  if (bytes.length < HEADER_BYTES) return { ok: false, reason: 'a binary frame shorter than its header' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = view.getUint8(0);
  if (view.getUint8(1) !== 0 || view.getUint16(2, true) !== 0)
    return { ok: false, reason: 'a binary frame with reserved header bits set' };
  const stream = view.getUint32(4, true);
  if (!isStreamId(stream)) return { ok: false, reason: 'a binary frame for stream 0' };
  if (kind === FRAME_KIND.input)
    return { ok: true, frame: { kind: 'input', stream, seq: null, data: bytes.subarray(HEADER_BYTES) } };
  if (kind === FRAME_KIND.numberedInput) {
    if (bytes.length < OUTPUT_HEADER_BYTES)
      return { ok: false, reason: 'a numbered input frame shorter than its header' };
    const seq = view.getFloat64(8, true);
    if (!Number.isSafeInteger(seq) || seq < 1)
      return { ok: false, reason: 'a numbered input frame whose number is not a safe integer ≥ 1' };
    return { ok: true, frame: { kind: 'input', stream, seq, data: bytes.subarray(OUTPUT_HEADER_BYTES) } };
  }
  if (kind !== FRAME_KIND.output) return { ok: false, reason: `a binary frame of unknown kind ${kind}` };
  if (bytes.length < OUTPUT_HEADER_BYTES) return { ok: false, reason: 'an output frame shorter than its header' };
  const offset = view.getFloat64(8, true);
  if (!Number.isSafeInteger(offset) || offset < 0)
    return { ok: false, reason: 'an output frame whose offset is not a byte offset' };
  return { ok: true, frame: { kind: 'output', stream, offset, data: bytes.subarray(OUTPUT_HEADER_BYTES) } };
}
