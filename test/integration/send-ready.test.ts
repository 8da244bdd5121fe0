// `agent.send` right after a start (docs/input-ready.md): through a real `baton serve`, the core waits until the CLI
// takes input before it types, so the Enter is not lost in a terminal that is not yet in raw mode; and a CLI that
// never goes quiet still gets the line once the wait's bound has passed.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { FAKES, agentByLabel, ask, randomNumber, screenText, waitFor } from '../helpers/server.js';
import { startServedMachine, type ServedMachine } from '../helpers/served-machine.js';

const WAIT_MS = 20_000;
let served: ServedMachine | null = null;
let client: RpcClient;
let work = '';

beforeAll(async () => {
  // The fake Claude keeps its terminal cooked, drawing nothing, for its first 600 ms.
  served = await startServedMachine('baton-send-ready-', {
    FAKE_CLAUDE_DELAY_MS: '20',
    FAKE_CLAUDE_RAW_DELAY_MS: '600',
  });
  client = served.client;
  work = served.machine.work;
}, 40_000);

afterAll(() => served?.close());

describe('agent.send to an agent just started', () => {
  it('submits the whole line to a CLI that takes its terminal in raw mode only after a while', async () => {
    const run = await client.call('run.start', { name: 'slow', agents: [{ vendor: 'claude', label: 'a', cwd: work }] });
    const agent = agentByLabel(run.agents, 'a');
    const n = randomNumber();
    // No wait for its prompt: the core's own.
    const screen = await ask(client, agent.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    // Typed into its prompt, not echoed by the terminal before the CLI drew anything.
    expect(screen.indexOf(`remember the number ${n}`)).toBeGreaterThan(screen.indexOf('Claude Code'));
  });

  it('waits for the first quiet screen of a CLI whose prompt Baton does not know', async () => {
    // The same fake as a shell agent: no vendor patterns, so only its output tells when it has started.
    const command = [process.execPath, join(FAKES, 'claude.mjs')];
    const run = await client.call('run.start', {
      name: 'unknown',
      agents: [{ vendor: 'shell', label: 'cli', cwd: work, command }],
    });
    const agent = agentByLabel(run.agents, 'cli');
    const n = randomNumber();
    await ask(client, agent.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
  });

  it('types into a CLI that never goes quiet once the bound has passed', async () => {
    const run = await client.call('run.start', {
      name: 'busy',
      agents: [
        {
          vendor: 'shell',
          label: 'sh',
          cwd: work,
          // Prints a dot every 20 ms until a line arrives, then says what it got.
          command: [
            '/bin/bash',
            '-c',
            'while :; do printf .; sleep 0.02; done & read -r line; kill $!; echo; echo "got:$line"; exec sleep 600',
          ],
        },
      ],
    });
    const agent = agentByLabel(run.agents, 'sh');
    await client.call('agent.send', { agentId: agent.id, text: 'hello there' });
    await waitFor(
      async () => (await screenText(client, agent.id)).includes('got:hello there'),
      'the line read',
      WAIT_MS,
    );
  });
});
