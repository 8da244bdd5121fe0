// A pane with a long history, in Chromium: its first visit paints the current screen (the core's mirror screen)
// from a catch-up that carries only a few screens of history; scrolling to the top loads the rest into the same
// xterm (renderer/panes/pane-history.ts), down to the first line; and what the agent prints after that arrives whole
// and in order, the pane ending equal to the core's screen.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { FLOW } from '../../electron/core/pty/flow.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const HISTORY = 5000;
const AFTER = 40;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let agentId = '';

describe.skipIf(skipReason !== null)(`a pane's long history${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-history-');
    ({ server, client } = web);
    const { work } = web.machine;
    // More than a ring of invisible attribute resets first (3 bytes each): the ring no longer holds the first byte, so
    // the page's first visit is a reset from the core's mirror, which carries only a few screens of the 5,000 lines.
    const resets = Math.ceil((FLOW.ringBytes * 1.2) / 3);
    const filler = `yes "$(printf '\\033[m')" | head -n ${resets} | tr -d '\\n'`;
    const script = `${filler}; seq -f 'hist %g' 1 ${HISTORY}; echo ready; read go; seq -f 'next %g' 1 ${AFTER}; echo finished; exec cat`;
    const run = await client.call('run.start', {
      name: 'history',
      agents: [{ vendor: 'shell' as const, label: 'long', cwd: work, command: ['sh', '-c', script] }],
    });
    agentId = run.agents[0]!.id;
    // The whole history is in the core's mirror before the page opens: the page's first visit is a catch-up.
    await waitFor(
      async () => (await client.call('agent.screen', { agentId })).text.endsWith('ready'),
      'the agent history',
      30_000,
    );
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  /** The pane's rows in view, trailing blank rows dropped. */
  const rows = async () => {
    const lines = await paneRows(page, agentId);
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines;
  };
  /** The same rows of the core's mirror: its text's last lines. */
  const coreRows = async (count: number) =>
    (await client.call('agent.screen', { agentId })).text.split('\n').slice(-count);
  const wheel = async (deltaY: number) => {
    const box = await page.locator(`[data-agent-id="${agentId}"] .xterm-screen`).boundingBox();
    if (!box) throw new Error('the pane is not in view');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, deltaY);
  };

  it('shows the current screen first, brings back the first line from the top, and keeps what follows in order', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await waitFor(async () => (await rows()).at(-1) === 'ready', 'the pane screen', 30_000);
    // The screen is the core's (the pane's size reached the core, so both wrap alike).
    await waitFor(
      async () => {
        const shown = await rows();
        return shown.length > 3 && JSON.stringify(shown) === JSON.stringify(await coreRows(shown.length));
      },
      'the pane equal to the core screen',
      30_000,
    );

    // Scrolling up, a page at a time (Shift+PageUp), reaches the top of the few screens of history the pane got:
    // the earlier output loads there ("loading earlier output…"), and further up the top is the agent's first line.
    await page.evaluate((id) => {
      const host = document.querySelector(`[data-agent-id="${id}"]`)!;
      const seen = window as unknown as { sawHistoryNotice: boolean };
      seen.sawHistoryNotice = false;
      new MutationObserver(() => {
        if (host.querySelector('.bt-history-notice')) seen.sawHistoryNotice = true;
      }).observe(host, { childList: true, subtree: true });
    }, agentId);
    await wheel(-100);
    await page.locator(`[data-agent-id="${agentId}"] .xterm-screen`).click();
    await waitFor(
      async () => {
        if ((await rows())[0] === 'hist 1') return true;
        for (let i = 0; i < 20; i++) await page.keyboard.press('Shift+PageUp');
        return false;
      },
      'the first line of the history',
      60_000,
    );
    expect(await page.evaluate(() => (window as unknown as { sawHistoryNotice: boolean }).sawHistoryNotice)).toBe(true);
    expect(await page.locator(`[data-agent-id="${agentId}"] .bt-history-notice`).count()).toBe(0);
    const top = await rows();
    expect(top.slice(0, 5)).toEqual(['hist 1', 'hist 2', 'hist 3', 'hist 4', 'hist 5']);

    // Output after the refill: typed into the pane (which brings the view back to the bottom), then every line the
    // agent prints once, in order, right after the history, and the pane equals the core's screen.
    await page.keyboard.type('go');
    await page.keyboard.press('Enter');
    await waitFor(
      async () => (await client.call('agent.screen', { agentId })).text.endsWith('finished'),
      'the agent output',
      30_000,
    );
    await waitFor(async () => (await rows()).at(-1) === 'finished', 'the new output in the pane', 30_000);
    const shown = await rows();
    expect(shown).toEqual(await coreRows(shown.length));
    const next = shown.filter((l) => l.startsWith('next '));
    expect(next.length).toBeGreaterThan(5);
    expect(next).toEqual(next.map((_, i) => `next ${AFTER - next.length + 1 + i}`));
  }, 180_000);
});
