// An idle core is quiet (docs/performance.md "Idle and start"): with agents live but printing nothing, and its
// search index refreshing on its timer, it tells its clients nothing while nothing changes. Each event it sends makes
// every page ask again (a list, a run), so an event repeated while nothing happens is a page and a core kept busy.
// What does change is still told: a new conversation on the machine is announced, and the page can ask for the runs
// an event named alone.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { events, type EventName, type RunView } from '../../shared/contract.js';
import { SEARCH_REFRESH_MS } from '../../electron/core/search/search-service.js';
import { screenText, startServer, waitFor, type ServerProcess } from '../helpers/server.js';
import { tempMachine, type TempMachine } from '../helpers/temp-machine.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
/** An agent that prints a screenful and then waits as an idle CLI does: no output, no new processes. */
const IDLE_AGENT = `seq 1 50 | sed 's/^/line /'; printf 'waiting for you\\n> '; exec sleep 100000`;

let machine: TempMachine;
let server: ServerProcess;
let client: RpcClient;
const runs: RunView[] = [];

/** Every event the core sends from now on, by name. */
function record(c: RpcClient): { seen: string[]; stop(): void } {
  const seen: string[] = [];
  const offs = (Object.keys(events) as EventName[]).map((name) => c.on(name, () => seen.push(name)));
  return { seen, stop: () => offs.forEach((off) => off()) };
}

beforeAll(async () => {
  machine = tempMachine('baton-idle-quiet-');
  cpSync(join(SAMPLES, 'claude'), machine.home, { recursive: true });
  server = await startServer(machine.data, machine.env);
  client = await server.connect();
  for (const name of ['quiet-1', 'quiet-2', 'quiet-3'])
    runs.push(
      await client.call('run.start', {
        name,
        agents: [1, 2].map((k) => ({
          vendor: 'shell' as const,
          label: `a${k}`,
          cwd: machine.work,
          command: ['sh', '-c', IDLE_AGENT],
        })),
      }),
    );
  for (const run of runs)
    for (const agent of run.agents)
      await waitFor(async () => (await screenText(client, agent.id)).includes('waiting for you'), `${agent.label}`);
  // Their output is recorded (the periodic snapshot would do it within a minute), and the index has had its first pass.
  for (const run of runs) await client.call('run.snapshot', { run: run.id });
  expect((await client.call('search.query', { text: '777' })).results.length).toBe(1);
}, 60_000);

afterAll(async () => {
  for (const run of runs) await client.call('run.stop', { run: run.id }).catch(() => undefined);
  client.close();
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await server.exited;
  rmSync(machine.root, { recursive: true, force: true });
});

describe('an idle core', () => {
  it('sends no event while nothing changes, over a refresh of its search index', async () => {
    const events = record(client);
    // Longer than the index's refresh period: its timer runs at least one pass in the window.
    await new Promise((r) => setTimeout(r, SEARCH_REFRESH_MS + 2000));
    // And a pass asked for explicitly, twice, reads nothing new.
    await client.call('search.refresh', {});
    await client.call('search.refresh', {});
    events.stop();
    expect(events.seen).toEqual([]);
  }, 30_000);

  it('still tells a change: a new conversation on the machine is announced once its pass reads it', async () => {
    const before = (await client.call('search.status', {})).files;
    const events = record(client);
    const progress: number[] = [];
    const off = client.on('search.progress', (s) => {
      if (s.state === 'ready') progress.push(s.files);
    });
    const from = join(machine.home, '.claude', 'projects', '-home-u-proj');
    const to = join(machine.home, '.claude', 'projects', '-home-u-other');
    mkdirSync(to);
    cpSync(
      join(from, '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b.jsonl'),
      join(to, '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d.jsonl'),
    );
    await client.call('search.refresh', {});
    // Read by that pass, or by the next on the index's timer (a folder new to the watcher).
    await waitFor(() => progress.includes(before + 1), 'the new conversation announced', SEARCH_REFRESH_MS + 5000);
    off();
    events.stop();
    expect(events.seen.every((name) => name === 'search.progress')).toBe(true);
  }, 30_000);

  it('lists only the runs it is asked for, and leaves a deleted one out', async () => {
    const [a, b] = runs;
    const both = await client.call('run.list', { runs: [a!.id, b!.id] });
    expect(both.map((r) => r.name).sort()).toEqual(['quiet-1', 'quiet-2']);
    expect(both.every((r) => r.liveAgents === 2)).toBe(true);
    // `limit`: the newest runs only, in the whole list's order (a page's first screen).
    const whole = await client.call('run.list', {});
    expect((await client.call('run.list', { limit: 1 })).map((r) => r.id)).toEqual([whole[0]!.id]);
    await client.call('run.stop', { run: b!.id });
    await client.call('run.delete', { run: b!.id });
    runs.splice(1, 1);
    expect((await client.call('run.list', { runs: [a!.id, b!.id] })).map((r) => r.name)).toEqual(['quiet-1']);
    expect((await client.call('run.list', {})).length).toBe(2);
  });
});
