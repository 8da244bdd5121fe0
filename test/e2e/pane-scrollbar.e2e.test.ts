// A pane's scrollbar shows when the user wants it, not whenever the agent prints (renderer/panes/xterm-tuning.ts
// `quietScrollbar`), in Chromium with a real core: an agent printing a line every 50 ms leaves its pane's scrollbar
// hidden; the pointer over the pane shows it; a scroll by the user (Shift+PageUp) shows it too. xterm showed it after
// every line and faded it out after each pause, a fade nearly always running in a grid of printing panes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();

let web: WebMachine | null = null;
let page: Page;
let agentId = '';

/** The vertical scrollbar's classes: xterm's `visible`, or `invisible` (with `fade` while it fades out). */
const scrollbar = () =>
  page.evaluate(
    (id) =>
      document.querySelector(`[data-agent-id="${id}"] .xterm-scrollable-element > .scrollbar.vertical`)?.className ??
      'none',
    agentId,
  );
const shown = (classes: string) => classes.split(' ').includes('visible');

/** Moves the pointer off every pane (onto the history's title). */
const pointerAway = async () => {
  const title = await page.getByRole('heading', { name: 'Runs' }).boundingBox();
  await page.mouse.move((title?.x ?? 0) + 2, (title?.y ?? 0) + 2);
};

describe.skipIf(skipReason !== null)(`pane scrollbar${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pane-scrollbar-');
    const run = await web.client.call('run.start', {
      name: 'printing',
      agents: [
        {
          vendor: 'shell' as const,
          label: 'printer',
          cwd: web.machine.work,
          command: ['sh', '-c', 'i=0; while :; do i=$((i+1)); echo "line-$i"; sleep 0.05; done'],
        },
      ],
    });
    agentId = run.agents[0]!.id;
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  it('stays hidden while the agent prints, and shows for the pointer and for a scroll by the user', async () => {
    await page.goto(`${web!.server.url}/#token=${web!.server.token}`);
    await page.getByRole('list', { name: 'Runs' }).getByRole('button', { name: 'printing', exact: true }).click();
    await pointerAway();
    // Far enough that every new line scrolls the view (the pane is shorter than 80 rows).
    await waitFor(
      async () => (await paneRows(page, agentId)).some((r) => /line-8\d/.test(r)),
      'the pane scrolling',
      30_000,
    );

    // Two seconds of output, about forty scrolls: the scrollbar never shows.
    const seen: string[] = [];
    for (let k = 0; k < 20; k++) {
      seen.push(await scrollbar());
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.filter(shown)).toEqual([]);
    expect(seen.every((c) => c.split(' ').includes('invisible'))).toBe(true);

    // The pointer over the pane shows it; off the pane, it goes again.
    const screen = await page.locator(`[data-agent-id="${agentId}"] .xterm-screen`).boundingBox();
    expect(screen).not.toBeNull();
    await page.mouse.move(screen!.x + screen!.width / 2, screen!.y + screen!.height / 2);
    await waitFor(async () => shown(await scrollbar()), 'the scrollbar shown under the pointer', 5_000);
    await page.mouse.click(screen!.x + screen!.width / 2, screen!.y + screen!.height / 2);
    await pointerAway();
    await waitFor(async () => !shown(await scrollbar()), 'the scrollbar hidden again', 5_000);

    // A scroll by the user from the keyboard (the pane has the focus from the click) shows it.
    await page.keyboard.press('Shift+PageUp');
    await waitFor(async () => shown(await scrollbar()), 'the scrollbar shown for the scroll', 5_000);
  }, 120_000);
});
