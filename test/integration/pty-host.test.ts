import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PtyHost } from '../../electron/core/pty/pty-host.js';
import { readProcesses, sessionTree } from '../../electron/core/pty/process-tree.js';
import type { Terminal } from '../../electron/core/pty/terminal.js';
import type { StreamFrame } from '../../electron/core/pty/subscriber.js';
import { killWithEnv, procsWithEnv, waitEnvGone } from '../helpers/processes.js';

/**
 * Set in every agent's environment by the test itself, so the test finds the agent's processes through
 * /proc/<pid>/environ on its own, whatever the product recorded, also a job that left the session and was
 * re-parented to init.
 */
const TAG = 'BATON_TEST_PTY_TAG';
const tag = randomUUID();

const hosts: PtyHost[] = [];
const dirs: string[] = [];
function newHost(): PtyHost {
  const dir = mkdtempSync(join(tmpdir(), 'baton-pty-'));
  dirs.push(dir);
  const host = new PtyHost(join(dir, 'processes.json'));
  hosts.push(host);
  return host;
}
afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.stopAll();
    h.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  // Whatever a failed test left running must not outlive the test run.
  killWithEnv(TAG, tag);
});

function spawnShell(host: PtyHost, script: string): Terminal {
  return host.spawn({
    argv: ['/bin/bash', '--noprofile', '--norc', '-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', [TAG]: tag },
    cols: 80,
    rows: 24,
  });
}

/** Field 6 of /proc/<pid>/stat, the session id; null once the process is gone. */
function sessionOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return null;
  }
}

async function waitFor<T>(probe: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PtyHost', () => {
  it('stopping an agent leaves no process behind, not even a background job that ignores SIGHUP and SIGTERM', async () => {
    const host = newHost();
    const t = spawnShell(
      host,
      // A job in its own process group that ignores HUP and TERM, and a grandchild that left the session.
      `set -m; (trap '' HUP TERM; while :; do sleep 0.2; done) & (setsid sh -c 'trap "" HUP TERM; while :; do sleep 0.2; done' &) ; echo ready; while :; do sleep 1; done`,
    );
    await waitFor(() => (t.endOffset > 0 ? true : false), 'ready');
    const tree = await waitFor(() => {
      const list = sessionTree(t.pid);
      return list.length >= 4 ? list : undefined;
    }, 'the background jobs');
    // The grandchild that left the session, found by the test's own variable: re-parented (to init or a
    // subreaper) and leading a session of its own, so neither parent links nor the agent's session lead to it.
    const escaped = await waitFor(
      () => procsWithEnv(TAG, tag).find((p) => p.comm === 'sh' && sessionOf(p.pid) === p.pid),
      'the job that left the session',
    );
    expect(escaped.ppid).not.toBe(t.pid);
    // The agent's mark reached it too: the product can find it the same way.
    expect(procsWithEnv('BATON_AGENT_MARK', t.mark.value).map((p) => p.pid)).toContain(escaped.pid);
    // The tracker records the tree on its own passes (it rarely sees the grandchild, whose subshell exits at once);
    // wait for a pass rather than a fixed time, which a loaded machine can outlast.
    await waitFor(() => t.recordedProcesses().length >= tree.length, 'the tracker to record the agent tree');
    await t.stop(1000);
    // Nothing that inherited the agent's environment may be left; a `sleep 0.2` forked during the stop by a
    // killed loop ends on its own within a moment, so allow that long.
    expect(await waitEnvGone(TAG, tag, 1000)).toEqual([]);
    expect(await waitEnvGone('BATON_AGENT_MARK', t.mark.value, 0)).toEqual([]);
    expect(t.exited).not.toBeNull();
  });

  it('a client that reattaches from its last offset gets exactly the missing bytes; one too far behind gets a reset', async () => {
    const host = newHost();
    // 6 MB of deterministic output without newlines (so the terminal passes it through unchanged).
    const t = spawnShell(
      host,
      `node -e "const b=Buffer.alloc(1<<16); let n=0; for(let i=0;i<96;i++){for(let j=0;j<b.length;j++)b[j]=65+((i*7+j)%26); process.stdout.write(b)}"`,
    );
    const received: Buffer[] = [];
    let got = 0;
    let sub = await t.attach(0, true, (f: StreamFrame) => {
      if (f.kind !== 'bytes') throw new Error('unexpected reset');
      expect(f.offset).toBe(got);
      // A frame is a view of the ring (valid until newer output overwrites it): kept, it is copied.
      received.push(Buffer.from(f.data));
      got += f.data.length;
      if (got < 2_000_000) sub.subscription.ack(got);
    });
    expect(sub.start.mode).toBe('bytes');
    await waitFor(() => got >= 2_000_000, 'first 2 MB');
    // Drop without acking: flow control pauses the PTY, so the gap stays within the ring.
    sub.subscription.close();
    const last = got;
    const again = await t.attach(last, true, (f) => {
      if (f.kind !== 'bytes') throw new Error('unexpected reset');
      expect(f.offset).toBe(got);
      received.push(Buffer.from(f.data));
      got += f.data.length;
      again.subscription.ack(got);
    });
    expect(again.start.mode).toBe('bytes');
    if (again.start.mode === 'bytes') {
      received.push(Buffer.from(again.start.data));
      got += again.start.data.length;
      again.subscription.ack(got);
    }
    await new Promise<void>((r) => t.onExit(() => r()));
    await waitFor(() => got >= 96 * 65536, 'all output');
    const expected = Buffer.alloc(96 * 65536);
    for (let i = 0; i < 96; i++) for (let j = 0; j < 65536; j++) expected[i * 65536 + j] = 65 + ((i * 7 + j) % 26);
    const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(got).toBe(expected.length);
    expect(hash(Buffer.concat(received))).toBe(hash(expected));

    // Too far behind: offset 0 is long gone from the ring. (The mirror may still be parsing the burst it held back: a
    // reset then starts at its offset, with the rest from the ring. A capture first waits for it, to see it whole.)
    await t.capture();
    const late = await t.attach(0, true, () => {});
    expect(late.start.mode).toBe('reset');
    expect(late.start.offset).toBe(expected.length);
  });
});
