// Acknowledged input, both halves without a network in between: the sender's ledger (shared/input-ledger.ts) and the
// core's record of what it wrote per channel (input-sequences.ts). A connection here is a list of frames in flight
// that a drop throws away; the "PTY" is the text the core wrote. What the user typed must end up in it exactly once,
// in order, or the user must have been told in the pane.
import { describe, expect, it } from 'vitest';
import { InputLedger, type NumberedInput } from '../../shared/input-ledger.js';
import { InputSequences } from '../../electron/core/transport/input-sequences.js';

const TERMINAL = 't_1';
const decoder = new TextDecoder();

/** One sender and one core, joined by connections that can drop with frames still in flight. */
function harness(limit?: number) {
  const told: string[] = [];
  const ledger = new InputLedger((m) => told.push(m), limit);
  const core = new InputSequences();
  let pty = '';
  let inFlight: NumberedInput[] = [];
  let sender: ((input: NumberedInput) => void) | null = null;
  /** The core reads what is in flight and writes the new frames; returns what it would confirm. */
  const deliver = (count = inFlight.length): number => {
    for (const input of inFlight.splice(0, count))
      if (core.take(TERMINAL, ledger.channel, input.seq)) pty += decoder.decode(input.data);
    return core.writtenOf(TERMINAL, ledger.channel);
  };
  const connect = () => {
    sender = (input) => inFlight.push(input);
    ledger.bind(core.writtenOf(TERMINAL, ledger.channel), sender);
  };
  /** The connection dies: what was in flight is gone, and this side learns of it. */
  const drop = () => {
    inFlight = [];
    if (sender) ledger.unbind(sender);
    sender = null;
  };
  return { ledger, told, connect, drop, deliver, pty: () => pty, inFlight: () => inFlight };
}

describe('acknowledged input', () => {
  it('re-sends only what the core has not written after a partial ack, so every key arrives once, in order', () => {
    const h = harness();
    h.connect();
    h.ledger.type('ab');
    h.ledger.type('cd');
    h.ledger.acknowledge(h.deliver(1)); // 'ab' written and confirmed
    h.ledger.type('ef');
    h.deliver(1); // 'cd' written, its confirmation lost with the connection
    h.drop(); // 'ef' was in flight
    h.ledger.type('gh'); // typed while down: kept
    expect(h.inFlight()).toEqual([]);
    h.connect();
    h.deliver();
    expect(h.pty()).toBe('abcdefgh');
    expect(h.told).toEqual([]);
  });

  it('drops a re-sent frame the core already wrote (a connection that delivered after this side gave it up)', () => {
    const h = harness();
    h.connect();
    h.ledger.type('one ');
    h.ledger.type('two ');
    // This side gives up the connection, but the core still reads both frames from it before it ends.
    const stale = [...h.inFlight()];
    h.drop();
    h.connect(); // the core had not written them yet at the attach: both are sent again
    const again = h.inFlight().length;
    h.inFlight().unshift(...stale);
    h.deliver();
    expect(again).toBe(2);
    expect(h.pty()).toBe('one two ');
    h.ledger.type('three');
    h.ledger.acknowledge(h.deliver());
    expect(h.pty()).toBe('one two three');
    expect(h.ledger.pendingBytes).toBe(0);
  });

  it('keeps at most its bound while disconnected and tells the user what was not delivered', () => {
    const h = harness(8);
    h.ledger.type('12345678'); // fits exactly
    h.ledger.type('9');
    h.ledger.type('0');
    expect(h.told).toHaveLength(1);
    expect(h.told[0]).toMatch(/input not delivered/);
    h.connect();
    expect(h.told).toHaveLength(2);
    expect(h.told[1]).toMatch(/2 bytes of what you typed while disconnected was dropped/);
    h.deliver();
    expect(h.pty()).toBe('12345678');
  });

  it('sends beyond its bound on a live stream, and tells the user only if such input was lost in a drop', () => {
    const h = harness(4);
    h.connect();
    h.ledger.type('abcd');
    h.ledger.type('efgh'); // no room for a copy: sent without one
    h.ledger.acknowledge(h.deliver());
    h.ledger.type('ijkl');
    h.ledger.type('mnop'); // no copy, and the connection drops with it in flight
    h.drop();
    h.connect();
    h.deliver();
    expect(h.pty()).toBe('abcdefghijkl');
    expect(h.told).toEqual([expect.stringMatching(/4 bytes typed just before the connection dropped did not arrive/)]);
  });

  it('ignores confirmations of numbers it never gave, and a pasted text arrives whole across pieces', () => {
    const h = harness();
    h.connect();
    const paste = `${'x'.repeat(16 * 1024 - 1)}😀${'y'.repeat(20_000)}`;
    h.ledger.type(paste);
    expect(h.inFlight().length).toBeGreaterThan(1);
    for (const bogus of [99, -1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) h.ledger.acknowledge(bogus);
    h.drop();
    h.connect();
    h.deliver();
    expect(h.pty()).toBe(paste);
  });
});
