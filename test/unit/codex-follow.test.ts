// Codex's follower (docs/vendors.md §2, §11): the thread id read from the writer lock the native process holds in
// /proc, its confirmation, /new, and snapshot-and-claim when /proc shows nothing; the fake's TUI behaviour too.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionObservation, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { CODEX_NO_DAEMON_ARGS } from '../../electron/core/vendors/codex/index.js';
import { processTree } from '../../electron/core/vendors/codex/proc.js';
import type { VendorOptions } from '../../electron/core/vendors/registry.js';
import {
  FAKE,
  SAMPLE_ID,
  UUID7,
  codexVendors,
  sampleStore,
  sleep,
  until,
  uuid7,
  writeRolloutIn,
} from './codex-fixture.js';

let tmp: string;
let store: string;
let env: Record<string, string>;
let codexAdapter: VendorAdapter;
const children: ChildProcess[] = [];
/** A vendor context of this test's own; options shorten timings. */
const useVendors = (options?: VendorOptions) => ({ codexAdapter } = codexVendors(options));
const writeRollout = (id: string, cwd: string, opts?: Parameters<typeof writeRolloutIn>[4]) =>
  writeRolloutIn(store, env, id, cwd, opts);

beforeEach(async () => {
  ({ tmp, store, env } = await sampleStore());
  useVendors();
});

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rm(tmp, { recursive: true, force: true });
});

