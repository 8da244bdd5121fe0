// Reads a data directory the way a person restoring it would: every manifest, history line and snapshot must parse.
// Temp names (".tmp-") are what an interrupted atomic write leaves; the store sweeps them and never reads them.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface StoreCheck {
  runs: number;
  snapshots: number;
  /** Files that exist under their final name and do not parse: each is a lost or damaged record. */
  unreadable: string[];
}

const isTemp = (name: string) => name.includes('.tmp-');

function parses(path: string): boolean {
  try {
    JSON.parse(readFileSync(path, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

export function checkStore(dataDir: string): StoreCheck {
  const result: StoreCheck = { runs: 0, snapshots: 0, unreadable: [] };
  const runsDir = join(dataDir, 'runs');
  if (!existsSync(runsDir)) return result;
  for (const runId of readdirSync(runsDir)) {
    if (isTemp(runId)) continue;
    const dir = join(runsDir, runId);
    result.runs++;
    if (!parses(join(dir, 'run.json'))) result.unreadable.push(join(runId, 'run.json'));
    const events = join(dir, 'events.jsonl');
    if (existsSync(events)) {
      const lines = readFileSync(events, 'utf8').split('\n');
      // The last line may be torn by a kill mid-append: the store ignores it by design. Every other line must parse.
      lines.slice(0, -2).forEach((line, i) => {
        if (line.trim() === '') return;
        try {
          JSON.parse(line);
        } catch {
          result.unreadable.push(`${join(runId, 'events.jsonl')}:${i + 1}`);
        }
      });
    }
    const screens = join(dir, 'screens');
    if (!existsSync(screens)) continue;
    for (const snap of readdirSync(screens)) {
      if (isTemp(snap)) continue;
      result.snapshots++;
      if (!parses(join(screens, snap, 'snapshot.json')))
        result.unreadable.push(join(runId, 'screens', snap, 'snapshot.json'));
    }
  }
  return result;
}

/** Whether a snapshot the core acknowledged is on disk, whole. */
export function snapshotOnDisk(dataDir: string, runId: string, snapshotId: string): boolean {
  return parses(join(dataDir, 'runs', runId, 'screens', snapshotId, 'snapshot.json'));
}
