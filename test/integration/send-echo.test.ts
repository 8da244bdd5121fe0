// `agent.send` to a CLI that reads typed text late (docs/input-ready.md): the vendor's pause before Enter counts from
// the text's echo, so the Enter never reaches the CLI in the same burst as the text, where it would be taken as part of
// a paste and the prompt left unsent. The fake Gemini (an Enter within 300 ms of typed text is a newline, as the real
// one) blocks for 1.5 s on the first text it reads, longer than Gemini's 800 ms pause.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { join } from 'node:path';
import { FAKES, agentByLabel, ask, randomNumber, screenText, waitFor } from '../helpers/server.js';
import { startServedMachine, type ServedMachine } from '../helpers/served-machine.js';

const WAIT_MS = 20_000;
let served: ServedMachine | null = null;
let client: RpcClient;
let work = '';

beforeAll(async () => {
  served = await startServedMachine('baton-send-echo-', {
    BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
    FAKE_TUI_BUSY_ON_TEXT_MS: '1500',
  });
  client = served.client;
  work = served.machine.work;
}, 40_000);

afterAll(() => served?.close());

async function geminiAgent(name: string) {
  const run = await client.call('run.start', { name, agents: [{ vendor: 'gemini', label: 'g', cwd: work }] });
  const agent = agentByLabel(run.agents, 'g');
  await waitFor(async () => (await screenText(client, agent.id)).includes('Type your message'), 'the prompt', WAIT_MS);
  return agent;
}

describe('agent.send to a CLI that reads the text late', () => {
  it('a fixed pause after the text is not enough: the Enter is read with the text, as a paste', async () => {
    const agent = await geminiAgent('fixed-pause');
    const n = randomNumber();
    await client.call('agent.write', { agentId: agent.id, data: `remember the number ${n}` });
    await new Promise((r) => setTimeout(r, 800));
    await client.call('agent.write', { agentId: agent.id, data: '\r' });
    // The text is echoed once the CLI is free again, and sits in its box, never answered.
    await waitFor(
      async () => (await screenText(client, agent.id)).includes(`remember the number ${n}`),
      'the echo',
      WAIT_MS,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(await screenText(client, agent.id)).not.toContain(`OK, I will remember ${n}.`);
  });

  it('agent.send waits for the echo, then the pause: the prompt is submitted', async () => {
    const agent = await geminiAgent('from-echo');
    const n = randomNumber();
    await ask(client, agent.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
  });
});
