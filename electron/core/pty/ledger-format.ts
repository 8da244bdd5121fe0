// The shapes of processes.json (§7, §8): the one Baton writes, and the older ones a previous core may have left.
// The file is read back by a later core, which signals what it names: anything off-shape is refused whole.
import { z } from 'zod';
import { MARK_PATTERN, type AgentMark } from './agent-mark.js';
import type { ProcessMark } from './proc-stat.js';

/** Linux never hands out a pid above 2^22 (PID_MAX_LIMIT on 64-bit). */
const PID_MAX = 4_194_304;
export const MAX_TERMINALS = 1024;
export const MAX_PER_TERMINAL = 16_384;
export const MAX_MARKS = 50_000;
/** The caps above fit in ~2.6 MB of JSON; a bigger file is not a ledger Baton wrote and is not even read. */
export const MAX_BYTES = 4 * 1024 * 1024;

const startTime = z.string().regex(/^\d{1,20}$/);
const processMark = z.strictObject({ pid: z.number().int().min(2).max(PID_MAX), startTime });
const agentMark = z.strictObject({ value: z.string().regex(MARK_PATTERN), since: startTime });
const processes = z.array(processMark).max(MAX_PER_TERMINAL);
const withinCaps = (l: { terminals: { processes: unknown[] }[] }) =>
  l.terminals.reduce((n, t) => n + t.processes.length, 0) <= MAX_MARKS;

/** Version 2 (written now): each terminal's environment mark as well. */
const v2 = z.strictObject({
  version: z.literal(2),
  bootId: z.string().max(64),
  host: processMark,
  terminals: z
    .array(z.strictObject({ leader: processMark.nullable(), processes, mark: agentMark.nullable() }))
    .max(MAX_TERMINALS),
});
/** Version 1: no marks. */
const v1 = z.strictObject({
  version: z.literal(1),
  bootId: z.string().max(64),
  host: processMark,
  terminals: z.array(z.strictObject({ leader: processMark.nullable(), processes })).max(MAX_TERMINALS),
});
/** Before versions: no boot id, and the leader by pid alone (which names nobody once its process is gone). */
const unversioned = z.strictObject({
  host: processMark,
  terminals: z.array(z.strictObject({ leader: z.number().int(), processes })).max(MAX_TERMINALS),
});

export const ledgerFileSchema = z.union([v2, v1, unversioned]).refine(withinCaps, 'too many processes');
export type LedgerFile = z.infer<typeof ledgerFileSchema>;

export interface LedgerTerminal {
  /** The terminal's first process; null for processes kept after their terminal was released. */
  leader: ProcessMark | null;
  processes: readonly ProcessMark[];
  mark: AgentMark | null;
}

/** A ledger as the sweep uses it. `bootId` null: an unversioned file, whose boot is told by its mtime instead. */
export interface Ledger {
  bootId: string | null;
  host: ProcessMark;
  terminals: LedgerTerminal[];
}

export function fromFile(file: LedgerFile): Ledger {
  if (!('version' in file)) {
    // The bare leader pid cannot be checked against a start time: only the recorded processes are used (the
    // leader was recorded among them, by pid and start time).
    return {
      bootId: null,
      host: file.host,
      terminals: file.terminals.map((t) => ({ leader: null, processes: t.processes, mark: null })),
    };
  }
  if (file.version === 1) return { ...file, terminals: file.terminals.map((t) => ({ ...t, mark: null })) };
  return file;
}

/** What Baton writes: version 2, within the reader's limits (a ledger over them would be refused whole). */
export function toFile(bootId: string, host: ProcessMark, entries: readonly LedgerTerminal[]): LedgerFile {
  let room = MAX_MARKS;
  const plain = (m: ProcessMark): ProcessMark => ({ pid: m.pid, startTime: m.startTime });
  const terminals = entries.slice(0, MAX_TERMINALS).map((e) => {
    const kept = e.processes.slice(0, Math.min(MAX_PER_TERMINAL, room)).map(plain);
    room -= kept.length;
    return {
      leader: e.leader && plain(e.leader),
      processes: kept,
      mark: e.mark && { value: e.mark.value, since: e.mark.since },
    };
  });
  return { version: 2, bootId, host: plain(host), terminals };
}
