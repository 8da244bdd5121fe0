// SIGKILL of the core at random moments while runs start, snapshot and resume. After every kill: every file under
// its final name parses, every snapshot the core acknowledged is on disk, and the next core resumes a run.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { checkStore, snapshotOnDisk } from './store-check.js';
import { killTagged } from './tagged.js';
import type { SoakRow } from './table.js';

const TAG = 'BATON_SOAK_KILL';
/** The runs are this store's own shell runs: the user confirms their shell agents, as the Resume button does. */
const ALL_AGENTS = Array.from({ length: 32 }, (_, i) => i);

interface Acked {
  runId: string;
  snapshotId: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/** One random action against the core; its failures are expected once the kill lands, so they are only counted. */
async function randomAction(client: RpcClient, cwd: string, acked: Acked[], round: number): Promise<void> {
  const runs = await client.call('run.list', {});
  const roll = Math.random();
  if (runs.length < 3 || roll < 0.25) {
    const agents = [1, 2].map(() => ({
      vendor: 'shell' as const,
      cwd,
      command: ['sh', '-c', 'echo ready; exec sleep 600'],
    }));
    await client.call('run.start', { name: `soak ${round}`, agents });
  } else if (roll < 0.7) {
    const run = pick(runs)!;
    const snap = await client.call('run.snapshot', { run: run.id });
    acked.push({ runId: run.id, snapshotId: snap.id });
  } else if (roll < 0.9) {
    const run = pick(runs.filter((r) => r.liveAgents === 0));
    if (run) {
      const { handle } = await client.call('run.handle', { run: run.id });
      await client.call('run.resume', { handle, confirmShell: ALL_AGENTS });
    }
  } else if (runs.length > 5) {
    await client.call('run.delete', { run: pick(runs)!.id });
  }
}

export async function killCoreRounds(rounds: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  const root = tempDir('baton-soak-kill-');
  const dataDir = join(root, 'data');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const tag = randomUUID();
  const env = testEnv(join(root, 'home'), { [TAG]: tag });
  const acked: Acked[] = [];
  let unreadable: string[] = [];
  let lost = 0;
  let checkedSnapshots = 0;
  let resumeFailures = 0;
  let resumes = 0;
  let actions = 0;

  for (let round = 0; round < rounds; round++) {
    let server: ServerProcess | null = null;
    try {
      server = await startServer(dataDir, env);
      const client = await server.connect();
      // The run resumes every time: each new core brings one stopped run back, before the next kill is armed.
      const runs = await client.call('run.list', {});
      const stopped = runs.filter((r) => r.liveAgents === 0);
      const target = pick(stopped);
      if (target) {
        const { handle } = await client.call('run.handle', { run: target.id });
        const result = await client.call('run.resume', { handle, confirmShell: ALL_AGENTS });
        resumes++;
        if (result.outcomes.some((o) => o.outcome === 'failed')) resumeFailures++;
      }
      // Arm a kill at a random moment, and keep the core busy until it lands.
      const killAt = Date.now() + Math.random() * 1500;
      const alive = () => server!.child.exitCode === null && server!.child.signalCode === null;
      const busy = (async () => {
        while (alive()) {
          const ok = await randomAction(client, cwd, acked, round).then(
            () => true,
            () => false,
          );
          if (ok) actions++;
          // A refused call settles in a microtask: yield, or the child's exit event could never be seen.
          else await new Promise((r) => setImmediate(r));
        }
      })();
      await sleep(Math.max(0, killAt - Date.now()));
      server.child.kill('SIGKILL');
      await server.exited;
      await busy;
      client.close();
    } catch (err) {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      throw err;
    }
    const check = checkStore(dataDir);
    unreadable = [...unreadable, ...check.unreadable.filter((u) => !unreadable.includes(u))];
    // The store keeps a run's newest snapshots (20): check the newest ten acknowledged per run, which it must keep.
    const byRun = new Map<string, Acked[]>();
    for (const a of acked.splice(0)) byRun.set(a.runId, [...(byRun.get(a.runId) ?? []), a]);
    for (const [runId, list] of byRun) {
      // A run deleted on purpose takes its snapshots with it.
      if (!existsSync(join(dataDir, 'runs', runId, 'run.json'))) continue;
      checkedSnapshots += Math.min(list.length, 10);
      lost += list.slice(-10).filter((a) => !snapshotOnDisk(dataDir, runId, a.snapshotId)).length;
    }
  }
  killTagged(TAG, tag);
  const ok = unreadable.length === 0 && lost === 0 && resumeFailures === 0;
  return {
    count: rounds,
    ok,
    figures: `${unreadable.length} unreadable files${unreadable.length ? ` (${unreadable.slice(0, 3).join(', ')})` : ''}, ${lost}/${checkedSnapshots} acknowledged snapshots lost, ${resumeFailures}/${resumes} resumes failed, ${actions} acknowledged actions between the kills`,
  };
}
