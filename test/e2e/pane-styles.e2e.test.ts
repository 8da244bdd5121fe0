// Every pane's xterm is styled by one shared copy of xterm's style sheets (renderer/panes/shared-styles.ts), in
// Chromium with a real core: a grid of panes printing colors and bold shows them in the theme's colors, in dark and
// after a switch to light, while the page holds one theme sheet and one dimensions sheet for all of them instead of
// two per pane (docs/performance.md, "Longest task: one style sheet for every pane").
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const AGENTS = 6;

let web: WebMachine | null = null;
let page: Page;
let agents: string[] = [];

/** What the page's style sheets hold of xterm's per-terminal rules, and the shared ones. */
const sheetCounts = () =>
  page.evaluate(() => {
    const texts = [...document.styleSheets].map((s) => {
      try {
        return [...s.cssRules].map((r) => r.cssText).join('\n');
      } catch {
        return '';
      }
    });
    return {
      perTerminal: texts.filter((t) => t.includes('.xterm-dom-renderer-owner-')).length,
      theme: texts.filter((t) => t.includes('.xterm .xterm-fg-1 ')).length,
      dimensions: texts.filter((t) => t.includes('.xterm .xterm-rows span {')).length,
    };
  });

/** The computed color, weight and row color of the agent's red and bold words. */
const look = (agentId: string) =>
  page.evaluate((id) => {
    const pane = document.querySelector(`[data-agent-id="${id}"]`);
    const red = pane?.querySelector('.xterm-rows span.xterm-fg-1');
    const bold = pane?.querySelector('.xterm-rows span.xterm-bold');
    const rows = pane?.querySelector('.xterm-rows');
    return {
      red: red ? getComputedStyle(red).color : null,
      bold: bold ? getComputedStyle(bold).fontWeight : null,
      text: rows ? getComputedStyle(rows).color : null,
    };
  }, agentId);

describe.skipIf(skipReason !== null)(`pane styles${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pane-styles-');
    const run = await web.client.call('run.start', {
      name: 'colors',
      agents: Array.from({ length: AGENTS }, (_, k) => ({
        vendor: 'shell' as const,
        label: `c${k + 1}`,
        cwd: web!.machine.work,
        command: ['sh', '-c', `printf '\\033[31mred-${k + 1}\\033[0m \\033[1mbold\\033[0m\\n'; exec sleep 100000`],
      })),
    });
    agents = run.agents.map((a) => a.id);
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  it("shows every pane in the theme's colors, dark and light, from one shared theme sheet", async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${web!.server.url}/#token=${web!.server.token}`);
    await page.getByRole('list', { name: 'Runs' }).getByRole('button', { name: 'colors', exact: true }).click();
    for (const [k, id] of agents.entries())
      await waitFor(
        async () => (await paneRows(page, id)).includes(`red-${k + 1} bold`),
        `pane c${k + 1} drawn`,
        20_000,
      );

    // xterm's default red, bold, and the dark theme's foreground (renderer/panes/pane-terminal.ts).
    for (const id of agents)
      expect(await look(id)).toEqual({ red: 'rgb(204, 0, 0)', bold: '700', text: 'rgb(216, 222, 233)' });
    expect(await sheetCounts()).toEqual({ perTerminal: 0, theme: 1, dimensions: 1 });

    // The system turns light: every pane follows, and the dark theme's sheet leaves the page.
    await page.emulateMedia({ colorScheme: 'light' });
    await waitFor(
      async () => (await look(agents[0]!)).text === 'rgb(31, 35, 40)',
      'the panes in the light theme',
      10_000,
    );
    for (const id of agents)
      expect(await look(id)).toEqual({ red: 'rgb(204, 0, 0)', bold: '700', text: 'rgb(31, 35, 40)' });
    expect(await sheetCounts()).toEqual({ perTerminal: 0, theme: 1, dimensions: 1 });
  }, 120_000);
});
