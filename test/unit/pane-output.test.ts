// A pane's output reaches its xterm whole and in order, and the core hears of it once parsed: at most once per
// ACK_BATCH_BYTES while more is queued, and always once the queue runs dry, so the core's window never waits on an
// ack the page holds back (renderer/panes/pane-output.ts).
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACK_BATCH_BYTES,
  discardOutput,
  queuedBytes,
  setOutputTuning,
  writeOutput,
} from '../../renderer/panes/pane-output.js';
import type { PaneTerminal } from '../../renderer/panes/pane-terminal.js';

/** A pane whose xterm queues writes and parses them when told to, and whose stream records its acks. */
function pane() {
  const got: number[] = [];
  const parses: (() => void)[] = [];
  const acks: number[] = [];
  const term = {
    write(data: Uint8Array, parsed?: () => void) {
      parses.push(() => {
        got.push(...data);
        parsed?.();
      });
    },
  };
  const p = { agentId: `a${Math.random()}`, term, stream: { ack: (at: number) => acks.push(at) } };
  let offset = 0;
  return {
    pane: p as unknown as PaneTerminal,
    got,
    acks,
    /** Bytes arrive from the core. */
    receive(data: Uint8Array) {
      offset += data.length;
      writeOutput(p as unknown as PaneTerminal, data, offset);
    },
    /** xterm parses `n` queued writes (all of them without `n`). */
    parse(n = Infinity) {
      for (let i = 0; i < n && parses.length > 0; i++) parses.shift()!();
    },
    offset: () => offset,
  };
}

const frame = (n: number, from: number) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251);

afterEach(() => {
  setOutputTuning({ ackBatchBytes: ACK_BATCH_BYTES });
});

describe('pane output', () => {
  it('acks a flood in batches once parsed, every byte in order, and the last byte once the queue runs dry', () => {
    const p = pane();
    const sent: number[] = [];
    for (let i = 0; i < 64; i++) {
      const f = frame(8 * 1024, i * 8 * 1024);
      sent.push(...f);
      p.receive(f);
    }
    expect(p.acks).toEqual([]); // nothing parsed yet, nothing acked
    expect(queuedBytes(p.pane)).toBe(512 * 1024);
    p.parse();
    expect(p.got).toEqual(sent);
    expect(p.acks.length).toBe((512 * 1024) / ACK_BATCH_BYTES);
    expect(p.acks.at(-1)).toBe(p.offset());
    const steps = p.acks.map((a, i) => a - (p.acks[i - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(ACK_BATCH_BYTES);
    expect(queuedBytes(p.pane)).toBe(0);
  });

  it('acks at once whatever leaves the queue empty (a keystroke echo, a trickle)', () => {
    const p = pane();
    for (let i = 0; i < 5; i++) {
      p.receive(frame(3, i));
      p.parse();
      expect(p.acks.at(-1)).toBe(p.offset());
    }
    expect(p.acks).toHaveLength(5);
  });

  it('acks part of a long queue before all of it is parsed (the core keeps sending)', () => {
    const p = pane();
    for (let i = 0; i < 40; i++) p.receive(frame(16 * 1024, i));
    p.parse(ACK_BATCH_BYTES / (16 * 1024));
    expect(p.acks).toEqual([ACK_BATCH_BYTES]);
  });

  it('acks after every write when batching is off', () => {
    setOutputTuning({ ackBatchBytes: 0 });
    const p = pane();
    for (let i = 0; i < 10; i++) p.receive(frame(1024, i));
    p.parse();
    expect(p.acks).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1) * 1024));
  });

  it('starts counting afresh when the screen is replaced, and still acks what follows', () => {
    const p = pane();
    for (let i = 0; i < 4; i++) p.receive(frame(32 * 1024, i));
    discardOutput(p.pane); // a reset from the core: the writes before it are xterm's, uncounted
    expect(queuedBytes(p.pane)).toBe(0);
    p.receive(frame(100, 0));
    p.parse();
    expect(p.acks.at(-1)).toBe(p.offset());
    expect(queuedBytes(p.pane)).toBe(0);
  });
});
