// background-core*.test.ts's scene: real `baton serve --socket` cores on a temp data directory, clients over the
// socket, and the run `demo` of two fake Claude agents each told its own number; everything a test starts is
// stopped and removed, pass or fail.
import { rmSync } from 'node:fs';
import { afterEach, expect } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { isRunning, startCore, stopCore, type CoreProcess } from '../helpers/core.js';
import { agentByLabel, ask, screenText, waitFor } from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';

const cores: CoreProcess[] = [];
const clients: RpcClient[] = [];
export const pids = new Set<number>();
const dirs: string[] = [];

export function useCoreCleanup(): void {
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await Promise.all(cores.splice(0).map(stopCore));
    for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    pids.clear();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

interface Scene {
  root: string;
  data: string;
  work: string;
  env: Record<string, string>;
}

export function scene(): Scene {
  const { root, data, work, env } = tempMachine('baton-bg-');
  dirs.push(root);
  return { root, data, work, env };
}

export async function core(s: Scene): Promise<CoreProcess> {
  const c = await startCore(s.data, s.env);
  cores.push(c);
  return c;
}

export async function client(c: CoreProcess): Promise<RpcClient> {
  const rpc = await c.connect();
  clients.push(rpc);
  return rpc;
}

export const data = (s: Scene) => ['--data-dir', s.data];

export async function killCore(c: CoreProcess): Promise<void> {
  c.child.kill('SIGKILL');
  expect(await c.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

/** The claude fake has drawn its prompt (no need before typing: `agent.send` waits for that itself). */
export const promptShown = (rpc: RpcClient, agentId: string) =>
  waitFor(async () => (await screenText(rpc, agentId)).includes('? for shortcuts'), `the prompt of ${agentId}`);

/** `demo`: two Claude agents, each told its own number. */
export async function startDemo(rpc: RpcClient, s: Scene, numbers: [number, number]) {
  const run = await rpc.call('run.start', {
    name: 'demo',
    agents: [
      { vendor: 'claude', label: 'one', cwd: s.work },
      { vendor: 'claude', label: 'two', cwd: s.work },
    ],
  });
  for (const a of run.agents) if (a.pid) pids.add(a.pid);
  const [one, two] = [agentByLabel(run.agents, 'one'), agentByLabel(run.agents, 'two')];
  await ask(rpc, one.id, `remember the number ${numbers[0]}`, `OK, I will remember ${numbers[0]}.`);
  await ask(rpc, two.id, `remember the number ${numbers[1]}`, `OK, I will remember ${numbers[1]}.`);
  return { run, one, two };
}

export async function expectNumbers(rpc: RpcClient, numbers: [number, number]): Promise<void> {
  const run = await rpc.call('run.get', { run: 'demo' });
  const [one, two] = [agentByLabel(run.agents, 'one'), agentByLabel(run.agents, 'two')];
  const textOne = await ask(rpc, one.id, 'what number did I ask you to remember', `The number is ${numbers[0]}.`);
  const textTwo = await ask(rpc, two.id, 'what number did I ask you to remember', `The number is ${numbers[1]}.`);
  expect(textOne).not.toContain(`The number is ${numbers[1]}.`);
  expect(textTwo).not.toContain(`The number is ${numbers[0]}.`);
}
