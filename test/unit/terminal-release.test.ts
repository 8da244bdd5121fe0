// Closing a terminal or the PTY host gives back everything they took: no timer, immediate or PTY handle created by
// the core outlives them, every mirror's xterm is freed, and no client hears from a closed terminal again. Watched
// with async_hooks, which sees every timer and handle from creation to destruction, unref'd ones included (the
// host's tracking interval is unref'd, so process.getActiveResourcesInfo() would not show it).
import { createHook } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../electron/core/pty/proc-stat.js';
import { liveMirrorCount, mirrorThreadCount } from '../../electron/core/pty/mirror.js';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';
import type { Terminal } from '../../electron/core/pty/terminal.js';

/** A resource is the core's when its creation stack passes through the core or node-pty (not vitest, not this file). */
const OURS = /[/\\]electron[/\\]core[/\\]|[/\\]node-pty[/\\]/;
/** One-shot requests (a file write, random bytes for a temp name): they end with their operation, and some report
 * their end only when collected. What is watched is what can be held: timers, immediates, handles, threads. */
const TRANSIENT = /^(?:PROMISE|TickObject|Microtask|WRITEWRAP|SHUTDOWNWRAP)$|REQ/;

interface Resource {
  type: string;
  stack: string;
}

const live = new Map<number, Resource>();
const hook = createHook({
  init(id, type) {
    if (TRANSIENT.test(type)) return;
    const stack = new Error().stack ?? '';
    if (OURS.test(stack)) live.set(id, { type, stack });
  },
  destroy(id) {
    live.delete(id);
  },
});

/** The core's live resources, each as its type and the first frame of ours that created it (past lifecycle.ts). */
function leftovers(filter: (r: Resource) => boolean = () => true): string[] {
  const where = (r: Resource) =>
    r.stack
      .split('\n')
      .find((l) => OURS.test(l) && !l.includes('lifecycle.ts'))
      ?.trim() ?? '?';
  return [...live.values()].filter(filter).map((r) => `${r.type} from ${where(r)}`);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function until(probe: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Settles once nothing of the core's is left (node-pty closes its socket a moment after the exit), or gives up. */
async function settled(filter?: (r: Resource) => boolean, ms = 5000): Promise<string[]> {
  const deadline = Date.now() + ms;
  while (leftovers(filter).length > 0 && Date.now() < deadline) await sleep(25);
  return leftovers(filter);
}

const dirs: string[] = [];
const hosts: PtyHost[] = [];
function newHost(): PtyHost {
  const dir = mkdtempSync(join(tmpdir(), 'baton-release-'));
  dirs.push(dir);
  const host = new PtyHost(join(dir, 'processes.json'));
  hosts.push(host);
  return host;
}

function spawn(host: PtyHost, script: string): Terminal {
  return host.spawn({
    argv: ['/bin/bash', '--noprofile', '--norc', '-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
    cols: 80,
    rows: 24,
  });
}

/** 3 MB without a newline, then idle: a client that never acks makes flow control pause the PTY. */
const FLOOD = `head -c 3000000 /dev/zero | tr '\\0' a; exec sleep 60`;

let mirrorsBefore = 0;

beforeAll(async () => {
  Error.stackTraceLimit = 50;
  // The mirror threads are the process's, each started by its first terminal and kept: start them before watching.
  const warm = new PtyHost(null);
  const started = Array.from({ length: mirrorThreadCount() }, () =>
    warm.spawn({
      argv: ['/bin/true'],
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
    }),
  );
  await Promise.all(started.map((t) => new Promise<void>((r) => t.onExit(() => r()))));
  await warm.stopAll();
  warm.close();
  await sleep(300);
  mirrorsBefore = liveMirrorCount();
  hook.enable();
});

afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.stopAll();
    h.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

afterAll(() => hook.disable());

describe('closing terminals releases what they hold', () => {
  it('a host closed after its terminals stopped leaves no timer, PTY handle, mirror or subscription behind', async () => {
    const host = newHost();
    const flood = spawn(host, FLOOD);
    const echo = spawn(host, `while IFS= read -r line; do echo "got $line"; done`);
    const brief = spawn(host, `echo bye`);
    let frames = 0;
    const count = (_f: StreamFrame) => void frames++;
    // The flood's client never acks (its PTY pauses); the echo's acks everything; a hidden one lags and is reset.
    const stuck = await flood.attach(0, true, count);
    const hidden = await flood.attach(0, false, count);
    const follower = await echo.attach(0, true, (f) => {
      count(f);
      if (f.kind === 'bytes') follower.subscription.ack(f.offset + f.data.length);
    });
    echo.resize(100, 30);
    echo.write('hello\r');
    await until(
      () => echo.endOffset > 0 && flood.endOffset > 512 * 1024 && brief.exited !== null,
      'output from all three',
    );
    // The watch sees what the terminals hold while they run (so it can see a leak): the tracker and three PTYs.
    expect(leftovers((r) => r.type === 'TTYWRAP').length).toBeGreaterThanOrEqual(2);
    expect(leftovers((r) => r.type === 'Timeout').length).toBeGreaterThanOrEqual(1);
    expect(liveMirrorCount()).toBe(mirrorsBefore + 3);

    await host.stopAll();
    host.close();
    expect(await settled()).toEqual([]);
    expect(liveMirrorCount()).toBe(mirrorsBefore);
    for (const t of [flood, echo, brief]) expect(t.leader && isAlive(t.leader)).toBeFalsy();
    // No client hears from a closed terminal, and none can attach to it.
    const heard = frames;
    stuck.subscription.ack(flood.endOffset);
    hidden.subscription.setVisible(true);
    await sleep(100);
    expect(frames).toBe(heard);
    await expect(flood.attach(undefined, true, count)).rejects.toThrow(/closed/);
    await expect(flood.capture()).rejects.toThrow(/closed/);
    expect(() => host.spawn({ argv: ['/bin/true'], cwd: tmpdir(), env: {}, cols: 80, rows: 24 })).toThrow(/closed/);
  });

  it('releasing a terminal paused for a slow client ends its watch and PTY handle; closing the host ends the rest', async () => {
    const host = newHost();
    const t = spawn(host, FLOOD);
    await t.attach(0, true, () => {}); // never acks
    const paused = (r: Resource) => r.stack.includes('watchWhilePaused');
    await until(() => leftovers(paused).length > 0, 'flow control to pause the PTY');
    const leader = t.leader;
    expect(leader).not.toBeNull();

    // Released while running: the terminal is hung up, as closing its window would, and gives back all it held.
    host.release(t.id);
    const ofTerminal = (r: Resource) => !r.stack.includes('new PtyHost'); // all but the host's tracking timer
    expect(await settled(ofTerminal)).toEqual([]);
    expect(liveMirrorCount()).toBe(mirrorsBefore);
    await until(() => leader === null || !isAlive(leader), 'the hung-up leader to exit');

    host.close();
    expect(await settled()).toEqual([]);
  });
});
