// A snapshot records each agent's current screen (docs/performance.md "Idle after a flood"). A periodic snapshot of a
// run where one agent printed reads only that agent's screen again and keeps the others' from the last snapshot; a
// kept screen must still be the agent's current one: whatever printed or was resized since is read again.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunView, Screen } from '../../shared/contract.js';
import { screenText, startServer, waitFor, type ServerProcess } from '../helpers/server.js';
import { tempMachine, type TempMachine } from '../helpers/temp-machine.js';

/** Prints its name and waits without output; what is typed into it is echoed by its terminal. */
const agent = (name: string) => `printf 'ready-${name}\\n'; exec sleep 100000`;

let machine: TempMachine;
let server: ServerProcess;
let client: RpcClient;
let run: RunView;

const stored = async (label: string): Promise<Screen> => {
  const { screens } = await client.call('run.screens', { run: run.id, live: false });
  return screens.find((s) => s.label === label)!;
};

beforeAll(async () => {
  machine = tempMachine('baton-snapshot-screens-');
  server = await startServer(machine.data, machine.env);
  client = await server.connect();
  run = await client.call('run.start', {
    name: 'screens',
    agents: ['a1', 'a2'].map((label) => ({
      vendor: 'shell' as const,
      label,
      cwd: machine.work,
      command: ['sh', '-c', agent(label)],
    })),
  });
  for (const a of run.agents)
    await waitFor(async () => (await screenText(client, a.id)).includes(`ready-${a.label}`), a.label);
}, 30_000);

afterAll(async () => {
  await client.call('run.stop', { run: run.id }).catch(() => undefined);
  client.close();
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await server.exited;
  rmSync(machine.root, { recursive: true, force: true });
});

describe("a snapshot's screens", () => {
  it('are current: an agent that printed is read again, one that did not keeps its screen', async () => {
    const [a1, a2] = run.agents;
    await client.call('run.snapshot', { run: run.id });
    const first = await stored('a2');
    expect(first.text).toContain('ready-a2');
    expect((await stored('a1')).text).not.toContain('typed-into-a1');

    await client.call('agent.write', { agentId: a1!.id, data: 'typed-into-a1' });
    await waitFor(async () => (await screenText(client, a1!.id)).includes('typed-into-a1'), 'the echo');
    await client.call('run.snapshot', { run: run.id });
    expect((await stored('a1')).text).toContain('typed-into-a1');
    expect(await stored('a2')).toEqual(first);

    // A resize prints nothing here (sleep ignores it), yet the screen has another size: it is read again.
    await client.call('agent.resize', { agentId: a2!.id, cols: 61, rows: 17 });
    await waitFor(async () => (await client.call('agent.screen', { agentId: a2!.id })).cols === 61, 'the resize');
    await client.call('run.snapshot', { run: run.id });
    const resized = await stored('a2');
    expect([resized.cols, resized.rows]).toEqual([61, 17]);
    expect(resized.text).toContain('ready-a2');
  }, 30_000);
});
