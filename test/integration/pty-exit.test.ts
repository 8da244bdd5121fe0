// An agent's exit, as the core reports it: after every byte the agent wrote, and as soon as that was read (the PTY
// hangs up), not when node-pty's fallback gives up on the PTY 200 ms after the exit.
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLOW } from '../../electron/core/pty/flow.js';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';
import type { Terminal } from '../../electron/core/pty/terminal.js';

let host: PtyHost;
beforeEach(() => {
  host = new PtyHost(null);
});
afterEach(async () => {
  await host.stopAll();
  host.close();
});

function spawnNode(script: string): Terminal {
  return host.spawn({
    argv: [process.execPath, '-e', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    cols: 80,
    rows: 24,
  });
}

/**
 * Whether node-pty's fallback ended a PTY while `body` ran: node-pty arms a 200 ms timer when the child exits and
 * destroys the PTY's socket when it fires before the socket closed by itself (node-pty/lib/unixTerminal.js,
 * DESTROY_SOCKET_TIMEOUT_MS); whatever is unread then is dropped, and only then is the exit reported.
 */
async function watchingNodePtyFallback(body: () => Promise<void>): Promise<{ fired: number }> {
  const seen = { fired: 0 };
  const original = globalThis.setTimeout;
  const patched = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const fromNodePty = ms === 200 && (new Error().stack ?? '').includes('node-pty');
    const wrapped = fromNodePty
      ? (...a: unknown[]) => {
          seen.fired++;
          handler(...a);
        }
      : handler;
    return original(wrapped, ms, ...args);
  };
  globalThis.setTimeout = Object.assign(patched, original);
  try {
    await body();
  } finally {
    globalThis.setTimeout = original;
  }
  return seen;
}

/** Attaches from offset 0 and collects every byte; acks at once unless `holdAcks` (then only when told). */
async function collect(t: Terminal, holdAcks = false) {
  const chunks: Buffer[] = [];
  let got = 0;
  const attached = await t.attach(0, true, (f: StreamFrame) => {
    if (f.kind !== 'bytes') throw new Error('unexpected reset');
    chunks.push(Buffer.from(f.data));
    got = f.offset + f.data.length;
    if (!holdAcks) attached.subscription.ack(got);
  });
  return {
    text: () => Buffer.concat(chunks).toString('latin1'),
    bytes: () => got,
    ackAll: () => attached.subscription.ack(got),
    close: () => attached.subscription.close(),
  };
}

describe('an agent that exits', () => {
  it('is reported exited once its last output is read, without waiting for node-pty to give up on its PTY', async () => {
    const exits: number[] = [];
    let text = '';
    const fallback = await watchingNodePtyFallback(async () => {
      for (let i = 0; i < 3; i++) {
        const t = spawnNode(`process.stdout.write('x'.repeat(300000) + 'last line ${i}'); process.exitCode = ${7 + i}`);
        const out = await collect(t);
        const exit = await new Promise<number>((r) => t.onExit((e) => r(e.exitCode)));
        exits.push(exit);
        text += out.text().slice(-11);
        // Everything the agent wrote was delivered before its exit was.
        expect(out.bytes()).toBe(300_011);
        out.close();
      }
    });
    expect(exits).toEqual([7, 8, 9]);
    expect(text).toBe('last line 0last line 1last line 2');
    expect(fallback.fired).toBe(0);
  });

  it('loses nothing it wrote while its pane was too slow to take it (the PTY paused)', async () => {
    // A little more than the PTY is read ahead of a pane's acks: it is paused with the rest in the kernel at the exit.
    const size = FLOW.highWatermark + 12_000;
    const t = spawnNode(`process.stdout.write('y'.repeat(${size - 4}) + 'tail')`);
    const out = await collect(t, true);
    const exited = new Promise<void>((r) => t.onExit(() => r()));
    await exited;
    expect(t.endOffset).toBe(size);
    out.ackAll();
    for (let i = 0; i < 100 && out.bytes() < size; i++) {
      await new Promise((r) => setTimeout(r, 20));
      out.ackAll();
    }
    expect(out.bytes()).toBe(size);
    expect(out.text().endsWith('ytail')).toBe(true);
  });
});
