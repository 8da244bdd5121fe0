// Processes the core started, on disk, so a core that died without a goodbye has them swept at next start.
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { bootId, isAlive, readProcess, threadGroupOf, type ProcessMark } from './proc-stat.js';
import { protectedPids } from './process-signal.js';
import { terminateTree } from './process-tree.js';

/** Linux never hands out a pid above 2^22 (PID_MAX_LIMIT on 64-bit). */
const PID_MAX = 4_194_304;
const MAX_TERMINALS = 1024;
const MAX_PER_TERMINAL = 16_384;
const MAX_MARKS = 50_000;
/** The caps above fit in ~2.5 MB of JSON; a bigger file is not a ledger Baton wrote and is not even read whole. */
const MAX_BYTES = 4 * 1024 * 1024;

// The file is read back by a later core, which signals what it names: anything off-shape is refused whole.
const markSchema = z.strictObject({
  pid: z.number().int().min(2).max(PID_MAX),
  startTime: z.string().regex(/^\d{1,20}$/),
});
const ledgerSchema = z
  .strictObject({
    version: z.literal(1),
    bootId: z.string().max(64),
    host: markSchema,
    terminals: z
      .array(z.strictObject({ leader: markSchema.nullable(), processes: z.array(markSchema).max(MAX_PER_TERMINAL) }))
      .max(MAX_TERMINALS),
  })
  .refine((l) => l.terminals.reduce((n, t) => n + t.processes.length, 0) <= MAX_MARKS, 'too many processes');
type Ledger = z.infer<typeof ledgerSchema>;

export interface LedgerEntry {
  /** The terminal's first process; null for processes kept after their terminal was released. */
  leader: ProcessMark | null;
  processes: readonly ProcessMark[];
}

export class ProcessLedger {
  private lastWritten = '';
  private sweeping = false;
  private readonly boot = bootId();
  private readonly self: ProcessMark = { pid: process.pid, startTime: readProcess(process.pid)?.startTime ?? '0' };

  constructor(private readonly path: string) {}

  /**
   * Stops what a previous core recorded and left running. Returns how many recorded processes were still alive.
   * Throws if that core is still alive: its agents are not ours to stop.
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

  /** Rewrites the ledger when what it holds changed. */
  write(entries: readonly LedgerEntry[]): void {
    // The previous core's record must stay on disk until its leftovers are stopped.
    if (this.sweeping) return;
    const ledger: Ledger = { version: 1, bootId: this.boot, host: this.self, terminals: capped(entries) };
    const text = JSON.stringify(ledger);
    if (text === this.lastWritten) return;
    mkdirSync(dirname(this.path), { recursive: true });
    // No fsync: the ledger only matters within this boot (a start time names a process only until reboot), and
    // within a boot the rename is atomic and the page cache is what the next core reads, even after a SIGKILL.
    const tmp = `${this.path}.tmp-${process.pid}`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, this.path);
    this.lastWritten = text;
  }

  private async sweepLeftovers(): Promise<number> {
    const ledger = this.read();
    // After a reboot nothing recorded can still run, and a start time may name another process.
    if (!ledger || ledger.bootId !== this.boot) return 0;
    const { host } = ledger;
    if (host.pid === this.self.pid && host.startTime === this.self.startTime) return 0;
    if (isAlive(host)) throw new Error(`another Baton core (pid ${host.pid}) is using this data directory`);
    const spare = protectedPids();
    const floor = BigInt(host.startTime);
    // Every process a core started began after that core did: an older one is not its to stop, whatever the file says.
    const ours = (m: ProcessMark) => BigInt(m.startTime) >= floor && !spare.has(m.pid) && isAlive(m) && threadGroupOf(m.pid) === m.pid;
    const leftovers = ledger.terminals
      .map((t) => ({ leader: t.leader && ours(t.leader) ? t.leader : null, processes: t.processes.filter(ours) }))
      .filter((t) => t.leader !== null || t.processes.length > 0);
    await Promise.all(leftovers.map((t) => terminateTree(t.leader, t.processes, 2000)));
    return leftovers.reduce((n, t) => n + t.processes.length, 0);
  }

  /** The ledger as a previous core left it; null when there is none or it is not one Baton wrote. */
  private read(): Ledger | null {
    let text: string | null;
    try {
      text = readAtMost(this.path, MAX_BYTES);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.ignore(`unreadable (${(err as Error).message})`);
      return null;
    }
    if (text === null) return this.ignore(`larger than ${MAX_BYTES} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.ignore('not JSON (a torn write?)');
    }
    const parsed = ledgerSchema.safeParse(json);
    return parsed.success ? parsed.data : this.ignore('not in the shape Baton writes');
  }

  private ignore(why: string): null {
    process.stderr.write(`baton: ignoring the process ledger ${this.path}: ${why}\n`);
    return null;
  }
}

/** The file's text, or null when it holds more than `max` bytes. */
function readAtMost(path: string, max: number): string | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(max + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length <= max; length += n) n = readSync(fd, buf, length, buf.length - length, null);
    return length > max ? null : buf.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

/** What fits the reader's limits: a ledger over them would be refused whole, so the excess is left out. */
function capped(entries: readonly LedgerEntry[]): Ledger['terminals'] {
  let room = MAX_MARKS;
  return entries.slice(0, MAX_TERMINALS).map((e) => {
    const processes = e.processes.slice(0, Math.min(MAX_PER_TERMINAL, room)).map((m) => ({ pid: m.pid, startTime: m.startTime }));
    room -= processes.length;
    return { leader: e.leader && { pid: e.leader.pid, startTime: e.leader.startTime }, processes };
  });
}
