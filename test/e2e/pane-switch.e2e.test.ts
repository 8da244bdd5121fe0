// Switching between runs whose agents keep printing, in Chromium with a real core: after every switch each pane of
// the run shown holds its own xterm and shows what its agent prints now (none blank, none stale), whatever order the
// panes are moved in and drawn (docs/performance.md, "Longest task and idle page"); a key typed right after a switch
// reaches the pane clicked, and only that one.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
/** Two runs of a 3 × 3 grid. */
const AGENTS = 9;
const SWITCHES = 4;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
const runs: { name: string; agents: string[] }[] = [];

/** Prints a tick every half second, and answers each line typed with one line of its own. */
const printer = (label: string) =>
  `(i=0; while :; do i=$((i+1)); echo "${label} tick $i"; sleep 0.5; done) & while read l; do echo "got:$l"; done`;

describe.skipIf(skipReason !== null)(`switching runs${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pane-switch-');
    ({ server, client } = web);
    const { work } = web.machine;
    for (const name of ['left', 'right']) {
      const run = await client.call('run.start', {
        name,
        agents: Array.from({ length: AGENTS }, (_, k) => ({
          vendor: 'shell' as const,
          label: `${name}${k + 1}`,
          cwd: work,
          command: ['sh', '-c', printer(`${name}${k + 1}`)],
        })),
      });
      runs.push({ name, agents: run.agents.map((a) => a.id) });
    }
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  const runButton = (name: string) =>
    page.getByRole('list', { name: 'Runs' }).getByRole('button', { name, exact: true });
  const newestTick = (lines: readonly string[], label: string) =>
    lines.reduce((most, l) => Math.max(most, Number(new RegExp(`^${label} tick (\\d+)$`).exec(l)?.[1] ?? -1)), -1);
  const coreTick = async (agentId: string, label: string) =>
    newestTick((await client.call('agent.screen', { agentId })).text.split('\n'), label);
  /** Panes in view whose xterm is inside them (a pane waiting to be moved in has none). */
  const mountedInView = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.bt-pane:not([hidden])')]
        .filter((p) => p.querySelector('.bt-pane-body .xterm-rows') !== null)
        .map((p) => p.dataset.agentId ?? ''),
    );

  /** Each pane in view: its agent, the name it is labelled with and the label its header shows. */
  const headers = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.bt-pane:not([hidden])')].map(
        (p) => `${p.dataset.agentId} ${p.getAttribute('aria-label')} ${p.querySelector('.bt-pane-label')?.textContent}`,
      ),
    );

  it('shows every pane of the run switched to current, again and again, and types into the focused one', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    for (let s = 0; s < SWITCHES; s++) {
      const run = runs[s % 2]!;
      const before = new Map<string, number>();
      for (const [k, id] of run.agents.entries()) before.set(id, await coreTick(id, `${run.name}${k + 1}`));
      await runButton(run.name).click();
      for (const [k, id] of run.agents.entries()) {
        const label = `${run.name}${k + 1}`;
        // Its own output, newer than the switch: neither blank nor the screen it was left with.
        await waitFor(
          async () => newestTick(await paneRows(page, id), label) > before.get(id)!,
          `pane ${label} current after switch ${s + 1}`,
          20_000,
        );
      }
      expect((await mountedInView()).sort()).toEqual([...run.agents].sort());
      // Drawn and laid out in slices before the frame (renderer/panes/show-slices.ts): none is left skipped.
      expect(await page.locator('.bt-xterm-host.bt-xterm-later').count()).toBe(0);
      // Each pane's header is its own agent's, in the run's order.
      expect(await headers()).toEqual(run.agents.map((id, k) => `${id} ${run.name}${k + 1} ${run.name}${k + 1}`));
    }

    // A key typed into a pane right after its run is shown reaches that agent (its pane may still be moving in).
    const run = runs[SWITCHES % 2]!;
    await runButton(run.name).click();
    await page.locator(`[data-agent-id="${run.agents[0]}"] .xterm-screen`).click();
    await page.keyboard.type('typed\n');
    // That agent answers it, in its pane only (for a few seconds, until the ticks scroll it away).
    await waitFor(
      async () => (await paneRows(page, run.agents[0]!)).includes('got:typed'),
      'the typed line in the focused pane',
      20_000,
    );
    for (const id of run.agents.slice(1)) expect(await paneRows(page, id)).not.toContain('got:typed');
  }, 180_000);
});
