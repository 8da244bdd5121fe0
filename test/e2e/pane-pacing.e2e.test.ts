// Typing into one pane while another floods, in Chromium: the flooding pane's output waits behind the keystrokes'
// echoes (renderer/panes/write-pacer.ts) but none of it is lost, reordered or doubled, and every key typed reaches
// its agent and is echoed. The flooding pane is drawn at most 20 times a second (renderer/panes/render-throttle.ts) and
// acks in batches (pane-output.ts): the rows it draws still end on the flood's last lines. The figures (echo latency,
// the flooder's rate) are the renderer bench's.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const LINES = 200_000;
// Shorter than a pane's width, so it stays on one row.
const TYPED = 'quick brown fox, flood aside';

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let typistId = '';
let flooderId = '';

describe.skipIf(skipReason !== null)(`typing while another pane floods${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pacing-');
    ({ server, client } = web);
    const { work } = web.machine;
    const run = await client.call('run.start', {
      name: 'pacing',
      agents: [
        { vendor: 'shell' as const, label: 'typist', cwd: work, command: ['sh', '-c', 'echo typist ready; exec cat'] },
        {
          vendor: 'shell' as const,
          label: 'flooder',
          cwd: work,
          command: ['sh', '-c', `echo flooder ready; read go; seq 1 ${LINES}; echo flood done; exec cat`],
        },
      ],
    });
    [typistId, flooderId] = run.agents.map((a) => a.id) as [string, string];
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  const rows = (agentId: string) => paneRows(page, agentId);

  it('keeps every flooded line, in order, and echoes every key typed meanwhile', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await waitFor(async () => (await rows(typistId)).includes('typist ready'), 'the typist pane', 30_000);
    await waitFor(async () => (await rows(flooderId)).includes('flooder ready'), 'the flooder pane', 30_000);
    await page.locator(`[data-agent-id="${typistId}"] .xterm-screen`).click();
    await client.call('agent.write', { agentId: flooderId, data: '\n' });
    await page.keyboard.type(TYPED, { delay: 10 });
    await page.keyboard.press('Enter');

    await waitFor(async () => (await rows(flooderId)).includes('flood done'), 'the end of the flood', 120_000);
    const flood = await rows(flooderId);
    const end = flood.indexOf('flood done');
    const numbers = flood.slice(0, end).filter((l) => /^\d+$/.test(l));
    expect(numbers.length).toBeGreaterThan(5);
    // The lines above the end are the last of 1…LINES, each once, in order.
    expect(numbers.map(Number)).toEqual(numbers.map((_, i) => LINES - numbers.length + 1 + i));
    // The terminal echoed the line as typed, and cat printed it back once Enter reached it.
    await waitFor(
      async () => (await rows(typistId)).filter((l) => l === TYPED).length === 2,
      'the typed line, echoed and printed back',
      30_000,
    );
  }, 240_000);
});