describe('codex adapter: follow', () => {
  /** The fake codex (wrapper + native child) on pipes, in `cwd`. */
  function startFake(cwd: string, args: string[] = [...CODEX_NO_DAEMON_ARGS]): ChildProcess {
    const child = spawn(process.execPath, [FAKE, ...args], {
      cwd,
      env: { ...process.env, ...env, FAKE_CODEX_DELAY_MS: '10' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    return child;
  }

  async function type(child: ChildProcess, text: string): Promise<void> {
    child.stdin!.write(text);
    await sleep(150);
    child.stdin!.write('\r');
  }

  it('reads the id from the writer lock the native child holds, confirms it after the first turn, follows /new', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const child = startFake(cwd);
    const seen: SessionObservation[] = [];
    const stop = codexAdapter.follow({ pid: child.pid!, cwd, hints: {}, spawnedAt: Date.now() }, env, (s) =>
      seen.push(s),
    );
    try {
      const first = await until(() => seen[0]);
      expect(first.sessionId).toMatch(UUID7);
      expect(first.confirmed).toBe(false);
      // The PTY child is only the wrapper: the lock is held by its child.
      expect(processTree(child.pid!).length).toBeGreaterThanOrEqual(2);

      await type(child, 'remember the number 5');
      await until(() => seen[1]);
      expect(seen[1]).toEqual({ sessionId: first.sessionId, confirmed: true });

      await type(child, '/new');
      await until(() => seen[2]);
      expect(seen[2]!.sessionId).toMatch(UUID7);
      expect(seen[2]!.sessionId).not.toBe(first.sessionId);
      expect(seen[2]!.confirmed).toBe(false);
    } finally {
      stop();
    }
    const count = seen.length;
    await type(child, 'remember the number 6');
    await sleep(800);
    expect(seen).toHaveLength(count);
  });

  it('confirms a resumed thread whose rollout lives in an old folder', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const child = startFake(cwd, ['resume', SAMPLE_ID, ...CODEX_NO_DAEMON_ARGS]);
    const seen: SessionObservation[] = [];
    const stop = codexAdapter.follow(
      { pid: child.pid!, cwd, hints: { sessionId: SAMPLE_ID }, spawnedAt: Date.now() },
      { ...env, TZ: 'Asia/Tokyo' },
      (s) => seen.push(s),
    );
    try {
      await until(() => seen.find((s) => s.confirmed));
      expect(seen.at(-1)).toEqual({ sessionId: SAMPLE_ID, confirmed: true });
    } finally {
      stop();
    }
  });

  it('without the flags the daemon holds the lock: /proc under the terminal shows nothing', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    useVendors({ timings: { codex: { fallbackAfterMs: 60_000 } } });
    const child = startFake(cwd, []);
    const seen: SessionObservation[] = [];
    const stop = codexAdapter.follow({ pid: child.pid!, cwd, hints: {}, spawnedAt: Date.now() }, env, (s) =>
      seen.push(s),
    );
    let daemonPid: number | null = null;
    try {
      const log = await until(() => {
        try {
          return readFileSync(join(store, 'fake-daemon.log'), 'utf8');
        } catch {
          return undefined;
        }
      });
      daemonPid = Number(log.split(' ')[0]);
      await sleep(800);
      expect(seen).toEqual([]);
    } finally {
      stop();
      if (daemonPid) process.kill(daemonPid, 'SIGKILL');
    }
  });

  it('the fake takes text and Enter in one write as a paste (not submitted); Enter after a pause submits', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const child = startFake(cwd);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => (out.includes('? for shortcuts') ? true : undefined));
    child.stdin!.write('remember the number 9\r');
    await sleep(400);
    expect(out).not.toContain('OK, I will remember 9.');
    child.stdin!.write('\r');
    await until(() => (out.includes('OK, I will remember 9.') ? true : undefined));
  });

  it('the fake refuses to resume an unknown id with the real error text and exit 1', async () => {
    const cwd = join(tmp, 'proj');
    await mkdir(cwd);
    const unknown = '019abcde-1234-7def-8abc-000000000000';
    const child = startFake(cwd, ['resume', unknown, ...CODEX_NO_DAEMON_ARGS]);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(1);
    expect(out).toContain(
      `ERROR: No saved session found with ID ${unknown}. Run \`codex resume\` without an ID to choose from existing sessions.`,
    );
    expect(codexAdapter.resumeErrorTexts.some((re) => re.test(out))).toBe(true);
  });

  describe('snapshot-and-claim when /proc shows nothing', () => {
    let cwd: string;
    let quiet: ChildProcess;
    beforeEach(async () => {
      cwd = join(tmp, 'proj');
      await mkdir(cwd);
      useVendors({ timings: { codex: { fallbackAfterMs: 200 } } });
      // A live process that holds no Codex file, standing in for a CLI whose lock /proc cannot show.
      quiet = spawn('sleep', ['60'], { stdio: 'ignore' });
      children.push(quiet);
    });

    function follow(spawnedAt = Date.now()) {
      const seen: SessionObservation[] = [];
      const stop = codexAdapter.follow({ pid: quiet.pid!, cwd, hints: {}, spawnedAt }, env, (s) => seen.push(s));
      return { seen, stop };
    }

    it('claims exactly one new rollout of this cwd; never an old one, never another cwd', async () => {
      const old = uuid7();
      await writeRollout(old, cwd, { at: new Date(Date.now() - 60_000) });
      await sleep(20);
      const f = follow();
      try {
        await writeRollout(uuid7(), join(tmp, 'elsewhere'));
        await sleep(700);
        expect(f.seen).toEqual([]);
        const mine = uuid7();
        await writeRollout(mine, cwd);
        await until(() => f.seen[0]);
        expect(f.seen).toEqual([{ sessionId: mine, confirmed: true }]);
      } finally {
        f.stop();
      }
    });

    it('waits while two new rollouts of this cwd fit', async () => {
      // Both land in the store together (written aside, then renamed one after the other with no await between): a
      // poll between two slow writes on a loaded machine would rightly claim the one it saw.
      const aside = join(tmp, 'aside');
      const files = [await writeRolloutIn(aside, env, uuid7(), cwd), await writeRolloutIn(aside, env, uuid7(), cwd)];
      const into = (file: string) => join(store, relative(aside, file));
      await mkdir(dirname(into(files[0]!)), { recursive: true });
      const f = follow();
      try {
        for (const file of files) renameSync(file, into(file));
        await sleep(800);
        expect(f.seen).toEqual([]);
      } finally {
        f.stop();
      }
    });

    it('gives one id to one agent only', async () => {
      const spawnedAt = Date.now();
      const a = follow(spawnedAt);
      const b = follow(spawnedAt);
      try {
        const x = uuid7();
        await writeRollout(x, cwd);
        const winner = await until(() => (a.seen[0] ? a : b.seen[0] ? b : undefined));
        const loser = winner === a ? b : a;
        expect(winner.seen).toEqual([{ sessionId: x, confirmed: true }]);
        await sleep(600);
        expect(loser.seen).toEqual([]);
        const y = uuid7();
        await writeRollout(y, cwd);
        await until(() => loser.seen[0]);
        expect(loser.seen).toEqual([{ sessionId: y, confirmed: true }]);
        expect(winner.seen).toHaveLength(1);
      } finally {
        a.stop();
        b.stop();
      }
    });

    it('a resumed terminal reports the id it was started with', async () => {
      const seen: SessionObservation[] = [];
      const stop = codexAdapter.follow(
        { pid: quiet.pid!, cwd, hints: { sessionId: SAMPLE_ID }, spawnedAt: Date.now() },
        env,
        (s) => seen.push(s),
      );
      try {
        await until(() => seen[0]);
        expect(seen).toEqual([{ sessionId: SAMPLE_ID, confirmed: true }]);
      } finally {
        stop();
      }
    });
  });
});
