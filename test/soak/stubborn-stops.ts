// Stops of agents whose shells left jobs that ignore SIGHUP and SIGTERM, one of them in a session of its own:
// six seconds after each run.stop, no process of those agents may be alive.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { killTagged, taggedPids } from './tagged.js';
import type { SoakRow } from './table.js';

const TAG = 'BATON_SOAK_STOP';
const PER_RUN = 10;
const STUBBORN = [
  'sh',
  '-c',
  `(trap '' HUP TERM; while :; do sleep 0.2; done) & (setsid sh -c 'trap "" HUP TERM; while :; do sleep 0.2; done' &); echo ready; exec sleep 600`,
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function stubbornStops(agents: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  const root = tempDir('baton-soak-stop-');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const tag = randomUUID();
  const server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), { [TAG]: tag }));
  const serverPid = server.child.pid!;
  let left = 0;
  let stopped = 0;
  try {
    const client = await server.connect();
    for (let n = 0; stopped < agents; n++) {
      const count = Math.min(PER_RUN, agents - stopped);
      const run = await client.call('run.start', {
        name: `stubborn ${n}`,
        agents: Array.from({ length: count }, () => ({ vendor: 'shell' as const, cwd, command: STUBBORN })),
      });
      // Every agent printed "ready": its jobs, including the one that left the session, are running.
      for (const a of run.agents) {
        await waitFor(
          async () => (await client.call('agent.screen', { agentId: a.id })).text.includes('ready'),
          `agent ${a.label} ready`,
          30_000,
        );
      }
      await client.call('run.stop', { run: run.id });
      stopped += count;
      await sleep(6000);
      const alive = taggedPids(TAG, tag, [serverPid]);
      left += alive.length;
      killTagged(TAG, tag, [serverPid]);
    }
    client.close();
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    killTagged(TAG, tag);
  }
  return { count: stopped, ok: left === 0, figures: `${left} descendants alive 6 s after the stops` };
}
