// A remote terminal's local screen is parsed only when asked for (electron/core/remote/lazy-mirror.ts): it must be the
// same screen an eager mirror shows, at the same offset, and after more output than it holds it starts from the remote
// core's screen instead of losing what scrolled by.
import { afterEach, describe, expect, it } from 'vitest';
import type { Screen } from '../../shared/contract.js';
import { Mirror } from '../../electron/core/pty/mirror.js';
import { FLOW } from '../../electron/core/pty/flow.js';
import { LazyMirror } from '../../electron/core/remote/lazy-mirror.js';

const held: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of held.splice(0)) d.dispose();
});

describe('the lazy mirror of a remote terminal', () => {
  it('shows what an eager mirror shows, resizes in their place, with the stream offset', async () => {
    const remoteAsked: number[] = [];
    const lazy = new LazyMirror(40, 10, () => {
      remoteAsked.push(1);
      return Promise.resolve(null);
    });
    const eager = new Mirror(40, 10, FLOW.mirrorScrollback);
    held.push(lazy, eager);
    const chunks = ['hello \x1b[1mbold\x1b[0m world\r\n', 'a line long enough to wrap at forty columns, surely\r\n'];
    let bytes = 0;
    for (const c of chunks) {
      lazy.write(Buffer.from(c));
      eager.write(Buffer.from(c));
      bytes += Buffer.byteLength(c);
    }
    lazy.resize(20, 10);
    eager.resize(20, 10);
    const after = 'after the resize\r\n';
    lazy.write(Buffer.from(after));
    eager.write(Buffer.from(after));
    bytes += after.length;
    const [a, b] = await Promise.all([lazy.capture(), eager.capture()]);
    expect(a).toEqual(b);
    expect(a.offset).toBe(bytes);
    expect(a.cols).toBe(20);
    // Only what arrived since is parsed for the next screen.
    lazy.write(Buffer.from('more\r\n'));
    expect((await lazy.capture()).text).toContain('more');
    expect((await lazy.capture()).offset).toBe(bytes + 6);
    expect(remoteAsked).toEqual([]);
  });

  it('starts from the remote screen once more than a ring of output came since the last screen', async () => {
    const remote: Screen = {
      agentId: 'a',
      label: 'a',
      cols: 50,
      rows: 12,
      text: 'REMOTE-SCREEN',
      serialized: 'REMOTE-SCREEN\r\n',
    };
    let asked = 0;
    const lazy = new LazyMirror(80, 24, () => {
      asked++;
      return Promise.resolve(remote);
    });
    held.push(lazy);
    const flood = Buffer.from('x'.repeat(1023) + '\n');
    let end = 0;
    // A little more than a ring's worth.
    for (let i = 0; i < Math.ceil(FLOW.ringBytes / flood.length) + 64; i++) {
      lazy.write(flood);
      end += flood.length;
    }
    const screen = await lazy.capture();
    expect(asked).toBe(1);
    expect(screen.text).toContain('REMOTE-SCREEN');
    expect(screen.offset).toBe(end);
    // The terminal's own size comes back after the remote screen; what follows is parsed on top of it.
    lazy.write(Buffer.from('tail\r\n'));
    const next = await lazy.capture();
    expect(asked).toBe(1);
    expect(next.text).toMatch(/REMOTE-SCREEN[\s\S]*tail/);
    expect(next.offset).toBe(end + 6);
    expect(next.cols).toBe(80);
  });
});
