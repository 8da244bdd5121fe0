// First visits of panes loaded ahead, in Chromium, with a real core and agents that keep printing: a run's panes are
// loaded in the background while another run is in view (renderer/panes/pane-warmup.ts), each from the core's screen
// and a few screens of history (a bounded catch-up, renderer/panes/pane-history.ts), in the off-screen parking lot at
// xterm's default size. Switching to that run shows them in a grid of smaller panes: each must show what its agent
// prints now, not stay where it was when it was moved in (xterm's paused renderer used to leave such a view above the
// bottom: renderer/panes/pane-fit.ts), and scrolling up must still bring back the agent's first line.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const HISTORY = 2000;
/** A 3 × 3 grid: each pane has fewer rows than the 24 of an xterm loaded ahead in the parking lot. */
const AGENTS = 9;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let busy: string[] = [];

const printer = [
  `seq -f 'hist %g' 1 ${HISTORY}`,
  'i=0',
  'while :; do i=$((i+1)); echo "tick $i"; sleep 0.2; done',
].join('; ');

describe.skipIf(skipReason !== null)(
  `first visits of panes loaded ahead${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      web = await startWebMachine('baton-first-visit-');
      ({ server, client } = web);
      const { work } = web.machine;
      const run = await client.call('run.start', {
        name: 'busy',
        agents: Array.from({ length: AGENTS }, (_, k) => ({
          vendor: 'shell' as const,
          label: `p${k + 1}`,
          cwd: work,
          command: ['sh', '-c', printer],
        })),
      });
      busy = run.agents.map((a) => a.id);
      await client.call('run.start', {
        name: 'calm',
        agents: [{ vendor: 'shell' as const, label: 'calm', cwd: work, command: ['sh', '-c', 'echo calm; exec cat'] }],
      });
      page = (await web.openBrowser()).page;
    }, 120_000);

    afterAll(() => web?.close());

    const runButton = (name: string) =>
      page.getByRole('list', { name: 'Runs' }).getByRole('button', { name, exact: true });
    /** The pane's rows in view, trailing blank rows dropped. */
    const rows = async (agentId: string) => {
      const lines = await paneRows(page, agentId);
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines;
    };
    const newestTick = (lines: readonly string[]) =>
      lines.reduce((most, l) => Math.max(most, Number(/^tick (\d+)$/.exec(l)?.[1] ?? -1)), -1);
    /** What the agent has printed so far, as the core's mirror has it. */
    const coreTick = async (agentId: string) =>
      newestTick((await client.call('agent.screen', { agentId })).text.split('\n'));

    it('shows each pane current when its run is opened, and scrolling up still reaches the first line', async () => {
      await page.goto(`${server.url}/#token=${server.token}`);
      await runButton('calm').click();
      await page.locator('.xterm-rows', { hasText: 'calm' }).waitFor();
      // The busy run's panes are loaded ahead while the calm one is in view: an xterm each, fed its catch-up.
      await waitFor(
        async () => (await page.locator('.bt-xterm-host').count()) === AGENTS + 1,
        'the busy run loaded ahead',
        30_000,
      );
      // Time for every catch-up to arrive and be written while the panes wait out of view (they print meanwhile).
      await page.waitForTimeout(3000);

      const before = new Map<string, number>();
      for (const id of busy) before.set(id, await coreTick(id));
      await runButton('busy').click();
      // Each pane shows output printed after the switch: the view follows the agent, not the screen it was loaded with.
      for (const id of busy)
        await waitFor(async () => newestTick(await rows(id)) > before.get(id)!, `pane ${id} current`, 20_000);
      // And keeps following it.
      await page.waitForTimeout(1500);
      for (const id of busy) {
        const shown = newestTick(await rows(id));
        expect(shown, `pane ${id} follows its agent`).toBeGreaterThanOrEqual((await coreTick(id)) - 10);
      }

      // The pane got only a few screens of history; scrolling up a page at a time (Shift+PageUp) loads the rest at the
      // top and reaches the agent's first line.
      const [first] = busy;
      await page.locator(`[data-agent-id="${first}"] .xterm-screen`).click();
      await waitFor(
        async () => {
          if ((await rows(first!))[0] === 'hist 1') return true;
          for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+PageUp');
          return false;
        },
        'the first line of the history',
        60_000,
      );
      expect((await rows(first!)).slice(0, 3)).toEqual(['hist 1', 'hist 2', 'hist 3']);

      // Back at the bottom (Shift+PageDown, a page at a time), the pane follows its agent again.
      const bottom = await coreTick(first!);
      await waitFor(
        async () => {
          if (newestTick(await rows(first!)) > bottom) return true;
          for (let i = 0; i < 40; i++) await page.keyboard.press('Shift+PageDown');
          return false;
        },
        'the pane back at its newest output',
        60_000,
      );
    }, 180_000);
  },
);
