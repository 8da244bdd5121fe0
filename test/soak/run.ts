// `npm run soak`: Baton's promise under abuse, as one table. Not part of `npm test` (minutes, not seconds);
// `npm run soak -- --short` is the version CI runs. Exit 1 when any row failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, removeTempDirs } from '../helpers/server.js';
import { channelFuzz } from './channels.js';
import { fullDiskRounds } from './full-disk.js';
import { handleFuzz } from './handle-fuzz.js';
import { killCoreRounds } from './kill-core.js';
import { stubbornStops } from './stubborn-stops.js';
import { reloadsWhileFlooding } from './reloads.js';
import { clientRelaunches } from './relaunches.js';
import { socketFuzz } from './socket-fuzz.js';
import { printTable, timedRow, type SoakRow } from './table.js';

const short = process.argv.includes('--short');
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const scale = (full: number, brief: number) => (short ? brief : full);

interface Section {
  id: string;
  check: string;
  goal: string;
  run: () => Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>>;
}

const sections: Section[] = [
  {
    id: 'kill',
    check: 'SIGKILL of the core while runs start, snapshot, resume',
    goal: '0 unreadable, 0 lost, every resume works',
    run: () => killCoreRounds(scale(200, 12)),
  },
  {
    id: 'stops',
    check: 'stops of agents with jobs ignoring HUP and TERM',
    goal: '0 descendants after 6 s',
    run: () => stubbornStops(scale(100, 20)),
  },
  {
    id: 'handles',
    check: 'fuzzed handles through handle.inspect and run.resume',
    goal: '0 spawns, 0 crashes, 0 echoes',
    run: () => handleFuzz(scale(100_000, 5_000)),
  },
  {
    id: 'channels',
    check: 'malformed messages: raw HTTP, WebSocket, CLI stdin',
    goal: '0 crashes, memory flat',
    run: () => channelFuzz(scale(10_000, 1_000), scale(10_000, 100)),
  },
  {
    id: 'socket',
    check: "malformed messages on the background core socket (the desktop windows' channel)",
    goal: '0 crashes, memory flat',
    run: () => socketFuzz(scale(10_000, 1_000)),
  },
  {
    id: 'reloads',
    check: 'page reloads while a pane floods',
    goal: '0 lost panes, tails equal the mirror',
    run: () => reloadsWhileFlooding(scale(50, 5)),
  },
  {
    id: 'relaunches',
    check: 'client relaunches against the background core while a pane floods',
    goal: '0 lost panes, tails equal the mirror',
    run: () => clientRelaunches(scale(20, 5)),
  },
  {
    id: 'disk',
    check: 'data directory on a tmpfs filled to the last byte',
    goal: 'clear errors, agents live, store whole',
    run: () => fullDiskRounds(scale(3, 1)),
  },
];

const rows: SoakRow[] = [];
for (const s of sections) {
  if (only && !only.includes(s.id)) continue;
  process.stderr.write(`soak: ${s.check}…\n`);
  const row = await timedRow(s.check, s.goal, s.run);
  // Each section stops what it started; its temp directories (data, HOMEs, a full tmpfs's mount point) go with it.
  removeTempDirs();
  process.stderr.write(`soak: ${row.ok ? 'pass' : 'FAIL'} — ${row.figures}\n`);
  rows.push(row);
}
const table = printTable(rows);
process.stdout.write(`\n${table}\n`);
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(join(ROOT, 'test-results', 'soak-report.md'), `# Baton soak${short ? ' (short)' : ''}\n\n${table}\n`);
process.exit(rows.every((r) => r.ok) ? 0 : 1);
