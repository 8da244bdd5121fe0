// Processes the core started, on disk, so a core that died without a goodbye has them swept at next start.
import { readFileSync, writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { isAlive, readProcess, terminateTree, type ProcessMark } from './process-tree.js';

const ledgerSchema = z.object({
  host: z.object({ pid: z.number().int(), startTime: z.string() }),
  terminals: z.array(z.object({ leader: z.number().int(), processes: z.array(z.object({ pid: z.number().int(), startTime: z.string() })) })),
});
type Ledger = z.infer<typeof ledgerSchema>;

export class ProcessLedger {
  private lastWritten = '';

  constructor(private readonly path: string) {}

  /** Stop what a previous core recorded and left running. Returns how many processes were still alive. */
  async sweep(): Promise<number> {
    let ledger: Ledger;
    try {
      ledger = ledgerSchema.parse(JSON.parse(readFileSync(this.path, 'utf8')));
    } catch {
      return 0;
    }
    if (isAlive(ledger.host) && ledger.host.pid !== process.pid) {
      throw new Error(`another Baton core (pid ${ledger.host.pid}) is using this data directory`);
    }
    let alive = 0;
    await Promise.all(
      ledger.terminals.map((t) => {
        const left = t.processes.filter(isAlive);
        alive += left.length;
        return left.length > 0 ? terminateTree(t.leader, left, 2000) : Promise.resolve();
      }),
    );
    return alive;
  }

  /** Rewrites the ledger when what it holds changed (cheap enough for a 1 s tick). */
  write(terminals: { leader: number; processes: ProcessMark[] }[]): void {
    const self = readProcess(process.pid);
    const ledger: Ledger = { host: { pid: process.pid, startTime: self?.startTime ?? '' }, terminals };
    const text = JSON.stringify(ledger);
    if (text === this.lastWritten) return;
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp-${process.pid}`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, this.path);
    this.lastWritten = text;
  }
}
