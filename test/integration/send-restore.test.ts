// `agent.send` to a CLI that drops the keys it reads while it restores a session (docs/input-ready.md). The fake
// Gemini (FAKE_GEMINI_RESTORE, test/fakes/lib/restore.mjs) does what the real Gemini CLI 0.61 was measured to do:
// it draws its prompt box, is busy a while, then clears its screen, draws the conversation without a box and drops
// what it reads, then draws the box again. A text typed once its box has shown a moment is lost there; `agent.send`
// delivers it, exactly once:
// - resumed, with the vendor's "Resuming session..." notice: the send waits until the notice has come and gone;
// - at a start that shows no notice: the text, not drawn, under an empty box drawn again, is typed once more.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FAKES, agentByLabel, randomNumber, screenText, waitFor } from '../helpers/server.js';
import { startServedMachine, type ServedMachine } from '../helpers/served-machine.js';

const WAIT_MS = 20_000;
const machines: ServedMachine[] = [];

afterAll(async () => {
  for (const m of machines.splice(0)) await m.close();
});

async function served(restore: string): Promise<ServedMachine> {
  const m = await startServedMachine('baton-send-restore-', {
    BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
    FAKE_GEMINI_RESTORE: restore,
  });
  machines.push(m);
  return m;
}

const count = (hay: string, needle: string) => hay.split(needle).length - 1;

/** agent.send `text` to an agent just spawned; its answer shows once, and its text was submitted once. */
async function sendsOnce(m: ServedMachine, agentId: string, n: number): Promise<void> {
  const text = `remember the number ${n}`;
  await m.client.call('agent.send', { agentId, text });
  const screen = await waitFor(
    async () => {
      const s = await screenText(m.client, agentId);
      return s.includes(`OK, I will remember ${n}.`) ? s : undefined;
    },
    `the answer to '${text}'`,
    WAIT_MS,
  );
  expect(count(screen, `> ${text}`)).toBe(1);
  expect(screen).not.toContain(`${text}${text}`);
}

describe('agent.send to a CLI that drops keys while it restores a session', () => {
  it('a resumed agent that says it is restoring: the text is typed after, and submitted once', async () => {
    const m = await served('1200,800,1,resume');
    const run = await m.client.call('run.start', {
      name: 'restored',
      agents: [{ vendor: 'gemini', label: 'g', cwd: m.machine.work }],
    });
    const first = agentByLabel(run.agents, 'g');
    await sendsOnce(m, first.id, randomNumber());
    const { handle } = await m.client.call('run.handle', { run: 'restored' });
    await m.client.call('run.stop', { run: 'restored' });
    const resumed = await m.client.call('run.resume', { handle });
    await sendsOnce(m, agentByLabel(resumed.run.agents, 'g').id, randomNumber());
  });

  it('a start that drops the text without a notice: it is typed once more, and submitted once', async () => {
    const m = await served('1200,800,0,always');
    const run = await m.client.call('run.start', {
      name: 'silent',
      agents: [{ vendor: 'gemini', label: 'g', cwd: m.machine.work }],
    });
    await sendsOnce(m, agentByLabel(run.agents, 'g').id, randomNumber());
  });
});
