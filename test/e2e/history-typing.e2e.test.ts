// Typing into the history's search box while a pane in view prints, in Chromium: the search shows exactly the runs
// that match after every key, and the pane's output, paced while the user types there (renderer/panes/write-pacer.ts
// `typedElsewhere`), all reaches the pane once the typing stops: none of it lost, reordered or doubled.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const LINES = 60_000;
const TYPED = 'printer';

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let printerId = '';

describe.skipIf(skipReason !== null)(
  `typing into the history while a pane prints${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      web = await startWebMachine('baton-history-typing-');
      ({ server, client } = web);
      const { work } = web.machine;
      const quiet = {
        vendor: 'shell' as const,
        label: 'quiet',
        cwd: work,
        command: ['sh', '-c', 'echo quiet; exec cat'],
      };
      await client.call('run.start', { name: 'quiet one', agents: [quiet] });
      await client.call('run.start', { name: 'prim', agents: [quiet] });
      const run = await client.call('run.start', {
        name: TYPED,
        agents: [
          {
            vendor: 'shell' as const,
            label: 'printer',
            cwd: work,
            command: ['sh', '-c', `echo printer ready; read go; seq 1 ${LINES}; echo print done; exec cat`],
          },
        ],
      });
      printerId = run.agents[0]!.id;
      page = (await web.openBrowser()).page;
    }, 120_000);

    afterAll(() => web?.close());

    const rows = () => paneRows(page, printerId);
    const listed = () =>
      page
        .getByRole('list', { name: 'Runs' })
        .locator('.bt-run-select')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

    it('filters the runs at every key and keeps every line the pane printed meanwhile, in order', async () => {
      await page.goto(`${server.url}/#token=${server.token}`);
      await page.getByRole('button', { name: TYPED, exact: true }).click();
      await waitFor(async () => (await rows()).includes('printer ready'), 'the printer pane', 30_000);

      const search = page.getByRole('searchbox', { name: 'Search runs' });
      await search.click();
      await client.call('agent.write', { agentId: printerId, data: '\n' });
      // Type while it prints; after each key the list shows exactly the runs whose names hold the text so far.
      for (let i = 1; i <= TYPED.length; i++) {
        await page.keyboard.type(TYPED[i - 1]!);
        const text = TYPED.slice(0, i);
        const expected = ['printer', 'prim', 'quiet one'].filter((n) => n.includes(text)).sort();
        await waitFor(
          async () => JSON.stringify([...(await listed())].sort()) === JSON.stringify(expected),
          `the runs matching "${text}"`,
          10_000,
        );
      }
      expect(await listed()).toEqual([TYPED]);

      await waitFor(async () => (await rows()).includes('print done'), 'the end of the printing', 120_000);
      const printed = await rows();
      const numbers = printed.slice(0, printed.indexOf('print done')).filter((l) => /^\d+$/.test(l));
      expect(numbers.length).toBeGreaterThan(5);
      // The lines above the end are the last of 1…LINES, each once, in order.
      expect(numbers.map(Number)).toEqual(numbers.map((_, i) => LINES - numbers.length + 1 + i));
    }, 240_000);
  },
);
