// xterm refuses a write (it throws) once 50 MB wait in a terminal's write buffer, and the core lets a mirror's backlog
// reach 48 MiB before it pauses the PTY: a sustained flood threw on the mirror thread and took every terminal's mirror
// with it. The thread now hands xterm at most 32 MiB per terminal and holds the rest, in order.
import { expect, it } from 'vitest';
import { mirrorsPerTest } from '../helpers/mirrors.js';

const open = mirrorsPerTest();

it('a mirror fed past xterm’s limit keeps every byte, and the thread and the other terminals’ mirrors live on', async () => {
  const other = open(100);
  const flooded = open(100);
  other.write(Buffer.from('before the flood\r\n'));
  const mib = Buffer.from(`${'x'.repeat(1022)}\r\n`.repeat(1024));
  const total = 56;
  for (let i = 0; i < total; i++) flooded.write(mib);
  other.write(Buffer.from('after the flood\r\n'));
  const screen = await other.capture(5);
  expect(screen.text).toContain('before the flood');
  expect(screen.text).toContain('after the flood');
  const floodedScreen = await flooded.capture(1);
  expect(floodedScreen.offset).toBe(total * mib.length);
  flooded.write(Buffer.from('\r\nstill parsed afterwards\r\n'));
  expect((await flooded.capture(3)).text).toContain('still parsed afterwards');
}, 60_000);
