// A store of many stopped runs, written straight to disk as a core would have left them: for the scale bench's
// `run.list` figure and the tests of the run summary index.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newAgentId, newRunId } from '../../electron/core/runs/ids.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';

/** A stopped agent; a vendor with sessions gets a confirmed id, as one that had talked would have. */
function agent(label: string, vendor: AgentRecord['vendor'], cwd: string, at: string): AgentRecord {
  const sessionId = vendor === 'shell' ? null : randomUUID();
  return {
    id: newAgentId(),
    label,
    vendor,
    cwd,
    args: [],
    command: null,
    sessionIds: sessionId ? [{ id: sessionId, chosenBy: 'baton', seenAt: at, confirmed: true }] : [],
    status: 'stopped',
    exitCode: 0,
    warning: null,
    startedAt: at,
  };
}

/**
 * Writes `count` runs of four agents each (two shells, a Claude and a Codex agent) under `<dataDir>/runs`, spread
 * over `dirs` working directories; run i was last changed i minutes after a fixed start. Returns their ids, oldest first.
 */
export async function writeManyRuns(dataDir: string, count: number, dirs: readonly string[]): Promise<RunManifest[]> {
  const runsDir = join(dataDir, 'runs');
  await mkdir(runsDir, { recursive: true, mode: 0o700 });
  const runs: RunManifest[] = [];
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 60_000).toISOString();
    const cwd = dirs[i % dirs.length]!;
    runs.push({
      v: 1,
      id: newRunId(),
      name: `history ${String(i).padStart(5, '0')}`,
      createdAt: at,
      updatedAt: at,
      agents: [
        agent('planner', 'claude', cwd, at),
        agent('tests', 'codex', cwd, at),
        agent('build', 'shell', cwd, at),
        agent('logs', 'shell', cwd, at),
      ],
      lastSnapshot: null,
    });
  }
  const BATCH = 64;
  for (let i = 0; i < runs.length; i += BATCH) {
    await Promise.all(
      runs.slice(i, i + BATCH).map(async (run) => {
        const dir = join(runsDir, run.id);
        await mkdir(dir, { mode: 0o700 });
        await writeFile(join(dir, 'run.json'), `${JSON.stringify(run, null, 2)}\n`, { mode: 0o600 });
      }),
    );
  }
  return runs;
}
