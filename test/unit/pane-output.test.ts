// A pane's output reaches its xterm whole and in order, and the core hears of each write only once xterm has parsed
// it, up to its last byte (renderer/panes/pane-output.ts): the core's window is what keeps a flood from piling up in
// the page.
import { describe, expect, it } from 'vitest';
import { discardOutput, writeOutput } from '../../renderer/panes/pane-output.js';
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

describe('pane output', () => {
  it('acks only what xterm has parsed, every byte in order, up to the last', () => {
    const p = pane();
    const sent: number[] = [];
    for (let i = 0; i < 8; i++) {
      const f = frame(40 * 1024, i * 7);
      sent.push(...f);
      p.receive(f);
    }
    expect(p.acks).toEqual([]); // received, not parsed: not acked
    p.parse(3 * 3); // 40 KiB frames go to xterm in three pieces each
    expect(p.acks).toEqual([40 * 1024, 80 * 1024, 120 * 1024]);
    p.parse();
    expect(p.got).toEqual(sent);
    expect(p.acks.at(-1)).toBe(p.offset());
  });

  it('acks what follows a replaced screen', () => {
    const p = pane();
    p.receive(frame(100, 0));
    discardOutput(p.pane);
    p.receive(frame(100, 1));
    p.parse();
    expect(p.acks.at(-1)).toBe(p.offset());
  });
});
