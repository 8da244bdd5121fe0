// Processes the core started, on disk, so a core that died without a goodbye has them swept at next start.
import { lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AgentMark } from './agent-mark.js';
import { fromFile, ledgerFileSchema, MAX_BYTES, toFile, type Ledger, type LedgerTerminal } from './ledger-format.js';
import { bootId, bootTimeMs, isAlive, readProcess, sameProcess, threadGroupOf, type ProcessMark } from './proc-stat.js';
import { protectedPids } from './process-signal.js';
import { terminateAll } from './process-tree.js';
import { tempPathFor } from '../store/atomic-file.js';
import { readJsonFile } from '../store/safe-read.js';

export type LedgerEntry = LedgerTerminal;

export class ProcessLedger {
  private lastWritten = '';
  private sweeping = false;
  private readonly boot = bootId();
  private readonly self: ProcessMark = { pid: process.pid, startTime: readProcess(process.pid)?.startTime ?? '0' };

  constructor(private readonly path: string) {}

  /**
   * Stops what a previous core recorded and left running. Returns how many recorded processes were still alive,
   * plus those found by a recorded mark alone. Throws if that core is still alive: its agents are not ours to stop.
   */
  async sweep(): Promise<number> {
    this.sweeping = true;
    try {
      return await this.sweepLeftovers();
    } finally {
      this.sweeping = false;
      this.lastWritten = '';
    }
  }

  /**
   * Rewrites the ledger when what it holds changed. A write that fails (a full disk) leaves the previous ledger
   * and no temp file. No fsync: the ledger only matters within this boot (a start time names a process only until
   * reboot), and within a boot the rename is atomic and the page cache is what the next core reads, even after a
   * SIGKILL. Callers never run two writes at once (the tracking passes are serial).
   */
  async write(entries: readonly LedgerEntry[]): Promise<void> {
    // The previous core's record must stay on disk until its leftovers are stopped.
    if (this.sweeping) return;
    const text = JSON.stringify(toFile(this.boot, this.self, entries));
    if (text === this.lastWritten) return;
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = tempPathFor(this.path);
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(text);
      } finally {
        await fh.close();
      }
      await rename(tmp, this.path);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    this.lastWritten = text;
  }

  private async sweepLeftovers(): Promise<number> {
    const ledger = await this.read();
    if (ledger && isAlive(ledger.host) && !sameProcess(ledger.host, this.self)) {
      throw new Error(`another Baton core (pid ${ledger.host.pid}) is using this data directory`);
    }
    await this.removeStaleTemps();
    if (!ledger || sameProcess(ledger.host, this.self)) return 0;
    const { host } = ledger;
    const spare = protectedPids();
    const floor = BigInt(host.startTime);
    // Every process a core started began after that core did: an older one is not its to stop, whatever the file says.
    const ours = (m: ProcessMark) =>
      BigInt(m.startTime) >= floor && !spare.has(m.pid) && isAlive(m) && threadGroupOf(m.pid) === m.pid;
    const leftovers = ledger.terminals
      .map((t) => ({ leader: t.leader && ours(t.leader) ? t.leader : null, recorded: t.processes.filter(ours) }))
      .filter((t) => t.leader !== null || t.recorded.length > 0);
    const marks: AgentMark[] = ledger.terminals.flatMap((t) =>
      t.mark ? [{ value: t.mark.value, since: BigInt(t.mark.since) > floor ? t.mark.since : host.startTime }] : [],
    );
    if (leftovers.length === 0 && marks.length === 0) return 0;
    const byMark = await terminateAll(leftovers, marks, 2000);
    return leftovers.reduce((n, t) => n + t.recorded.length, 0) + byMark;
  }

  /**
   * The ledger as a previous core left it; null when there is none, it is not one Baton wrote, or it comes from
   * before a reboot (after one nothing recorded can still run, and a start time may name another process).
   *
   * A ledger from before the `version` field is still swept, once (the next write replaces it): it names every
   * process by pid and start time as the current one does, and ignoring it would leave the leftovers of a crash
   * right before an upgrade running for good. It has no boot id, so its boot is told by its mtime: a file last
   * written before this boot began is from an earlier one.
   */
  private async read(): Promise<Ledger | null> {
    const got = await readJsonFile(this.path, MAX_BYTES, ledgerFileSchema);
    if (!got.ok) return got.missing ? null : this.ignore(got.reason);
    const ledger = fromFile(got.value);
    if (ledger.bootId !== null) return ledger.bootId === this.boot ? ledger : null;
    const written = await lstat(this.path).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    const booted = bootTimeMs();
    return booted !== null && written >= booted ? ledger : this.ignore('written before this boot, without a boot id');
  }

  /**
   * Temp files of this ledger that a core killed mid-write left, and the `processes.json.tmp-<pid>` that earlier
   * versions left on a full disk: nothing else removes them. Only once no other core is known to be writing.
   */
  private async removeStaleTemps(): Promise<void> {
    const name = basename(this.path);
    const dir = dirname(this.path);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const entry of names) {
      if (entry.startsWith(`.${name}.tmp-`) || entry.startsWith(`${name}.tmp-`))
        await rm(join(dir, entry), { force: true }).catch(() => undefined);
    }
  }

  private ignore(why: string): null {
    process.stderr.write(`baton: ignoring the process ledger ${this.path}: ${why}\n`);
    return null;
  }
}
