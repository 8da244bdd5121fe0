// The ledger file itself: read through the store's safe reader, written so a full disk leaves the last good ledger
// and no temp file, and a ledger from before the `version` field still swept once, unless it predates this boot.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProcessLedger } from '../../electron/core/pty/process-ledger.js';
import { isAlive, killMarks, startSleeper, waitAllGone, type ProcMark } from '../helpers/processes.js';

const leftovers: ProcMark[] = [];
let dir: string;
let stderr: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-ledger-'));
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  stderr.mockRestore();
  killMarks(leftovers.splice(0));
  rmSync(dir, { recursive: true, force: true });
});

function sleeper(): ProcMark {
  const mark = startSleeper({ detached: true });
  leftovers.push(mark);
  return { pid: mark.pid, startTime: mark.startTime };
}

const bootSeconds = () => Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))![1]);
/** The shape written before the `version` field: no boot id, the leader by pid alone. */
const unversioned = (processes: ProcMark[], leader = 999_998) => ({
  host: { pid: 999_999, startTime: '0' },
  terminals: [{ leader, processes }],
});
const ledgerEntry = (processes: ProcMark[]) => ({ leader: null, processes, mark: null });

describe('a ledger from before the version field', () => {
  it('is swept once: what it names by pid and start time is stopped', async () => {
    const path = join(dir, 'processes.json');
    const live = sleeper();
    writeFileSync(path, JSON.stringify(unversioned([live])));
    expect(await new ProcessLedger(path).sweep()).toBe(1);
    expect(await waitAllGone([live], 5000)).toEqual([]);
  });

  it('is ignored when it was written before this boot, and its bare leader pid is never taken for a process', async () => {
    const path = join(dir, 'processes.json');
    const live = sleeper();
    writeFileSync(path, JSON.stringify(unversioned([live])));
    const before = bootSeconds() - 60;
    utimesSync(path, before, before);
    expect(await new ProcessLedger(path).sweep()).toBe(0);
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('written before this boot'));
    // Written in this boot, naming the live process only as a leader pid: nothing to stop.
    writeFileSync(path, JSON.stringify(unversioned([], live.pid)));
    expect(await new ProcessLedger(path).sweep()).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(isAlive(live)).toBe(true);
  });
});

describe('reading the ledger', () => {
  it('does not follow a symbolic link, and refuses a FIFO or directory without blocking', async () => {
    const live = sleeper();
    const real = join(dir, 'elsewhere.json');
    writeFileSync(real, JSON.stringify(unversioned([live])));
    const link = join(dir, 'link.json');
    symlinkSync(real, link);
    expect(await new ProcessLedger(link).sweep()).toBe(0);
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('symbolic link'));
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(await new ProcessLedger(fifo).sweep()).toBe(0);
    mkdirSync(join(dir, 'dir.json'));
    expect(await new ProcessLedger(join(dir, 'dir.json')).sweep()).toBe(0);
    expect(isAlive(live)).toBe(true);
  });
});

describe('writing the ledger', () => {
  it('replaces the file whole, mode 0600, and removes temp files a killed core left', async () => {
    const path = join(dir, 'processes.json');
    writeFileSync(join(dir, '.processes.json.tmp-0123456789ab'), '{"torn');
    writeFileSync(join(dir, 'processes.json.tmp-4242'), '{"torn');
    writeFileSync(join(dir, 'server.json.tmp-1'), 'not the ledger’s');
    const ledger = new ProcessLedger(path);
    expect(await ledger.sweep()).toBe(0);
    await ledger.write([ledgerEntry([])]);
    expect(readdirSync(dir).sort()).toEqual(['processes.json', 'server.json.tmp-1']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 2, terminals: [ledgerEntry([])] });
    expect(execFileSync('stat', ['-c', '%a', path], { encoding: 'utf8' }).trim()).toBe('600');
  });

  it('on a full disk: the write fails, the previous ledger stays and no temp file is left', async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip();
    const mount = join(dir, 'disk');
    mkdirSync(mount, { mode: 0o700 });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', mount], { stdio: 'pipe' });
    } catch {
      return ctx.skip();
    }
    try {
      const path = join(mount, 'processes.json');
      const ledger = new ProcessLedger(path);
      await ledger.write([ledgerEntry([{ pid: 4242, startTime: '1' }])]);
      const before = readFileSync(path, 'utf8');
      const fd = openSync(join(mount, 'filler'), 'a');
      try {
        for (;;) writeSync(fd, Buffer.alloc(4096));
      } catch {
        // ENOSPC: not one block left.
      } finally {
        closeSync(fd);
      }
      const big = Array.from({ length: 1000 }, (_, i) => ({ pid: 1000 + i, startTime: String(i) }));
      await expect(ledger.write([ledgerEntry(big)])).rejects.toThrow(/ENOSPC/);
      expect(readdirSync(mount).sort()).toEqual(['filler', 'processes.json']);
      expect(readFileSync(path, 'utf8')).toBe(before);
      // Space again: the next write goes through.
      rmSync(join(mount, 'filler'));
      await ledger.write([ledgerEntry(big)]);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ terminals: [{ processes: big }] });
    } finally {
      execFileSync('umount', ['-l', mount], { stdio: 'pipe' });
    }
  });
});
